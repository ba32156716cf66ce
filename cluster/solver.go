package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strings"

	"github.com/cnf-tools/cnf/cluster/internal/highs"
)

// A Solver finds an optimal (or, under a time limit, the best found) solution of a Model.
// SolveModel hands it the model's independent pieces one at a time.
type Solver interface {
	// Name names the solver for people: "HiGHS 1.10.0".
	Name() string
	Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error)
}

// DefaultSolver is HiGHS, linked in (see package cluster/internal/highs), given the model's
// columns in the model's order (π, then c, then x). In a build without cgo (Linked is false)
// it is what SolverNamed("auto") finds: a solver executable on PATH, or NoSolver.
var DefaultSolver Solver = defaultSolver{}

type defaultSolver struct{}

func (defaultSolver) Name() string { return resolve(nil).Name() }
func (defaultSolver) Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	return resolve(nil).Solve(ctx, m, opts)
}

// Linked says whether HiGHS is linked into this build (it is not in a build without cgo).
func Linked() bool { return highs.Version() != "" }

// SolverNames are the values of --solver, "auto" first.
var SolverNames = []string{"auto", "highs", "glpk", "cbc", "none"}

// NoSolver clusters without an ILP solver: a definition of at most MaxExhaustive bindings by
// exhaustive search (proven optimal), a larger one greedily, labelled "not proven optimal: no
// solver". It is what SolverNamed gives for "none", and for "auto" when HiGHS is not linked
// and no solver executable is found.
var NoSolver Solver = noSolver{}

type noSolver struct{}

func (noSolver) Name() string { return "no solver" }
func (noSolver) Solve(context.Context, *Model, SolveOptions) (*Solution, error) {
	return nil, errors.New("no ILP solver: HiGHS is not linked into this build and no solver was found")
}

// SolverNamed is the solver --solver NAME names:
//   - auto: HiGHS in this process when linked, else the first of the highs, glpsol and cbc
//     executables on PATH, else NoSolver;
//   - highs: HiGHS in this process when linked, else the highs executable;
//   - glpk, cbc: glpsol or cbc, which must be on PATH;
//   - none: NoSolver.
//
// A nil Solver with a nil error means the default: in-process HiGHS, which callers may race in
// two column orders (LPOrderSolver).
func SolverNamed(name string) (Solver, error) {
	switch name {
	case "auto", "":
		if Linked() {
			return nil, nil
		}
		for _, k := range externalKinds {
			if path, err := exec.LookPath(k.exec); err == nil {
				return externalSolver{kind: k.kind, path: path}, nil
			}
		}
		return NoSolver, nil
	case "none":
		return NoSolver, nil
	case "highs":
		if Linked() {
			return nil, nil
		}
	}
	for _, k := range externalKinds {
		if k.flag != name {
			continue
		}
		path, err := exec.LookPath(k.exec)
		if err != nil {
			return nil, fmt.Errorf("--solver %s needs %s on PATH: %w", name, k.exec, err)
		}
		return externalSolver{kind: k.kind, path: path}, nil
	}
	return nil, fmt.Errorf("unknown solver %q: one of %s", name, strings.Join(SolverNames, ", "))
}

// resolve is the solver that solves for s: s itself, unless it is nil or DefaultSolver, which
// stand for in-process HiGHS when linked and else for what SolverNamed("auto") finds. It is
// never DefaultSolver.
func resolve(s Solver) Solver {
	if s != nil && s != DefaultSolver {
		return s
	}
	if Linked() {
		return highsSolver{}
	}
	auto, _ := SolverNamed("auto")
	return auto
}

// LPOrderSolver is HiGHS given the columns in the order the LP file (WriteLP) has them, as the
// highs command reads it: the costed columns first, after a root loop that adds half as many
// cuts a round. HiGHS's search depends on the order, and the loop's path through the cuts on
// their number; neither is better on every program (on generated programs of 100 to 200
// bindings either order can be several times faster than the other, and either number of cuts
// up to twice as fast), so the analysis core races the two when it has a core to spare
// (docs/performance.md). With the same loop in both, a program the loop settles by itself
// (most `fans` programs) gained nothing from the second core. Its loop also takes the triangle
// inequalities of the nodes with the fewest pairs first (triangles.go).
var LPOrderSolver Solver = highsSolver{lpOrder: true, loop: loopConfig{perNode: cutsPerNode / 2, sparseFirst: true, alone: 0.25}}

