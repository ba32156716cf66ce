package analysis

import (
	"context"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

// MaxForcedSolves bounds the re-solves made to explain why bindings are not in other loops;
// the other exclusions are explained by the cost of moving the binding alone.
const MaxForcedSolves = 40

// WhyNot explains why node n of the definition's clustering is not in each other loop, with the
// forced re-solves done so far (see Force).
func (d *Def) WhyNot(n int) []cluster.Exclusion {
	return d.Report.Ours.WhyNot(n, func(c int) (cluster.Forced, bool) {
		d.mu.Lock()
		defer d.mu.Unlock()
		f, ok := d.forced[[2]int{n, c}]
		return f, ok
	})
}

// Force re-solves the definition with bindings forced into other loops where only cost keeps
// them out, so that WhyNot can say by how much the best clustering with that choice is worse:
// at most MaxForcedSolves solves, each within min(the time limit, 500 ms), all within one time
// limit's work (so which ones are made does not depend on the machine's load; the clock
// stops them at cluster.SafetyFactor times the limit), at the lowest priority. Re-solves are
// remembered with the graph's clustering, so a later version with the same graph makes none
// again (their work still counts, so the same ones are made). It stops when ctx ends (the next
// edit) and returns how many it made.
func (f *File) Force(ctx context.Context, d *Def) int {
	cfg := f.cfg
	each := min(limit(cfg.TimeLimit), 500*time.Millisecond)
	ctx, cancel := context.WithTimeout(ctx, cluster.SafetyFactor*limit(cfg.TimeLimit))
	defer cancel()
	budget, spent := cluster.WorkOf(limit(cfg.TimeLimit)), 0.0
	ours := d.Report.Ours
	// Re-solves made for an earlier version with the same graph still hold.
	if known := f.engine.cache.forced(d.key); len(known) > 0 {
		d.mu.Lock()
		if d.forced == nil {
			d.forced = known
		} else {
			for k, v := range known {
				d.forced[k] = v
			}
		}
		d.mu.Unlock()
	}
	made := 0
	for _, nd := range d.Report.Graph.Nodes {
		for _, c := range ours.Clusters {
			if made == MaxForcedSolves || spent >= budget || ctx.Err() != nil {
				return made
			}
			if !ours.NeedsForcing(nd.ID, c) {
				continue
			}
			if known, ok := d.forcedAt(nd.ID, c.Index); ok {
				spent += known.Work
				continue
			}
			opts := cfg.options()
			opts.TimeLimit = each
			release, err := f.engine.slots.acquire(ctx, f.Priority-explanation)
			if err != nil {
				return made
			}
			res, err := ours.Force(ctx, nd.ID, c, opts)
			release()
			if err != nil {
				return made
			}
			made++
			spent += res.Work
			d.mu.Lock()
			if d.forced == nil {
				d.forced = map[[2]int]cluster.Forced{}
			}
			d.forced[[2]int{nd.ID, c.Index}] = res
			d.mu.Unlock()
			f.engine.cache.addForced(d.key, [2]int{nd.ID, c.Index}, res)
		}
	}
	return made
}

func (d *Def) forcedAt(n, c int) (cluster.Forced, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.forced[[2]int{n, c}]
	return f, ok
}

// Prove solves a definition's clustering without a time limit (until it is proven optimal or
// ctx ends), so that later analyses of the same graph get the proven optimum from the cache.
// It returns the definition's analysis with that clustering.
//
// When stop is done before the proof (nil: never), the solve ends as a time limit would end
// it, with the best clustering found and the bound proved by then: kept when it tells more
// than what was shown (a cheaper clustering, or a higher bound), recorded as found under the
// time the proof ran, and returned unproven; otherwise the definition is returned as it was.
// A stopped proof is not lost work.
//
// progress, when not nil, hears the best objective found and the bound proved as the proof
// goes (cluster.Options.Progress).
func (f *File) Prove(ctx context.Context, name string, stop context.Context, progress func(objective, bound int)) (*Def, error) {
	d, err := f.Def(ctx, name)
	if err != nil || d.Report.Ours.Optimal {
		return d, err
	}
	opts := f.cfg.options()
	opts.TimeLimit = cluster.NoTimeLimit
	opts.Stop = stop
	opts.Progress = progress
	began := time.Now()
	ours, err := f.engine.solve(ctx, d.Report.Graph, opts, f.Priority)
	if err != nil {
		return nil, err
	}
	found := cluster.NoTimeLimit
	if !ours.Optimal {
		// Stopped: keep the cheaper clustering and the higher bound of the two (both are of
		// the same model).
		shown := d.Report.Ours
		if ours.Fallback != "" {
			return d, nil
		}
		better := *shown
		if ours.Objective < shown.Objective {
			better = *ours
		}
		better.Bound = max(ours.Bound, shown.Bound)
		if better.Objective == shown.Objective && better.Bound == shown.Bound {
			return d, nil // nothing learnt
		}
		if better.Optimal = better.Bound >= better.Objective; better.Optimal {
			better.Note = ""
		} else {
			// The proof's word, also when only its bound is kept: the solve was stopped (the
			// shown clustering's note said why the time-limited solve ended, not this).
			better.Note = ours.Note
		}
		ours = &better
		found = max(time.Since(began), limit(f.cfg.TimeLimit))
	}
	rep := cluster.NewReport(d.Report.Graph, ours, d.Report.Megiddo)
	f.engine.cache.put(entry{key: d.key, limit: found, proof: true, ours: ours.Decision(), megiddo: d.Report.Megiddo.Decision()})
	return f.newDef(name, d.Sizes, rep, false, d.key), nil
}
