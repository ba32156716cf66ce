package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/cnf-tools/cnf/cluster/internal/highs"
)

// A Solver finds an optimal (or, under a time limit, the best found) solution of a Model.
// SolveModel hands it the model's independent pieces one at a time.
type Solver interface {
	// Name names the solver for people: "HiGHS 1.10.0".
	Name() string
	Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error)
}

// DefaultSolver is HiGHS, linked in (see package cluster/internal/highs).
var DefaultSolver Solver = highsSolver{}

// SolverVersion returns the version of the linked HiGHS library, as "1.10.0", or "" in a build
// without cgo.
func SolverVersion() string { return highs.Version() }

// highsSolver solves models with HiGHS in this process.
type highsSolver struct{}

func (highsSolver) Name() string { return "HiGHS " + highs.Version() }

// Solve runs HiGHS with the gaps set so that a solution reported optimal is the true optimum:
// the objective is integral, so an absolute gap below 1 proves optimality (HiGHS's default
// relative gap of 1e-4 accepted 14670 for an optimum of 14669).
func (highsSolver) Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	res, err := highs.Solve(ctx, problemOf(m), highs.Options{TimeLimit: opts.TimeLimit, Start: opts.Start, AbsGap: 0.5})
	if err != nil {
		return nil, err
	}
	switch {
	case res.Status == highs.Infeasible:
		return nil, errors.New("HiGHS: the model is infeasible")
	case res.Values == nil:
		return nil, ErrNoSolution
	case len(res.Values) != len(m.Vars):
		return nil, fmt.Errorf("HiGHS returned %d values for %d columns", len(res.Values), len(m.Vars))
	}
	return &Solution{Values: res.Values, Objective: math.Round(res.Objective), Optimal: res.Status == highs.Optimal, Time: res.Time}, nil
}

// problemOf is the model in the solver's terms.
func problemOf(m *Model) *highs.Problem {
	p := &highs.Problem{
		Cost:    make([]float64, len(m.Vars)),
		ColLo:   make([]float64, len(m.Vars)),
		ColHi:   make([]float64, len(m.Vars)),
		Integer: make([]bool, len(m.Vars)),
		RowLo:   make([]float64, len(m.Rows)),
		RowHi:   make([]float64, len(m.Rows)),
	}
	for i, v := range m.Vars {
		p.Cost[i], p.ColLo[i], p.ColHi[i], p.Integer[i] = v.Cost, v.Lo, v.Hi, v.Kind == Binary
	}
	for r, row := range m.Rows {
		p.RowLo[r], p.RowHi[r] = row.Lo, row.Hi
		for _, t := range row.Terms {
			p.Entries = append(p.Entries, highs.Entry{Row: r, Col: t.Var, Val: t.Coef})
		}
	}
	return p
}
