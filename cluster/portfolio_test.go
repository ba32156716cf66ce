package cluster

import (
	"context"
	"math"
	"testing"
)

// tinyModel is min x over a binary x with lo <= x: optimum 1 for lo = 1, infeasible for lo = 2.
func tinyModel(lo float64) *Model {
	return &Model{
		N:    1,
		Vars: []Var{{Name: "x", Kind: Binary, Lo: 0, Hi: 1, Cost: 1}},
		Rows: []Row{{Name: "lo", Terms: []Term{{0, 1}}, Lo: lo, Hi: math.Inf(1)}},
	}
}

// A race returns the solve that succeeds when the other fails, in either order, and fails
// only when both do.
func TestRaceSurvivesOneFailure(t *testing.T) {
	ctx := context.Background()
	for _, order := range [][]*Model{{tinyModel(2), tinyModel(1)}, {tinyModel(1), tinyModel(2)}} {
		sol, err := race(ctx, SolveOptions{}, order...)
		if err != nil {
			t.Fatalf("race with one infeasible model: %v", err)
		}
		if !sol.Optimal || sol.Objective != 1 {
			t.Fatalf("race: objective %v (optimal %v), want the feasible model's optimum 1", sol.Objective, sol.Optimal)
		}
	}
	if _, err := race(ctx, SolveOptions{}, tinyModel(2), tinyModel(2)); err == nil {
		t.Fatal("race of two infeasible models succeeded")
	}
}

// A cancelled race returns the context's error.
func TestRaceCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := race(ctx, SolveOptions{}, tinyModel(1), tinyModel(1)); err == nil {
		t.Fatal("a cancelled race succeeded")
	}
}
