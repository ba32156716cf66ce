package analysis

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// File is one version of one source file: its front end and sizes (Prog), and the clustering
// and fusion of each definition once asked for.
type File struct {
	Name     string
	Text     []byte
	Prog     *infer.Program
	Priority int64
	engine   *Engine
	cfg      Config // the engine's configuration when the version was loaded

	mu   sync.Mutex
	defs map[string]*pending

	// stop ends the file's solves early, keeping their best clusterings (StopSolves).
	stop       context.Context
	stopSolves context.CancelFunc
}

// StopSolves ends the file's running and later solves as their time limits would: each
// definition gets the best clustering found so far, marked not proven optimal. The language
// server calls it when the user cancels a long clustering.
func (f *File) StopSolves() { f.stopSolves() }

// pending is a definition's analysis, being computed or done.
type pending struct {
	done chan struct{}
	def  *Def
	err  error
}

// Def is a definition's analysis beyond its sizes.
type Def struct {
	Name   string
	Sizes  *infer.Result
	Report *cluster.Report
	// Reused reports that the clustering came from the engine's cache: the definition's graph
	// was the same as in an analysis made before.
	Reused bool
	key    string // the graph's key (cluster.Graph.Key)

	mu     sync.Mutex
	forced map[[2]int]cluster.Forced // (node, cluster) -> the optimum with the node forced there

	fuseOnce sync.Once
	fuse     func() []*fuse.Fused // computes fused (once, when asked: cnf cluster never asks)
	fused    []*fuse.Fused
}

// Fused returns the processes of the definition's loops: one per cluster of Report.Ours, in
// execution order. They are computed on the first call (from the engine's cache when the same
// clustering of the same graph was fused before).
func (d *Def) Fused() []*fuse.Fused {
	d.fuseOnce.Do(func() { d.fused = d.fuse() })
	return d.fused
}

// ErrRejected is returned for a definition with errors: it has no clustering.
var ErrRejected = errors.New("the definition has errors")

// ErrNoDefinition is returned for a name the file does not define.
var ErrNoDefinition = errors.New("no such definition")

// Func returns the checked definition called name and its sizes (nil when the front end
// rejected it), or false when the file has no such definition.
func (f *File) Func(name string) (*syntax.Func, *infer.Result, bool) {
	for i, fn := range f.Prog.Syntax.Funcs {
		if fn.Def.Name.Name == name {
			return fn, f.Prog.Funcs[i], true
		}
	}
	return nil, nil, false
}

// Names lists the definitions, in source order.
func (f *File) Names() []string {
	out := make([]string, len(f.Prog.Syntax.Funcs))
	for i, fn := range f.Prog.Syntax.Funcs {
		out[i] = fn.Def.Name.Name
	}
	return out
}

// Def returns the analysis of the definition called name, computing it the first time: once,
// however many ask at the same time. It fails with ErrNoDefinition, ErrRejected (wrapped, with
// the name), or ctx's error; a computation abandoned because its caller's context ended is
// started again by the next caller.
func (f *File) Def(ctx context.Context, name string) (*Def, error) {
	for {
		f.mu.Lock()
		p, ok := f.defs[name]
		if !ok {
			p = &pending{done: make(chan struct{})}
			f.defs[name] = p
			f.mu.Unlock()
			p.def, p.err = f.compute(ctx, name)
			if ctx.Err() != nil && p.err != nil {
				f.mu.Lock()
				delete(f.defs, name) // let the next caller start again
				f.mu.Unlock()
			}
			close(p.done)
			return p.def, p.err
		}
		f.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if isContextError(p.err) && ctx.Err() == nil {
			continue // the computing caller gave up; this one has not
		}
		return p.def, p.err
	}
}

func isContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Defs returns the analyses of every definition accepted by size inference, in source order.
func (f *File) Defs(ctx context.Context) ([]*Def, error) {
	var out []*Def
	for _, name := range f.Names() {
		d, err := f.Def(ctx, name)
		switch {
		case errors.Is(err, ErrRejected):
		case err != nil:
			return nil, err
		default:
			out = append(out, d)
		}
	}
	return out, nil
}

