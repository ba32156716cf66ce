package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cnf-tools/cnf/infer"
)

// DefaultTimeLimit bounds the clustering of one definition unless the caller says otherwise:
// about two seconds of an idle machine's work (effort.go), the same on every run.
const DefaultTimeLimit = 2 * time.Second

// NoTimeLimit as Options.TimeLimit lets the solver run until it proves its answer optimal (or
// the context ends).
const NoTimeLimit time.Duration = -1

// Options configure clustering.
type Options struct {
	// TimeLimit bounds everything Solve (or Analyze) does for one definition: the greedy start,
	// the root loop and the search (Analyze's baseline solve runs beside the main one, with
	// the same limit). It is counted as deterministic work, TimeLimit's worth of an idle
	// machine's (effort.go), so the answer does not depend on the machine's load; the clock
	// stops a search only at safetyFactor times the limit. 0 means DefaultTimeLimit,
	// NoTimeLimit none.
	TimeLimit    time.Duration
	SameSizeOnly bool     // the Megiddo-Sarkar variant
	Together     [][2]int // node pairs forced into one cluster
	// Solver solves the model; nil means DefaultSolver.
	Solver Solver
	// Budget bounds the model; the zero value means DefaultBudget.
	Budget Budget
	// Stop, when done, stops the clustering as its time limit would: the best clustering found
	// so far is the answer, not proven optimal (cancelling the context abandons it instead).
	// The language server uses it when the user cancels a long solve. Nil for none.
	Stop context.Context
	// NoRootCuts leaves out the cutting-plane loop before the solve (rootcuts.go): a search
	// on the model as formulated, which the analysis core races against the strengthened one.
	NoRootCuts bool
	// Progress, when not nil, hears during the solve the best objective found so far (0 before
	// the first) and the bound proved so far (SolveOptions.Progress). Nil for none.
	Progress func(objective, bound int)
	// Start is a clustering to start from (a label per node), such as the previous version's
	// mapped by binding names (Decision.LabelsFor). It is used when it is valid and better
	// than the greedy clustering; nil for none.
	Start []int
	// Race, when not nil, is shared with another search of the same graph: when one proves
	// its clustering optimal, the other stops once it has done as much work (race.go). Leads
	// says that this is the race's first search, whose work passing the lead lets the second
	// start.
	Race  *Race
	Leads bool
	// Cuts are the root loop's cuts from an earlier solve of the same graph with the same
	// options (Result.Cuts of the stage before: carry.go): this solve's loop starts from them.
	// Nil for none; cuts of another model are ignored.
	Cuts *Cuts

	// netFactor, when not 0, replaces safetyFactor: the package's tests give the clock more
	// room where the race detector slows the code past the factor, or less to cut a solve
	// short.
	netFactor float64
}

// limit is the time limit these options set (NoTimeLimit: none).
func (o Options) limit() time.Duration {
	if o.TimeLimit == 0 {
		return DefaultTimeLimit
	}
	return o.TimeLimit
}

// net is when the clock stops a call with these options that still has work left (zero:
// never): safetyFactor times the limit.
func (o Options) net(start time.Time) time.Time {
	if o.TimeLimit < 0 {
		return time.Time{}
	}
	if o.netFactor != 0 {
		return start.Add(time.Duration(o.netFactor * float64(o.limit())))
	}
	return start.Add(safetyFactor * o.limit())
}

// Result is a clustering found by the ILP, with how it was found.
type Result struct {
	*Clustering
	Model     *Model // nil when no model was built (see Note)
	Objective int    // Fig 1.14's objective for the clustering
	Optimal   bool   // proven optimal
	SolveTime time.Duration
	// Work is the work the solve spent (effort.go); for a proven clustering, the work it took
	// to prove it.
	Work float64
	// Separators is what each family of cuts did in the root loop (separators.go); nil when
	// the loop did not run.
	Separators []SeparatorStats
	// Clocked says that the clock's safety net, not the work, ended the solve: the answer may
	// differ from run to run (the machine was too busy for the work in safetyFactor times the
	// limit).
	Clocked bool
	// Note says, when the clustering is not proven optimal, why and where it comes from: the
	// solver's time limit, a definition too large for the ILP (the greedy clustering), ...
	Note string
	// Fallback is non-empty when the solver failed: why, and which clustering is shown instead.
	Fallback string
	// Cuts are the root loop's cuts that bind in its last relaxation, for the next stage of a
	// long limit (Options.Cuts: carry.go); nil when the solve is proven or its loop found none.
	Cuts *Cuts
	// Bound is, for a clustering not proven optimal, a lower bound on the optimum's objective
	// that the solver proved (its dual bound, or the root relaxation's): the clustering is at
	// most Objective - Bound worse than the optimum. 0 when none is known.
	Bound int
}

