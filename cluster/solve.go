package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Solution is a solver's answer to a Model.
type Solution struct {
	Values    []float64 // one per column
	Objective float64
	Optimal   bool // proven optimal (zero gap)
	// Bound is a lower bound on the objective of every solution: the solver's dual bound, the
	// root relaxation's, or 0 (every cost is non-negative) when neither is known. It equals
	// Objective when the solution is optimal.
	Bound float64
	Time  time.Duration
	// Work is the work the solve spent (effort.go), as far as the solver counts it (HiGHS in
	// this process does; an executable does not).
	Work float64
	// Iterations and Nodes are HiGHS's counts of the search's LP iterations and nodes.
	Iterations, Nodes int64
	// Separators is what each family of cuts did in the root loop (nil: no loop).
	Separators []SeparatorStats
	// cuts are the root loop's binding cuts, for a later solve (nil: none).
	cuts *Cuts
}

// ErrNoSolution is returned when the solver found no feasible solution within its limits.
var ErrNoSolution = errors.New("the solver found no feasible solution")

// SolveOptions bounds a solve.
type SolveOptions struct {
	// TimeLimit bounds the solve (0 or NoTimeLimit: none; a model's solve has no default, its
	// caller, Solve, has resolved Options' already): TimeLimit's worth of deterministic work
	// (effort.go) for HiGHS in this process, with the clock as a safety net at safetyFactor
	// times it; a solver executable gets it as its time limit.
	TimeLimit time.Duration
	// Start is a feasible solution (a value per column) for the solver to start from, or nil.
	Start []float64
	// Solver solves the model; nil means DefaultSolver.
	Solver Solver
	// Stop, when done, ends the solve like its time limit, keeping the best solution so far
	// (cancelling ctx abandons it instead). Nil for none.
	Stop context.Context
	// NoRootCuts leaves out the cutting-plane loop that strengthens the model before HiGHS
	// solves it (rootcuts.go), to measure what it gains. Only HiGHS in this process runs it.
	NoRootCuts bool
	// Progress, when not nil, is called during the solve with the objective of the best
	// solution so far (+Inf before the first) and the bound proved so far, when they change
	// (in the root loop when its bound rises, after it, and from HiGHS's search at most twice
	// a second), from any goroutine. HiGHS in this process only.
	Progress func(objective, bound float64)
	// work bounds the search of HiGHS in this process (solveModel sets it for each piece).
	work *meter
	// carried are cuts of an earlier solve of the model (Options.Cuts) for the root loop to
	// start from; nil for none.
	carried *Cuts
}

// SolveModel solves the model with HiGHS. Output is off (stdout belongs to the language server),
// and the gaps are set so that a solution reported optimal is the true optimum: the objective
// is integral, so an absolute gap below 1 proves optimality (HiGHS's default relative gap of
// 1e-4 accepts a worse solution on larger programs). If the time limit is reached, the best
// solution found so far is returned with Optimal false. Cancelling the context interrupts
// HiGHS at its next interrupt point (a node of the search or a simplex iteration).
func SolveModel(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	net := ctx
	if opts.Stop != nil {
		var cancel context.CancelFunc
		net, cancel = context.WithCancel(net)
		defer cancel()
		defer context.AfterFunc(opts.Stop, cancel)()
	}
	w := unlimited(net)
	if opts.TimeLimit > 0 {
		var cancel context.CancelFunc
		net, cancel = context.WithTimeout(net, safetyFactor*opts.TimeLimit)
		defer cancel()
		w = newMeter(net, workOf(opts.TimeLimit))
	}
	return solveModel(ctx, m, opts, w)
}