func (f *File) compute(ctx context.Context, name string) (*Def, error) {
	_, sizes, ok := f.Func(name)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: %w", name, ErrNoDefinition)
	case sizes == nil || !sizes.OK():
		return nil, fmt.Errorf("%s: %w", name, ErrRejected)
	}
	rep, key, reused, err := f.engine.cluster(ctx, f, name, sizes)
	if err != nil {
		return nil, err
	}
	return f.newDef(name, sizes, rep, reused, key), nil
}

// newDef is the analysis of a definition with its clustering; its loops are fused when asked.
func (f *File) newDef(name string, sizes *infer.Result, rep *cluster.Report, reused bool, key string) *Def {
	e := f.engine // not f: a definition's analysis should not keep its file's text alive
	return &Def{Name: name, Sizes: sizes, Report: rep, Reused: reused, key: key,
		fuse: func() []*fuse.Fused { return e.fuse(key, sizes.Func, rep.Ours.Clustering, f.cfg.Fresh) }}
}

// cluster finds a definition's clustering and baselines: from the cache when the graph has
// been solved before under the same time limit (or proven optimal, by Prove optimal),
// otherwise by solving ours and Megiddo and Sarkar's side by side, each in a slot. The answer
// depends only on the graph and the configuration (not on the definition's earlier versions,
// nor on the machine's load): it is what `cnf cluster` says for the same text.
func (e *Engine) cluster(ctx context.Context, f *File, name string, sizes *infer.Result) (*cluster.Report, string, bool, error) {
	cfg := f.cfg
	g := cluster.NewGraph(sizes)
	if r := cfg.Rates[name]; len(r) > 0 {
		g.SetRates(r)
	}
	key := g.Key()
	if hit, ok := e.cache.get(key); ok && !cfg.Fresh && reusable(hit, cfg.TimeLimit) {
		ours, err1 := hit.ours.Apply(g)
		meg, err2 := hit.megiddo.Apply(g)
		if err1 == nil && err2 == nil {
			return cluster.NewReport(g, ours, meg), key, true, nil
		}
	}
	opts := cfg.options()
	opts.Stop = f.stop
	mopts := cfg.options()
	mopts.SameSizeOnly = true
	mopts.Stop = f.stop
	var meg *cluster.Result
	var megErr error
	// The baseline's slot is asked for first, so that the second racer of our solve (which
	// only takes a spare slot) never delays it.
	releaseMeg, err := e.slots.acquire(ctx, f.Priority)
	if err != nil {
		return nil, "", false, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer releaseMeg()
		meg, megErr = staged(mopts, func(o cluster.Options) (*cluster.Result, error) { return cluster.Solve(ctx, g, o) })
	}()
	ours, err := staged(opts, func(o cluster.Options) (*cluster.Result, error) { return e.solveRacing(ctx, g, o, f.Priority) })
	<-done
	if err == nil {
		err = megErr
	}
	if err != nil {
		return nil, "", false, err
	}
	if ours.Fallback == "" && meg.Fallback == "" && f.stop.Err() == nil {
		e.cache.put(entry{key: key, limit: cfg.TimeLimit, ours: ours.Decision(), megiddo: meg.Decision()})
	}
	return cluster.NewReport(g, ours, meg), key, false, nil
}

