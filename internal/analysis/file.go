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
		fuse: func() []*fuse.Fused { return e.fuse(key, sizes.Func, rep.Ours.Clustering) }}
}

// cluster finds a definition's clustering and baselines: from the cache when the graph has
// been solved before (under a time limit at least as long, or proven optimal), otherwise by
// solving ours and Megiddo and Sarkar's side by side, each in a slot, starting ours from the
// definition's previous clustering where that is valid.
func (e *Engine) cluster(ctx context.Context, f *File, name string, sizes *infer.Result) (*cluster.Report, string, bool, error) {
	g := cluster.NewGraph(sizes)
	key := g.Key()
	cfg := e.Config()
	if hit, ok := e.cache.get(key); ok && !cfg.Fresh && (hit.ours.Optimal && hit.megiddo.Optimal || limit(hit.limit) >= limit(cfg.TimeLimit)) {
		ours, err1 := hit.ours.Apply(g)
		meg, err2 := hit.megiddo.Apply(g)
		if err1 == nil && err2 == nil {
			return cluster.NewReport(g, ours, meg), key, true, nil
		}
	}
	defKey := f.Name + "\x00" + name
	opts := cfg.options()
	opts.Stop = f.stop
	if prev := e.cache.previous(defKey); prev != nil && !cfg.Fresh {
		opts.Start = prev.LabelsFor(g) // Solve checks that it is valid
	}
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
		meg, megErr = cluster.Solve(ctx, g, mopts)
	}()
	ours, err := e.solveRacing(ctx, g, opts, f.Priority)
	<-done
	if err == nil {
		err = megErr
	}
	if err != nil {
		return nil, "", false, err
	}
	if ours.Fallback == "" && meg.Fallback == "" && f.stop.Err() == nil {
		e.cache.put(defKey, entry{key: key, limit: cfg.TimeLimit, ours: ours.Decision(), megiddo: meg.Decision()})
	}
	return cluster.NewReport(g, ours, meg), key, false, nil
}

// solveRacing solves our clustering in a slot (the model strengthened by the root cuts), and, as
// soon as a second slot is free (often when Megiddo and Sarkar's solve is done), also a second
// solve (cluster.LPOrderSolver: a root loop with fewer cuts a round, and the columns in the
// other order), within the same deadline. HiGHS's search depends on the order, and the root
// loop's path on its cuts, and neither is better on every program (glued 200 seed 1: 11.7 s
// in model order, 3.9 s in LP order; mixed 200 seed 2: 0.82 and 0.35 s; fans 200 seed 4, which
// the loop settles: 15.0 s with 20 cuts a node, 9.3 s with 10). The model as formulated,
// without the root cuts, raced here until the cuts got cheaper; it now lost every race
// (docs/performance.md). The first proven optimum wins and stops the other; otherwise the
// better clustering. The solver the configuration names is not raced, nor is
// the one a build without HiGHS finds (an executable, or none).
func (e *Engine) solveRacing(ctx context.Context, g *cluster.Graph, opts cluster.Options, priority int64) (*cluster.Result, error) {
	if opts.Solver != nil || !cluster.Linked() {
		return e.solve(ctx, g, opts, priority)
	}
	release, err := e.slots.acquire(ctx, priority)
	if err != nil {
		return nil, err
	}
	defer release()
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan outcome, 2)
	firstDone := make(chan struct{})
	go func() {
		res, err := cluster.Solve(ctx, g, opts)
		close(firstDone)
		results <- outcome{res, err}
	}()
	go func() {
		second, err := e.slots.acquire(ctx, priority-spare)
		if err != nil {
			results <- outcome{err: err}
			return
		}
		defer second()
		select {
		case <-firstDone:
			// The first search ended before the race began: it proved its answer, or gave up
			// early because the model is too large to search in the time (rootcuts.go); a
			// second search would only run past the limit.
			results <- outcome{err: context.Canceled}
			return
		default:
		}
		lopts := opts
		lopts.Solver = cluster.LPOrderSolver // the other search: another loop, the other order
		if opts.TimeLimit >= 0 {
			left := limit(opts.TimeLimit) - time.Since(start)
			if left < max(100*time.Millisecond, limit(opts.TimeLimit)/4) {
				// Too late to help: loading a large model alone takes longer than what is left,
				// and the command would wait for it past its limit.
				results <- outcome{err: context.Canceled}
				return
			}
			lopts.TimeLimit = left
		}
		res, err := cluster.Solve(ctx, g, lopts)
		results <- outcome{res, err}
	}()
	var hard <-chan time.Time
	if opts.TimeLimit >= 0 {
		timer := time.NewTimer(limit(opts.TimeLimit) - time.Since(start))
		defer timer.Stop()
		hard = timer.C
	}
	return firstAnswer(results, 2, hard, cancel)
}

// outcome is what one solve of a race gave.
type outcome struct {
	res *cluster.Result
	err error
}

// firstAnswer collects n outcomes of a race: the first proven optimum wins at once (cancel
// stops the others), otherwise the best clustering when all have reported. When hard fires,
// an unproven answer in hand is the answer and the searches still running are cancelled: one
// still loading or presolving a large model (HiGHS checks its own limit only between
// iterations) would keep the command past its limit (seen: 0.6 s past a 2 s limit on a
// 53,000-row model). With nothing in hand then, it waits on: the searches end by their own
// limits.
func firstAnswer(results <-chan outcome, n int, hard <-chan time.Time, cancel func()) (*cluster.Result, error) {
	var best *cluster.Result
	var firstErr error
	bound := 0 // the best of the searches' bounds: they solve the same model
	answer := func() *cluster.Result {
		if best.Bound < bound {
			b := *best
			b.Bound = bound
			if b.Optimal = bound >= b.Objective; b.Optimal {
				b.Note = "" // the other search's bound proves it
			}
			return &b
		}
		return best
	}
	for received := 0; received < n; {
		var o outcome
		select {
		case o = <-results:
			received++
		case <-hard:
			hard = nil
			if best != nil {
				cancel()
				return answer(), nil
			}
			continue
		}
		if o.err == nil {
			bound = max(bound, o.res.Bound)
		}
		switch {
		case o.err != nil:
			if firstErr == nil {
				firstErr = o.err
			}
		case o.res.Optimal:
			cancel()
			return o.res, nil
		case best == nil || o.res.Objective < best.Objective:
			best = o.res
		}
	}
	if best != nil {
		return answer(), nil
	}
	return nil, firstErr
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