// NotProven says why the clustering is not proven optimal and, when a bound is known, how
// far from the optimum it can be: "the solver's time limit was reached: the best clustering
// found; the optimum is at least 581499 (within 3.9%)". "" for an optimal clustering.
func (r *Result) NotProven() string {
	if r.Optimal {
		return ""
	}
	if gap := r.Gap(); gap != "" {
		return r.Note + "; " + gap
	}
	return r.Note
}

// Gap says, for a clustering not proven optimal, what the solve proved about the optimum:
// "the optimum is at least 581499 (within 3.9%)"; "" when it is optimal, when no bound is
// known, or when the bound is too far off to say anything.
func (r *Result) Gap() string {
	if r.Optimal || r.Bound <= 0 || r.Bound > r.Objective {
		return ""
	}
	gap := 100 * float64(r.Objective-r.Bound) / float64(r.Objective)
	if gap > maxGapShown {
		return "" // Bound still has it
	}
	return fmt.Sprintf("the optimum is at least %d (within %s)", r.Bound, percent(gap))
}

// maxGapShown is the largest gap (in percent) NotProven mentions.
const maxGapShown = 50

// percent prints a gap for people: one decimal, and never "0.0%" for a gap that is not zero.
func percent(p float64) string {
	switch {
	case p == 0:
		return "0%"
	case p < 0.1:
		return "0.1%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// Solve finds the optimal clustering of a graph. It never fails: when it cannot prove
// optimality within its options (the time limit, a model over the budget) it returns the best
// clustering it has, not marked optimal, with a Note saying why; if HiGHS fails, it falls back
// to the greedy clustering (or the unfused one, when pairs are forced together) and says so in
// Fallback. Only the context's cancellation is returned as an error.
//
// Every phase spends from one deterministic amount of work (effort.go): the greedy start stops
// early (keeping what it has), and the root loop and the search get what is left. The clock
// stops them only at safetyFactor times the limit, and the result then says so (Clocked).
func Solve(ctx context.Context, g *Graph, opts Options) (*Result, error) {
	start := time.Now()
	net := ctx
	clock := opts.net(start)
	if !clock.IsZero() {
		var cancel context.CancelFunc
		net, cancel = context.WithDeadline(ctx, clock)
		defer cancel()
	}
	if opts.Stop != nil {
		var cancel context.CancelFunc
		net, cancel = context.WithCancel(net)
		defer cancel()
		defer context.AfterFunc(opts.Stop, cancel)()
	}
	w := newMeter(net, workOf(opts.limit()))
	w.race, w.leads = opts.Race, opts.Leads && opts.Race != nil
	res, err := solve(ctx, w, g, opts)
	if err != nil {
		return nil, err
	}
	res.SolveTime, res.Work = time.Since(start), w.spent()
	if !res.Optimal && !clock.IsZero() && !time.Now().Before(clock) && (opts.Stop == nil || opts.Stop.Err() == nil) && (w.cutShort() || !w.exhausted()) {
		res.Clocked = true
		if res.Fallback == "" {
			res.Note = clockNote + ": " + res.Note
		}
	}
	if res.Optimal {
		opts.Race.proved(w.spent())
	}
	return res, nil
}

// clockNote begins the note of a solve that the clock's safety net ended.
const clockNote = "the clock ran out before the work did (a busy machine: this answer can differ from run to run)"

func solve(ctx context.Context, w *meter, g *Graph, opts Options) (*Result, error) {
	// best is the best clustering found without the ILP (the greedy one, or the previous one
	// when that is better): the solver's start, and the answer when the model cannot be solved
	// in time.
	var best *Clustering
	if len(opts.Together) == 0 {
		best = greedyWithin(w, g, opts.SameSizeOnly)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if len(opts.Start) == len(g.Nodes) && len(Validate(g, opts.Start, opts.SameSizeOnly)) == 0 {
			if prev, err := NewClustering(g, opts.Start); err == nil && prev.Cost() < best.Cost() {
				best = prev
			}
		}
		if best.Cost() == 0 {
			// Every cost is non-negative: nothing can be better.
			return &Result{Clustering: best, Objective: 0, Optimal: true}, nil
		}
		if w.out() {
			return notProven(best, nil, limitReached(opts, w)+" before the solver started: the greedy clustering"), nil
		}
	}
	size := EstimateModel(g, opts.SameSizeOnly)
	if !size.AnyFree && best != nil && len(best.Clusters) == len(g.Nodes) {
		// No two bindings can share a loop: the unfused clustering is the only one.
		return &Result{Clustering: best, Objective: best.Cost(), Optimal: true}, nil
	}
	if _, none := resolve(opts.Solver).(noSolver); none {
		return withoutSolver(ctx, w, g, opts, best)
	}
	budget := opts.Budget.orDefault()
	if size.Columns > budget.Columns || size.Rows > budget.Rows {
		why := fmt.Sprintf("too large for the ILP (about %d variables and %d constraints; the budget is %d and %d)", size.Columns, size.Rows, budget.Columns, budget.Rows)
		if best == nil {
			return fallback(g, nil, why+": showing the unfused clustering"), nil
		}
		// Without the ILP the heuristics are the answer: the greedy merges, then single
		// bindings moved while that lowers the cost, with the work left (it lowers large
		// programs' cost by a tenth and more; docs/performance.md, "Behind the code", C1).
		best = improve(w, best, opts.SameSizeOnly, nil)
		return notProven(best, nil, why+": the greedy clustering, with single bindings moved where that costs less"), nil
	}
	m, err := formulate(w.net, g, FormulateOptions{SameSizeOnly: opts.SameSizeOnly, Together: opts.Together})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil && best != nil:
		return notProven(best, nil, limitReached(opts, w)+" while building the model: the greedy clustering"), nil
	case err != nil:
		return fallback(g, nil, limitReached(opts, w)+" while building the model: showing the unfused clustering"), nil
	}
	w.spend(priceRow * float64(len(m.Rows)+len(m.Vars)))
	var startValues []float64
	if best != nil {
		if best.Cost() == m.LowerBound() {
			return &Result{Clustering: best, Model: m, Objective: best.Cost(), Optimal: true}, nil
		}
		startValues = m.StartValues(best)
	}
	var progress func(objective, bound float64)
	if opts.Progress != nil {
		progress = func(objective, bound float64) {
			obj, b := 0, 0
			if !math.IsInf(objective, 0) && !math.IsNaN(objective) {
				obj = int(math.Round(objective))
			}
			if !math.IsInf(bound, 0) && !math.IsNaN(bound) {
				b = max(int(math.Ceil(bound-1e-6)), 0)
			}
			opts.Progress(obj, b)
		}
	}
	sol, err := solveModel(ctx, m, SolveOptions{Start: startValues, Solver: opts.Solver, Stop: opts.Stop, NoRootCuts: opts.NoRootCuts, Progress: progress, carried: opts.Cuts.forModel(m)}, w)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		if best != nil {
			return &Result{Clustering: best, Model: m, Objective: best.Cost(),
				Fallback: fmt.Sprintf("the ILP solver failed (%v): showing the greedy clustering", err)}, nil
		}
		return fallback(g, m, fmt.Sprintf("the ILP solver failed (%v): showing the unfused clustering", err)), nil
	}
	cl, err := readback(m, sol.Values)
	if err != nil {
		return fallback(g, m, fmt.Sprintf("the solver's answer is not a clustering (%v): showing the unfused clustering", err)), nil
	}
	res := &Result{Clustering: cl, Model: m, Objective: cl.Cost(), Optimal: sol.Optimal, Separators: sol.Separators}
	if !res.Optimal {
		// The objective is an integer: a bound that meets it proves the clustering optimal.
		res.Bound = max(int(sol.Bound), m.LowerBound())
		res.Optimal = res.Bound >= res.Objective
	}
	if !res.Optimal {
		res.Cuts = sol.cuts
	}
	switch {
	case res.Optimal:
	case opts.Stop != nil && opts.Stop.Err() != nil:
		res.Note = "the solve was stopped: the best clustering found"
	default:
		res.Note = limitReached(opts, w) + ": the best clustering found"
	}
	return res, nil
}

