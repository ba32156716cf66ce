package cluster

import (
	"math"
	"testing"

	"github.com/lanl/highs"
)

// TestHiGHSSolvesTinyMIP checks that the HiGHS C library is installed, linked, and quiet:
// a small MIP whose LP relaxation has a fractional optimum must come back integral, with
// output_flag off so that nothing reaches stdout (the language server's channel).
//
//	maximise  5a + 4b   subject to  6a + 4b <= 24,  a + 2b <= 6,  a, b in {0, 1, 2, ...}
//
// The LP optimum is a = 3, b = 1.5 (objective 21); the integer optimum is a = 4, b = 0 (20).
func TestHiGHSSolvesTinyMIP(t *testing.T) {
	m := highs.NewRawModel()
	if err := m.SetBoolOption("output_flag", false); err != nil {
		t.Fatalf("output_flag: %v", err)
	}
	if err := m.SetMaximization(true); err != nil {
		t.Fatal(err)
	}
	if err := m.AddColumnBounds([]float64{0, 0}, []float64{math.Inf(1), math.Inf(1)}); err != nil {
		t.Fatal(err)
	}
	if err := m.SetColumnCosts([]float64{5, 4}); err != nil {
		t.Fatal(err)
	}
	if err := m.AddDenseRow(math.Inf(-1), []float64{6, 4}, 24); err != nil {
		t.Fatal(err)
	}
	if err := m.AddDenseRow(math.Inf(-1), []float64{1, 2}, 6); err != nil {
		t.Fatal(err)
	}
	if err := m.SetIntegrality([]highs.VariableType{highs.IntegerType, highs.IntegerType}); err != nil {
		t.Fatal(err)
	}
	sol, err := m.Solve()
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	if sol.Status != highs.Optimal {
		t.Fatalf("status = %v, want Optimal", sol.Status)
	}
	if sol.Objective != 20 || sol.ColumnPrimal[0] != 4 || sol.ColumnPrimal[1] != 0 {
		t.Fatalf("got objective %v at %v, want 20 at [4 0]", sol.Objective, sol.ColumnPrimal)
	}
}

func TestSolverVersion(t *testing.T) {
	v := SolverVersion()
	if v == "" || v[0] < '1' || v[0] > '9' {
		t.Fatalf("SolverVersion() = %q, want a version such as 1.10.0", v)
	}
}