// SolverVersion returns the version of the linked HiGHS library, as "1.10.0", or "" in a build
// without cgo.
func SolverVersion() string { return highs.Version() }

// highsSolver solves models with HiGHS in this process.
type highsSolver struct {
	lpOrder bool       // columns in LP-file order
	loop    loopConfig // the root loop's (zero: defaultLoop())
}

// rootLoop is the configuration of the solver's root loop.
func (h highsSolver) rootLoop() loopConfig {
	if h.loop == (loopConfig{}) {
		return defaultLoop()
	}
	return h.loop
}

func (h highsSolver) Name() string {
	if h.lpOrder {
		return "HiGHS " + highs.Version() + " (LP-file column order)"
	}
	return "HiGHS " + highs.Version()
}

// Solve runs HiGHS with the gaps set so that a solution reported optimal is the true optimum:
// the objective is integral, so an absolute gap below 1 proves optimality (HiGHS's default
// relative gap of 1e-4 accepted 14670 for an optimum of 14669).
func (h highsSolver) Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	var order []int
	if h.lpOrder {
		order = lpOrder(m)
	}
	return solveInOrder(ctx, m, opts, order)
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

// lpOrder is the order of columns in the LP file WriteLP writes, as HiGHS's reader numbers
// them: the columns with a cost first, then the others in order of first appearance in a row.
func lpOrder(m *Model) []int {
	seen := make([]bool, len(m.Vars))
	var order []int
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			order = append(order, i)
		}
	}
	for i, v := range m.Vars {
		if v.Cost != 0 {
			add(i)
		}
	}
	for _, r := range m.Rows {
		for _, t := range r.Terms {
			add(t.Var)
		}
	}
	for i := range m.Vars {
		add(i)
	}
	return order
}

// solveInOrder solves m with its columns permuted: order[k] is the model column that is the
// solver's column k (nil: the model's order).
func solveInOrder(ctx context.Context, m *Model, opts SolveOptions, order []int) (*Solution, error) {
	pm, start := m, opts.Start
	if order != nil {
		pm, start = permute(m, opts.Start, order)
	}
	hopts := highs.Options{TimeLimit: opts.TimeLimit, Start: start, Stop: opts.Stop, AbsGap: 0.5, Progress: opts.Progress}
	if w := opts.work; w != nil {
		// The search's work is priced as the root loop's LPs are: by the model's size. Its
		// limit is what the meter has left, lowered while it runs when another search of a
		// race proves its answer first (Work.Cap).
		hopts.Work = highs.Work{PerIteration: priceSearchFactor * iterationPrice(len(m.Rows), len(m.Vars)), PerNode: priceNode}
		if left := w.left(); !math.IsInf(left, 1) {
			hopts.Work.Limit = max(left, 1)
		}
		if w.race != nil {
			began := w.spent()
			hopts.Work.Cap = func() float64 { return w.race.limit() - began }
			if w.leads {
				hopts.Work.Seen = func(x float64) { w.observe(began + x) }
			}
		}
	}
	res, err := highs.Solve(ctx, problemOf(pm), hopts)
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
	values := res.Values
	if order != nil {
		values = make([]float64, len(order))
		for k, col := range order {
			values[col] = res.Values[k]
		}
	}
	return &Solution{Values: values, Objective: math.Round(res.Objective), Optimal: res.Status == highs.Optimal, Bound: max(res.Bound, 0), Time: res.Time, Work: res.Work, Iterations: res.Iterations, Nodes: res.Nodes}, nil
}

// permute is m with its columns in the given order, and the start likewise.
func permute(m *Model, start []float64, order []int) (*Model, []float64) {
	pos := make([]int, len(order))
	for k, col := range order {
		pos[col] = k
	}
	pm := &Model{N: m.N, Vars: make([]Var, len(m.Vars)), Rows: make([]Row, len(m.Rows))}
	for k, col := range order {
		pm.Vars[k] = m.Vars[col]
	}
	for r, row := range m.Rows {
		nr := Row{Name: row.Name, Lo: row.Lo, Hi: row.Hi, Terms: make([]Term, len(row.Terms))}
		for i, t := range row.Terms {
			nr.Terms[i] = Term{Var: pos[t.Var], Coef: t.Coef}
		}
		pm.Rows[r] = nr
	}
	var ps []float64
	if start != nil {
		ps = make([]float64, len(order))
		for k, col := range order {
			ps[k] = start[col]
		}
	}
	return pm, ps
}