// NoSolverNote is the Note of a clustering found without an ILP solver, beyond what exhaustive
// search can prove.
const NoSolverNote = "no solver (--solver none, or a build without HiGHS and none of highs, glpsol or cbc on PATH): the greedy clustering"

// withoutSolver clusters with no ILP solver: exhaustively (proven optimal) when the definition
// is small enough, else the greedy clustering, not proven optimal; with pairs forced together
// and too many bindings for exhaustive search, the unfused clustering as a fallback.
func withoutSolver(ctx context.Context, w *meter, g *Graph, opts Options, best *Clustering) (*Result, error) {
	if len(g.Nodes) <= MaxExhaustive {
		cl, err := exhaustive(w.net, g, opts.SameSizeOnly, opts.Together)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err == nil:
			return &Result{Clustering: cl, Objective: cl.Cost(), Optimal: true}, nil
		case w.net.Err() == nil:
			return fallback(g, nil, fmt.Sprintf("no clustering satisfies the constraints (%v): showing the unfused clustering", err)), nil
		case best != nil:
			return notProven(best, nil, limitReached(opts, w)+" during the exhaustive search: the greedy clustering"), nil
		}
	}
	if best == nil {
		return fallback(g, nil, "no solver (--solver none, or a build without HiGHS and none of highs, glpsol or cbc on PATH): showing the unfused clustering"), nil
	}
	return notProven(best, nil, NoSolverNote), nil
}

