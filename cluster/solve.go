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
}

// SolveModel solves the model with HiGHS. Output is off (stdout belongs to the language server),
// and the gaps are set so that a solution reported optimal is the true optimum: the objective
// is integral, so an absolute gap below 1 proves optimality (HiGHS's default relative gap of
// 1e-4 accepts a worse solution on larger programs). If the time limit is reached, the best
// solution found so far is returned with Optimal false. The context cancels the wait: HiGHS
// itself stops at its time limit.
func SolveModel(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	if len(m.Rows) == 0 {
		// No constraints (lanl/highs cannot pass such a model to HiGHS): every cost is
		// non-negative, so each variable sits at its lower bound.
		sol := &Solution{Values: make([]float64, len(m.Vars)), Optimal: true}
		for i, v := range m.Vars {
			sol.Values[i] = v.Lo
			sol.Objective += v.Cost * v.Lo
		}
		return sol, nil
	}
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
		sol, err := solveHiGHS(m, opts)
		done <- result{sol, err}
	}()
	select {
	case r := <-done:
		return r.sol, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func solveHiGHS(m *Model, opts SolveOptions) (*Solution, error) {
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
	if err := set(raw.SetIntOption("threads", 1)); err != nil {
		return nil, err
	}
	if opts.TimeLimit > 0 {
		if err := set(raw.SetFloat64Option("time_limit", opts.TimeLimit.Seconds())); err != nil {
			return nil, err
		}
	}
	sol, err := raw.Solve()
	if err != nil {
		return nil, fmt.Errorf("HiGHS: %w", err)
	}
	out := &Solution{Values: sol.ColumnPrimal, Objective: math.Round(sol.Objective), Time: time.Since(start)}
	switch sol.Status {
	case highs.Optimal:
		out.Optimal = true
		return out, nil
	case highs.TimeLimit, highs.IterationLimit:
		if ps, err := sol.GetIntInfo("primal_solution_status"); err == nil && ps == 2 && len(sol.ColumnPrimal) == len(m.Vars) {
			return out, nil
		}
		return nil, ErrNoSolution
	}
	return nil, fmt.Errorf("HiGHS stopped with status %v", sol.Status)
}
