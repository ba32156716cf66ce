package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// A solve stopped by its time limit reports a bound that no clustering beats: at or below the
// optimum that a solve without the limit proves, and not above its own objective. fans 100
// seed 2 is proven in about 1.5 s here (fans 50 seed 2, used before, in 0.3 s since the
// triangle inequalities); with a fraction of that it is not, and the root relaxation's bound
// (or HiGHS's) is in hand: above the costs the model fixes.
func TestBoundIsBelowTheOptimum(t *testing.T) {
	if !Linked() {
		t.Skip("needs HiGHS")
	}
	g := generatedGraph(t, 2, gen.Options{Bindings: 100, Shape: "fans"})
	full, err := Solve(context.Background(), g, Options{TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Optimal {
		t.Skip("not proven optimal in a minute on this machine")
	}
	if full.Bound != 0 {
		t.Errorf("an optimal result has Bound %d: it is only for clusterings not proven optimal", full.Bound)
	}
	sawBound := false
	for _, limit := range []time.Duration{300 * time.Millisecond, 600 * time.Millisecond, time.Second} {
		res, err := Solve(context.Background(), g, Options{TimeLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Optimal {
			if res.Objective != full.Objective {
				t.Errorf("limit %v: proven optimal at %d, but the optimum is %d", limit, res.Objective, full.Objective)
			}
			continue
		}
		if res.Bound > full.Objective || res.Bound > res.Objective {
			t.Errorf("limit %v: bound %d above the optimum %d or the objective %d", limit, res.Bound, full.Objective, res.Objective)
		}
		sawBound = sawBound || res.Bound > full.Model.LowerBound()
		t.Logf("limit %v: objective %d, bound %d, optimum %d", limit, res.Objective, res.Bound, full.Objective)
	}
	if !sawBound {
		t.Error("no solve stopped by its limit had a bound above the costs the model fixes")
	}
}

func TestNotProvenSaysTheGap(t *testing.T) {
	for _, tc := range []struct {
		res  Result
		want string
	}{
		{Result{Objective: 200, Optimal: true}, ""},
		{Result{Objective: 200, Note: "out of time"}, "out of time"},
		{Result{Objective: 200, Bound: 150, Note: "out of time"}, "out of time; the optimum is at least 150 (within 25.0%)"},
		{Result{Objective: 200000, Bound: 199999, Note: "out of time"}, "out of time; the optimum is at least 199999 (within 0.1%)"},
		{Result{Objective: 200, Bound: 20, Note: "out of time"}, "out of time"},  // 90%: says nothing
		{Result{Objective: 200, Bound: 300, Note: "out of time"}, "out of time"}, // not a bound
	} {
		if got := tc.res.NotProven(); got != tc.want {
			t.Errorf("objective %d, bound %d: got %q, want %q", tc.res.Objective, tc.res.Bound, got, tc.want)
		}
	}
}

// bounded keeps a bound an integer at most the objective, and the objective itself for an
// optimum.
func TestSolutionBounded(t *testing.T) {
	for _, tc := range []struct {
		sol   Solution
		bound float64
		want  float64
	}{
		{Solution{Objective: 10}, 7.2, 8},
		{Solution{Objective: 10}, 7.0000001, 7},
		{Solution{Objective: 10, Bound: 9}, 7, 9},
		{Solution{Objective: 10}, 10.0000001, 10},
		{Solution{Objective: 10}, 12, 0}, // not a bound: dropped, never taken as a proof
		{Solution{Objective: 10, Optimal: true}, 3, 10},
		{Solution{Objective: 10}, -1e30, 0},
	} {
		s := tc.sol
		if got := s.bounded(tc.bound).Bound; got != tc.want {
			t.Errorf("%+v bounded by %v: %v, want %v", tc.sol, tc.bound, got, tc.want)
		}
	}
}

// partSolver answers each part with its start, not proven, and the costs the part fixes as its
// bound: a valid bound, and the least one.
type partSolver struct{ parts int }

func (*partSolver) Name() string { return "parts" }
func (p *partSolver) Solve(_ context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	p.parts++
	return &Solution{Values: opts.Start, Objective: objective(m, opts.Start), Bound: float64(m.LowerBound())}, nil
}

// SolveModel adds up the bounds of the independent parts of a model and the costs of the
// columns in none: with each part bounded by the costs it fixes, the whole is bounded by the
// costs the whole fixes, no more (counting a part's fixed columns twice once made a bound
// above the optimum, and with it a clustering "proven" optimal that was not).
func TestBoundAddsUpParts(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		g := generatedGraph(t, seed, gen.Options{Bindings: 200})
		m := Formulate(g, FormulateOptions{})
		solver := &partSolver{}
		start := m.StartValues(Greedy(context.Background(), g, false))
		sol, err := SolveModel(context.Background(), m, SolveOptions{Start: start, Solver: solver})
		if err != nil {
			t.Fatal(err)
		}
		if solver.parts < 2 {
			t.Logf("seed %d: %d part(s)", seed, solver.parts)
		}
		if sol.Optimal || int(sol.Bound) != m.LowerBound() {
			t.Errorf("seed %d (%d parts): bound %v, optimal %v; want the model's fixed costs %d, not optimal", seed, solver.parts, sol.Bound, sol.Optimal, m.LowerBound())
		}
	}
}

// Progress hears the best objective and the bound as the solve goes: never a bound above the
// optimum the solve proves, never an objective below it.
func TestProgressReportsBounds(t *testing.T) {
	if !Linked() {
		t.Skip("needs HiGHS")
	}
	g := generatedGraph(t, 2, gen.Options{Bindings: 50, Shape: "fans"})
	var mu sync.Mutex
	var heard [][2]int
	res, err := Solve(context.Background(), g, Options{TimeLimit: time.Minute, Progress: func(objective, bound int) {
		mu.Lock()
		heard = append(heard, [2]int{objective, bound})
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Optimal {
		t.Skip("not proven optimal in a minute on this machine")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) == 0 {
		t.Fatal("no progress heard")
	}
	for _, h := range heard {
		if h[0] > 0 && h[0] < res.Objective || h[1] > res.Objective {
			t.Errorf("heard objective %d, bound %d; the optimum is %d", h[0], h[1], res.Objective)
		}
	}
	t.Logf("%d reports, the last %v; optimum %d", len(heard), heard[len(heard)-1], res.Objective)
}