// limitReached says what ended a solve early: its work, Options.Stop, another search's proof
// (Options.Race), or the clock (Solve says so).
func limitReached(opts Options, w *meter) string {
	switch {
	case opts.Stop != nil && opts.Stop.Err() != nil:
		return "the solve was stopped"
	case w.raced():
		return "another search proved its clustering first"
	}
	return "the time limit's work was done"
}

func notProven(cl *Clustering, m *Model, note string) *Result {
	return &Result{Clustering: cl, Model: m, Objective: cl.Cost(), Note: note}
}

func fallback(g *Graph, m *Model, why string) *Result {
	cl := Unfused(g)
	return &Result{Clustering: cl, Model: m, Objective: cl.Cost(), Fallback: why}
}

// Report is the clustering of a definition with the baselines of Table 1.1.
type Report struct {
	Graph   *Graph
	Ours    *Result
	Megiddo *Result
	Stream  *Clustering
	Unfused *Clustering
}

// Analyze builds the dependency graph of a definition accepted by size inference and finds
// its optimal clustering and the baselines. The Megiddo and Sarkar baseline is solved beside
// the main solve, within the same time limit: the whole call takes at most about the limit.
func Analyze(ctx context.Context, sizes *infer.Result, opts Options) (*Report, error) {
	if !sizes.OK() {
		return nil, fmt.Errorf("%s was rejected by size inference", sizes.Func.Def.Name.Name)
	}
	g := NewGraph(sizes)
	mopts := opts
	mopts.SameSizeOnly = true
	var meg *Result
	var megErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		meg, megErr = Solve(ctx, g, mopts)
	}()
	ours, err := Solve(ctx, g, opts)
	<-done
	if err != nil {
		return nil, err
	}
	if megErr != nil {
		return nil, megErr
	}
	return NewReport(g, ours, meg), nil
}

// NewReport completes a report from the two solves of a graph: ours and Megiddo and Sarkar's
// (Options.SameSizeOnly), adding the baselines that need no solve.
func NewReport(g *Graph, ours, megiddo *Result) *Report {
	return &Report{Graph: g, Ours: ours, Megiddo: megiddo, Stream: Stream(g), Unfused: Unfused(g)}
}
