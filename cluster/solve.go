package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lanl/highs"
)

// Solution is a solver's answer to a Model.
type Solution struct {
	Values    []float64 // one per column
	Objective float64
	Optimal   bool // proven optimal (zero gap)
	Time      time.Duration
}

// ErrNoSolution is returned when the solver found no feasible solution within its limits.
var ErrNoSolution = errors.New("the solver found no feasible solution")

// SolveOptions bounds a solve.
type SolveOptions struct {
	TimeLimit time.Duration // 0: no limit
	// Start is a feasible solution (a value per column) for the solver to start from, or nil.
	Start []float64
}

// SolveModel solves the model with HiGHS. Output is off (stdout belongs to the language server),
// and the gaps are set so that a solution reported optimal is the true optimum: the objective
// is integral, so an absolute gap below 1 proves optimality (HiGHS's default relative gap of
// 1e-4 accepts a worse solution on larger programs). If the time limit is reached, the best
// solution found so far is returned with Optimal false. Cancelling the context interrupts
// HiGHS at its next interrupt point (a node of the search or a simplex iteration).
func SolveModel(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	start := time.Now()
	parts := m.split()
	sol := &Solution{Values: make([]float64, len(m.Vars)), Optimal: true}
	for i, v := range m.Vars {
		sol.Values[i] = restValue(v)
		sol.Objective += v.Cost * sol.Values[i]
	}
	deadline := time.Time{}
	if opts.TimeLimit > 0 {
		deadline = start.Add(opts.TimeLimit)
	}
	for _, part := range parts {
		limit := time.Duration(0)
		if !deadline.IsZero() {
			limit = max(time.Until(deadline), 10*time.Millisecond)
		}
		var start []float64
		if opts.Start != nil {
			start = make([]float64, len(part.cols))
			for k, col := range part.cols {
				start[k] = opts.Start[col]
			}
		}
		ps, err := solveOne(ctx, part.model, SolveOptions{TimeLimit: limit, Start: start})
		if err != nil {
			return nil, err
		}
		for k, col := range part.cols {
			sol.Objective += m.Vars[col].Cost * (ps.Values[k] - sol.Values[col])
			sol.Values[col] = ps.Values[k]
		}
		sol.Optimal = sol.Optimal && ps.Optimal
	}
	sol.Objective = math.Round(sol.Objective)
	sol.Time = time.Since(start)
	return sol, nil
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
	parent := make([]int, len(m.Vars))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	inRow := make([]bool, len(m.Vars))
	for _, r := range m.Rows {
		for _, t := range r.Terms {
			inRow[t.Var] = true
			parent[find(t.Var)] = find(r.Terms[0].Var)
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

func solveOne(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	type result struct {
		sol *Solution
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("HiGHS failed: %v", r)}
			}
		}()
		sol, err := solveHiGHS(ctx, m, opts)
		done <- result{sol, err}
	}()
	select {
	case r := <-done:
		return r.sol, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// solveHiGHS runs HiGHS on the model. Cancelling ctx interrupts HiGHS itself (see watch), so
// that an abandoned solve frees its core at once.
func solveHiGHS(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	start := time.Now()
	hm := highs.Model{
		ColCosts: make([]float64, len(m.Vars)),
		ColLower: make([]float64, len(m.Vars)),
		ColUpper: make([]float64, len(m.Vars)),
		VarTypes: make([]highs.VariableType, len(m.Vars)),
		RowLower: make([]float64, len(m.Rows)),
		RowUpper: make([]float64, len(m.Rows)),
	}
	for i, v := range m.Vars {
		hm.ColCosts[i], hm.ColLower[i], hm.ColUpper[i] = v.Cost, v.Lo, v.Hi
		if v.Kind == Binary {
			hm.VarTypes[i] = highs.IntegerType
		}
	}
	for r, row := range m.Rows {
		hm.RowLower[r], hm.RowUpper[r] = row.Lo, row.Hi
		for _, t := range row.Terms {
			hm.ConstMatrix = append(hm.ConstMatrix, highs.Nonzero{Row: r, Col: t.Var, Val: t.Coef})
		}
	}
	raw, err := hm.ToRawModel()
	if err != nil {
		return nil, fmt.Errorf("building the HiGHS model: %w", err)
	}
	set := func(err error) error {
		if err != nil {
			return fmt.Errorf("setting a HiGHS option: %w", err)
		}
		return nil
	}
	if err := set(raw.SetBoolOption("output_flag", false)); err != nil {
		return nil, err
	}
	if err := set(raw.SetFloat64Option("mip_rel_gap", 0)); err != nil {
		return nil, err
	}
	if err := set(raw.SetFloat64Option("mip_abs_gap", 0.5)); err != nil {
		return nil, err
	}
	if err := set(raw.SetIntOption("mip_pscost_minreliable", 1)); err != nil {
		return nil, err
	}
	if err := set(raw.SetFloat64Option("mip_heuristic_effort", 0.01)); err != nil {
		return nil, err
	}
	if opts.TimeLimit > 0 {
		if err := set(raw.SetFloat64Option("time_limit", opts.TimeLimit.Seconds())); err != nil {
			return nil, err
		}
	}
	if opts.Start != nil {
		setStart(raw, opts.Start)
	}
	if in := watch(raw); in != nil {
		ran := make(chan struct{})
		stopAfter := context.AfterFunc(ctx, func() {
			in.stop()
			close(ran)
		})
		defer func() {
			if !stopAfter() {
				<-ran // the flag is written before it is freed
			}
			in.free()
		}()
	}
	sol, err := raw.Solve()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var cs highs.CallStatus
	if errors.As(err, &cs) && cs.IsWarning() {
		// Time limits end in a warning, which lanl/highs turns into an error without the
		// solution: read it from HiGHS directly.
		status, values, objective, ok := afterWarning(raw)
		switch {
		case !ok:
			return nil, fmt.Errorf("HiGHS: %w", err)
		case status == highsStatusOptimal && len(values) == len(m.Vars):
			return &Solution{Values: values, Objective: math.Round(objective), Optimal: true, Time: time.Since(start)}, nil
		case (status == highsStatusTimeLimit || status == highsStatusIterationLimit) && len(values) == len(m.Vars):
			return &Solution{Values: values, Objective: math.Round(objective), Time: time.Since(start)}, nil
		case status == highsStatusTimeLimit || status == highsStatusIterationLimit:
			return nil, ErrNoSolution
		}
		return nil, fmt.Errorf("HiGHS ended with a warning and model status %d", status)
	}
	if err != nil {
		return nil, fmt.Errorf("HiGHS: %w", err)
	}
	out := &Solution{Values: sol.ColumnPrimal, Objective: math.Round(sol.Objective), Time: time.Since(start)}
	switch sol.Status {
	case highs.Optimal:
		out.Optimal = true
		return out, nil
	case highs.TimeLimit, highs.IterationLimit:
		if ps, err := sol.GetIntInfo("primal_solution_status"); err == nil && ps == highsSolutionFeasible && len(sol.ColumnPrimal) == len(m.Vars) {
			return out, nil
		}
		return nil, ErrNoSolution
	}
	return nil, fmt.Errorf("HiGHS stopped with status %v", sol.Status)
}