// solveModel is SolveModel within the work of w (whose net also stops it).
func solveModel(ctx context.Context, m *Model, opts SolveOptions, w *meter) (*Solution, error) {
	start := time.Now()
	solver := resolve(opts.Solver)
	deadline := time.Time{} // the net's, for a solver executable
	if d, ok := w.net.Deadline(); ok {
		deadline = d
	}
	rootBound := 0.0 // every cost is non-negative
	var separators []SeparatorStats
	var cuts *Cuts
	if h, ok := solver.(highsSolver); ok && !opts.NoRootCuts {
		st, err := m.rootStage(ctx, opts, start, w, h.rootLoop())
		if err != nil {
			return nil, err
		}
		rootBound = max(rootBound, st.bound)
		separators, cuts = st.separators, st.cuts
		if st.settled != nil {
			sol := st.settled.bounded(rootBound)
			sol.Separators, sol.cuts = separators, cuts
			if opts.Progress != nil {
				opts.Progress(sol.Objective, sol.Bound)
			}
			return sol, nil
		}
		m, opts.Start = st.model, st.start
		if st.searchCap > 0 {
			w = w.capped(st.searchCap)
		}
		if opts.Progress != nil && st.start != nil {
			opts.Progress(objective(m, st.start), rootBound)
		}
	}
	parts := m.split()
	sol := &Solution{Values: make([]float64, len(m.Vars)), Optimal: true}
	for i, v := range m.Vars {
		sol.Values[i] = restValue(v)
		sol.Objective += v.Cost * sol.Values[i]
	}
	// The bound: the columns in no part at their cheapest, and each part's own bound (which
	// counts its columns' costs, so they are taken out here).
	sol.Bound = sol.Objective
	for _, part := range parts {
		for _, col := range part.cols {
			sol.Bound -= m.Vars[col].Cost * sol.Values[col]
		}
	}
	progress := newTally(opts.Progress, m, parts, sol.Bound, rootBound, opts.Start)
	_, inProcess := solver.(highsSolver)
	for k, part := range parts {
		// HiGHS in this process stops by its work, and the clock's net is its time limit; a
		// solver executable has only a time limit: the work left, as time.
		limit := time.Duration(0)
		if left := w.left(); !inProcess && !math.IsInf(left, 1) {
			limit = max(time.Duration(left)*time.Microsecond, 10*time.Millisecond)
		}
		if !deadline.IsZero() {
			net := max(time.Until(deadline), 10*time.Millisecond)
			if limit == 0 || net < limit {
				limit = net
			}
		}
		var start []float64
		if opts.Start != nil {
			start = make([]float64, len(part.cols))
			for k, col := range part.cols {
				start[k] = opts.Start[col]
			}
		}
		var ps *Solution
		if start != nil && w.out() {
			// Out of work (or time: a solver executable kept past its limit): the other parts
			// keep their start rather than each starting a solver for nothing.
			ps = &Solution{Values: start}
		} else {
			var err error
			ps, err = solveOne(ctx, solver, part.model, SolveOptions{TimeLimit: limit, Start: start, Stop: opts.Stop, Progress: progress.part(k), work: w})
			switch {
			case errors.Is(err, ErrNoSolution) && start != nil && opts.Stop != nil && opts.Stop.Err() != nil:
				ps = &Solution{Values: start} // stopped before it had taken the start in
			case err != nil:
				return nil, err
			}
			w.spend(ps.Work)
		}
		for k, col := range part.cols {
			sol.Objective += m.Vars[col].Cost * (ps.Values[k] - sol.Values[col])
			sol.Values[col] = ps.Values[k]
		}
		sol.Optimal = sol.Optimal && ps.Optimal
		partBound := max(ps.Bound, float64(part.model.LowerBound()))
		if ps.Optimal {
			partBound = ps.Objective
		}
		sol.Bound += partBound
		progress.update(k, objective(part.model, ps.Values), partBound)
	}
	sol.Objective = math.Round(sol.Objective)
	sol.Time, sol.Work, sol.Separators, sol.cuts = time.Since(start), w.spent(), separators, cuts
	return sol.bounded(max(rootBound, sol.Bound)), nil
}

// bounded sets the solution's Bound to the best of bound and its own, as an integer (the
// objective is one), and to the objective itself when the solution is optimal.
func (s *Solution) bounded(bound float64) *Solution {
	b := math.Ceil(max(bound, s.Bound) - 1e-6)
	switch {
	case s.Optimal:
		b = s.Objective
	case b > s.Objective:
		// A valid bound is below every solution: one above this one's says something is
		// wrong, and taking it would call an unproven solution optimal. It is dropped.
		b = 0
	}
	s.Bound = max(b, 0)
	return s
}

// restValue is the value of a variable that no constraint mentions: its costs are never
// negative, so the bound nearest zero.
func restValue(v Var) float64 {
	return math.Min(math.Max(0, v.Lo), v.Hi)
}

// part is an independent piece of a model: its own model and, for each of its columns, the
// column of the whole model.
type part struct {
	model *Model
	cols  []int
}

// split cuts a model into the connected components of its constraint structure (two columns
// are connected when a row mentions both). The pieces share no constraint, so solving each
// alone and adding the objectives gives the optimum of the whole, exactly. Columns that no row
// mentions belong to no piece.
func (m *Model) split() []part {
	sets := newUnionFind(len(m.Vars))
	find := sets.find
	inRow := make([]bool, len(m.Vars))
	for _, r := range m.Rows {
		for _, t := range r.Terms {
			inRow[t.Var] = true
			sets.union(t.Var, r.Terms[0].Var)
		}
	}
	index := map[int]int{} // component root -> part
	var parts []part
	local := make([]int, len(m.Vars))
	for col, v := range m.Vars {
		if !inRow[col] {
			continue
		}
		root := find(col)
		k, ok := index[root]
		if !ok {
			k = len(parts)
			index[root] = k
			parts = append(parts, part{model: &Model{N: m.N}})
		}
		local[col] = len(parts[k].cols)
		parts[k].cols = append(parts[k].cols, col)
		parts[k].model.Vars = append(parts[k].model.Vars, v)
	}
	for _, r := range m.Rows {
		if len(r.Terms) == 0 {
			continue
		}
		k := index[find(r.Terms[0].Var)]
		nr := Row{Name: r.Name, Lo: r.Lo, Hi: r.Hi, Terms: make([]Term, len(r.Terms))}
		for i, t := range r.Terms {
			nr.Terms[i] = Term{Var: local[t.Var], Coef: t.Coef}
		}
		parts[k].model.Rows = append(parts[k].model.Rows, nr)
	}
	return parts
}

// solveOne solves one piece, turning a panic in the solver into an error (the language
// server must survive any model).
func solveOne(ctx context.Context, solver Solver, m *Model, opts SolveOptions) (sol *Solution, err error) {
	defer func() {
		if r := recover(); r != nil {
			sol, err = nil, fmt.Errorf("%s failed: %v", solver.Name(), r)
		}
	}()
	return solver.Solve(ctx, m, opts)
}