// solveRacing solves our clustering in a slot (the model strengthened by the root cuts), and, as
// soon as a second slot is free (often when Megiddo and Sarkar's solve is done), also a second
// solve (cluster.LPOrderSolver: a root loop with fewer cuts a round, and the columns in the other
// order), with half the effort (secondShare: it shares the cores with the first and with Megiddo
// and Sarkar's solve, and the answer waits for it). HiGHS's search depends on the order, and the
// root loop's path on its cuts, and neither is better on every program (docs/performance.md,
// "Behind the code", A1). The model as formulated, without the root cuts, raced here until the
// cuts got cheaper; it now lost every race (docs/performance.md).
//
// The race is decided by work, not by the clock (decide), so that its answer is the same on
// every run: a proof made with less work wins, and when one search proves its answer, the
// other stops once it has done as much work (cluster.Race); with no proof, the cheaper
// clustering wins, ties going to the first search. The solver the configuration names is not
// raced, nor is the one a build without HiGHS finds (an executable, or none).
func (e *Engine) solveRacing(ctx context.Context, g *cluster.Graph, opts cluster.Options, priority int64) (*cluster.Result, error) {
	if opts.Solver != nil || !cluster.Linked() {
		return e.solve(ctx, g, opts, priority)
	}
	release, err := e.slots.acquire(ctx, priority)
	if err != nil {
		return nil, err
	}
	defer release()
	race := cluster.NewRace(leadShare * cluster.WorkOf(limit(opts.TimeLimit)))
	opts.Race, opts.Leads = race, true
	results := make(chan outcome, 2)
	firstDone := make(chan *cluster.Result, 1)
	go func() {
		res, err := cluster.Solve(ctx, g, opts)
		firstDone <- res
		results <- outcome{0, res, err}
	}()
	go func() {
		// The second search starts once the first has done its lead's work; a proof within
		// the lead wins whatever the second would do, so then it does not run at all.
		select {
		case <-race.Passed():
		case res := <-firstDone:
			if res != nil && res.Optimal && res.Work <= race.Lead() {
				results <- outcome{1, nil, nil}
				return
			}
		case <-ctx.Done():
			results <- outcome{1, nil, ctx.Err()}
			return
		}
		second, err := e.slots.acquire(ctx, priority-spare)
		if err != nil {
			results <- outcome{1, nil, err}
			return
		}
		defer second()
		lopts := opts
		lopts.Solver = cluster.LPOrderSolver // the other search: another loop, the other order
		if opts.TimeLimit >= 0 {
			lopts.TimeLimit = time.Duration(secondShare * float64(limit(opts.TimeLimit)))
		}
		res, err := cluster.Solve(ctx, g, lopts)
		results <- outcome{1, res, err}
	}()
	var got [2]*cluster.Result
	var firstErr error
	for range 2 {
		o := <-results
		got[o.racer] = o.res
		if o.err != nil && firstErr == nil {
			firstErr = o.err
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	res := decide(got[0], got[1], race.Lead())
	if res != got[0] && got[0].Cuts != res.Cuts {
		// The next stage continues the first search's root loop (the one with the larger
		// share), whichever search answered this one.
		r := *res
		r.Cuts = got[0].Cuts
		res = &r
	}
	return res, nil
}

// reusable reports whether a cached solve is the answer under the time limit t: found under
// the same limit, or proven optimal under a limit whose stages are the first of t's
// (cluster.Stages), or found by Prove optimal, which the user asked for.
func reusable(hit entry, t time.Duration) bool {
	switch {
	case hit.proof || limit(hit.limit) == limit(t):
		return true
	case hit.ours.Optimal && hit.megiddo.Optimal:
		return cluster.DefaultTimeLimit <= limit(hit.limit) && limit(hit.limit) <= limit(t)
	}
	return false
}

// staged runs solve in the stages of opts's time limit (cluster.Stages), each from the best
// clustering so far and from the root loop's cuts of the stage before (cluster.Cuts: its loop
// continues the last one's), and answers with the best (the earliest on a tie), stopping at the first
// proof: so a longer limit never gives a worse clustering. The stages of a limit are the first
// stages of every longer one, and each stage's answer is the same on every run.
func staged(opts cluster.Options, solve func(cluster.Options) (*cluster.Result, error)) (*cluster.Result, error) {
	var best *cluster.Result
	var cuts *cluster.Cuts // the last stage's root loop's, which the next continues
	// The answer's time and work are the stages' together: "solved in" said only the last
	// stage's (1.4 s for a 4 s limit's answer that took 5.5 s).
	var took time.Duration
	var work float64
	for _, limit := range cluster.Stages(opts.TimeLimit) {
		o := opts
		o.TimeLimit = limit
		if best != nil {
			o.Start, o.Cuts = best.Of, cuts
		}
		res, err := solve(o)
		if err != nil {
			return nil, err
		}
		took, work = took+res.SolveTime, work+res.Work
		cuts = res.Cuts
		// A proven result's Bound is not set: its objective is the bound. A later stage that
		// proves the objective the best already has proves the best (its proof was dropped
		// before, and the stages went on for nothing).
		bound := res.Bound
		if res.Optimal {
			bound = res.Objective
		}
		switch {
		case best == nil || res.Objective < best.Objective:
			if best != nil && best.Bound > res.Bound && !res.Optimal {
				r := *res
				r.Bound = best.Bound
				res = &r
			}
			best = res
		case bound > best.Bound:
			r := *best
			r.Bound = bound
			best = &r
		}
		if !best.Optimal && best.Bound >= best.Objective {
			r := *best
			r.Optimal, r.Note = true, ""
			best = &r
		}
		if best.Optimal || best.Fallback != "" || (opts.Stop != nil && opts.Stop.Err() != nil) {
			break
		}
	}
	if best != nil {
		r := *best
		r.SolveTime, r.Work = took, work
		best = &r
	}
	return best, nil
}

// secondShare is the second search's share of the first's effort, and leadShare the share of
// it the first does before the second starts (most definitions are proven within it).
const (
	secondShare = 0.5
	leadShare   = 0.25
)

// outcome is what one solve of a race gave: racer 0 is the first search, 1 the second.
type outcome struct {
	racer int
	res   *cluster.Result
	err   error
}

// decide is the answer of a race between a (the first search) and b, by rules that depend on
// the searches' work, never on which finished first: a proof of a's within its lead wins (b
// did not run: nil); otherwise a proof made with less work wins (a, on a tie); with no proof,
// the cheaper clustering (a, on a tie), proven optimal when the other search's bound meets it
// (both solve the same model).
func decide(a, b *cluster.Result, lead float64) *cluster.Result {
	switch {
	case a.Optimal && a.Work <= lead:
		return a
	case b == nil:
		return a // not reached: b runs unless a proves within its lead
	case a.Optimal && (!b.Optimal || a.Work <= b.Work):
		return a
	case b.Optimal:
		return b
	}
	best := a
	if b.Objective < a.Objective {
		best = b
	}
	if bound := max(a.Bound, b.Bound); bound > best.Bound {
		r := *best
		r.Bound = bound
		if r.Optimal = bound >= r.Objective; r.Optimal {
			r.Note = "" // the other search's bound proves it
		}
		best = &r
	}
	if a.Clocked || b.Clocked {
		r := *best
		r.Clocked = true
		best = &r
	}
	return best
}

// Priorities below a file's own: a racer only takes a spare slot, and explanations come after
// every analysis.
const (
	spare       = 1 << 39
	explanation = 1 << 40
)

// solve runs one clustering solve in a slot; the time limit starts when the slot is granted.
func (e *Engine) solve(ctx context.Context, g *cluster.Graph, opts cluster.Options, priority int64) (*cluster.Result, error) {
	release, err := e.slots.acquire(ctx, priority)
	if err != nil {
		return nil, err
	}
	defer release()
	return cluster.Solve(ctx, g, opts)
}

// Model is the ILP of the definition's clustering: the one solved, or, when none was needed
// (nothing to optimise, a model over the budget, a cached clustering), the one that would be.
func (d *Def) Model() *cluster.Model {
	if m := d.Report.Ours.Model; m != nil {
		return m
	}
	return cluster.Formulate(d.Report.Graph, cluster.FormulateOptions{})
}
