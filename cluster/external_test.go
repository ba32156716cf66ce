package cluster

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// externalsUnderTest are the solver executables found on PATH. test.bash installs glpsol and
// cbc (HiGHS's build installs highs) and names them in CNF_REQUIRE_SOLVERS, so that a missing
// one fails there instead of skipping.
func externalsUnderTest(t *testing.T) []externalSolver {
	t.Helper()
	var found []externalSolver
	required := strings.Fields(os.Getenv("CNF_REQUIRE_SOLVERS"))
	for _, k := range externalKinds {
		path, err := exec.LookPath(k.exec)
		if err != nil {
			if slices.Contains(required, k.exec) {
				t.Errorf("%s is not on PATH (CNF_REQUIRE_SOLVERS names it)", k.exec)
			}
			continue
		}
		found = append(found, externalSolver{kind: k.kind, path: path})
	}
	if len(found) == 0 {
		t.Skip("none of highs, glpsol, cbc is on PATH")
	}
	return found
}

// testPrograms are the examples and generated programs of several sizes and shapes: each
// external solver must find the optimum on them that exhaustive search (small programs) or
// in-process HiGHS (when linked) finds.
func testPrograms(t *testing.T) map[string]*infer.Result {
	t.Helper()
	progs := map[string]*infer.Result{}
	paths, _ := filepath.Glob(filepath.Join("..", "examples", "*.cnf"))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range infer.Analyze(p, src).Funcs {
			if r != nil && r.OK() {
				progs[filepath.Base(p)+"#"+string(rune('0'+i))] = r
			}
		}
	}
	for seed := uint64(1); seed <= 12; seed++ {
		opts := gen.Options{Bindings: 4 + int(seed%7)}
		if seed > 8 {
			opts = gen.Options{Bindings: 24, Shape: gen.Shapes[int(seed)%len(gen.Shapes)]}
		}
		src := gen.Program(rand.New(rand.NewPCG(seed, 7)), opts)
		r := infer.Analyze("gen.cnf", []byte(src)).Funcs[0]
		if r == nil || !r.OK() {
			t.Fatalf("generated program rejected:\n%s", src)
		}
		progs["gen seed "+string(rune('a'+seed))] = r
	}
	return progs
}

// Every external solver, driven through its LP file and solution file, finds the optimal
// objective (the exhaustive search's, or in-process HiGHS's when linked), and its answer reads
// back as a valid clustering, for our model and for Megiddo and Sarkar's.
func TestExternalSolversFindTheOptimum(t *testing.T) {
	solvers := externalsUnderTest(t)
	ctx := context.Background()
	for name, r := range testPrograms(t) {
		g := NewGraph(r)
		for _, sameSize := range []bool{false, true} {
			want := -1
			switch {
			case len(g.Nodes) <= MaxExhaustive:
				ex, err := Exhaustive(g, sameSize)
				if err != nil {
					t.Fatalf("%s: exhaustive: %v", name, err)
				}
				want = ex.Cost()
			case Linked():
				res, err := Solve(ctx, g, Options{SameSizeOnly: sameSize, TimeLimit: NoTimeLimit, Solver: DefaultSolver})
				if err != nil || !res.Optimal {
					t.Fatalf("%s: in-process HiGHS: %v (optimal %v)", name, err, res != nil && res.Optimal)
				}
				want = res.Objective
			}
			for _, s := range solvers {
				res, err := Solve(ctx, g, Options{SameSizeOnly: sameSize, TimeLimit: NoTimeLimit, Solver: s})
				if err != nil {
					t.Fatalf("%s with %s: %v", name, s.Name(), err)
				}
				if res.Fallback != "" || !res.Optimal {
					t.Fatalf("%s with %s (sameSize %v): not solved: %q %q", name, s.Name(), sameSize, res.Fallback, res.Note)
				}
				if problems := Validate(g, res.Of, sameSize); len(problems) > 0 {
					t.Fatalf("%s with %s: invalid clustering %s: %v", name, s.Name(), res.Clustering, problems)
				}
				if want >= 0 && res.Objective != want {
					t.Errorf("%s with %s (sameSize %v): objective %d, the optimum is %d", name, s.Name(), sameSize, res.Objective, want)
				}
			}
		}
	}
}

// Without a solver, small definitions are clustered exhaustively (proven optimal) and larger
// ones greedily, labelled as not proven optimal for want of a solver.
func TestNoSolver(t *testing.T) {
	ctx := context.Background()
	for name, r := range testPrograms(t) {
		g := NewGraph(r)
		res, err := Solve(ctx, g, Options{Solver: NoSolver})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if problems := Validate(g, res.Of, false); len(problems) > 0 {
			t.Fatalf("%s: invalid clustering %s: %v", name, res.Clustering, problems)
		}
		if len(g.Nodes) <= MaxExhaustive {
			ex, err := Exhaustive(g, false)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Optimal || res.Objective != ex.Cost() {
				t.Errorf("%s (%d bindings): objective %d optimal %v, exhaustive search finds %d", name, len(g.Nodes), res.Objective, res.Optimal, ex.Cost())
			}
			continue
		}
		if !res.Optimal && res.Note != NoSolverNote {
			t.Errorf("%s: note %q, want %q", name, res.Note, NoSolverNote)
		}
	}
}

// Forced pairs (the "why not in that loop" re-solves) are honoured by the exhaustive search.
func TestNoSolverTogether(t *testing.T) {
	g := NewGraph(sizesOf(t, example(t, "normalize2")))
	free, err := Solve(context.Background(), g, Options{Solver: NoSolver})
	if err != nil {
		t.Fatal(err)
	}
	a, b := -1, -1
	for i := range g.Nodes {
		for j := range g.Nodes {
			if free.Of[i] != free.Of[j] && g.Possible(i, j) && !g.Nodes[i].External() && !g.Nodes[j].External() && a < 0 {
				a, b = i, j
			}
		}
	}
	if a < 0 {
		t.Fatal("no pair of bindings in different loops to force together")
	}
	forced, err := Solve(context.Background(), g, Options{Solver: NoSolver, Together: [][2]int{{a, b}}})
	if err != nil {
		t.Fatal(err)
	}
	if forced.Fallback == "" && forced.Of[a] != forced.Of[b] {
		t.Errorf("%s and %s forced together, clustered apart: %s", g.Nodes[a].Name, g.Nodes[b].Name, forced.Clustering)
	}
	if forced.Fallback == "" && forced.Objective < free.Objective {
		t.Errorf("forcing a pair improved the optimum: %d < %d", forced.Objective, free.Objective)
	}
}

// The solution files as each solver writes them (captured from highs 1.10, glpsol 5.0, cbc
// 2.10): statuses with and without a solution, and values by name or by column number.
func TestReadSolutionFiles(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "c_a", Cost: 5, Hi: 1, Kind: Binary}, {Name: "x_a_b", Cost: 1, Hi: 1, Kind: Binary}, {Name: "pi_a", Hi: 2}}}
	m.Rows = []Row{{Name: "r", Lo: 1, Hi: 1, Terms: []Term{{Var: 2, Coef: 1}, {Var: 0, Coef: 1}}}}
	// lpOrder: the costed columns (c_a, x_a_b), then pi_a.
	tests := []struct {
		name, text string
		read       func(string, *Model) ([]float64, bool, error)
		values     []float64 // nil: no solution
		optimal    bool
		err        string
	}{
		{"highs optimal", "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 6\n# Columns 3\nc_a 1\nx_a_b 1\npi_a 0\n# Rows 1\nr 1\n",
			readHighsSolution, []float64{1, 1, 0}, true, ""},
		{"highs time limit with a solution", "Model status\nTime limit reached\n\n# Primal solution values\nFeasible\nObjective 6\n# Columns 3\npi_a 0\nc_a 1\nx_a_b 1\n",
			readHighsSolution, []float64{1, 1, 0}, false, ""},
		{"highs time limit without", "Model status\nTime limit reached\n\n# Primal solution values\nNone\n", readHighsSolution, nil, false, ""},
		{"highs infeasible", "Model status\nInfeasible\n\n# Primal solution values\nNone\n", readHighsSolution, nil, false, ""},
		{"highs missing column", "Model status\nOptimal\n\n# Primal solution values\nFeasible\n# Columns 2\nc_a 1\npi_a 0\n", readHighsSolution, nil, false, "no value for x_a_b"},
		{"glpk optimal", "c Problem:\nc Status:     INTEGER OPTIMAL\ns mip 1 3 o 6\ni 1 1\nj 1 1\nj 2 1\nj 3 0\ne o f\n",
			readGlpkSolution, []float64{1, 1, 0}, true, ""},
		{"glpk feasible", "s mip 1 3 f 6\nj 1 1\nj 2 1\nj 3 0\n", readGlpkSolution, []float64{1, 1, 0}, false, ""},
		{"glpk none", "s mip 1 3 n 0\n", readGlpkSolution, nil, false, ""},
		{"glpk simplex", "s bas 1 3 f f 6\ni 1 b 1 0\nj 1 b 1 0\nj 2 l 1 1\nj 3 l 0 0\ne o f\n", readGlpkSolution, []float64{1, 1, 0}, true, ""},
		{"glpk simplex infeasible", "s bas 1 3 n f 0\n", readGlpkSolution, nil, false, ""},
		{"glpk wrong column count", "s mip 1 4 o 6\n", readGlpkSolution, nil, false, "glpsol read 4 columns"},
		{"glpk missing column", "s mip 1 3 o 6\nj 1 1\nj 3 0\n", readGlpkSolution, nil, false, "no value for x_a_b"},
		{"cbc optimal", "Optimal - objective value 6.00000000\n      0 c_a    1   5\n      1 x_a_b  1   1\n",
			readCbcSolution, []float64{1, 1, 0}, true, ""},
		{"cbc stopped on time", "Stopped on time - objective value 6.00000000\n      0 c_a    1   5\n      1 x_a_b  1   1\n      2 pi_a   0   0\n",
			readCbcSolution, []float64{1, 1, 0}, false, ""},
		{"cbc infeasible", "Infeasible - objective value 0.00000000\n", readCbcSolution, nil, false, ""},
	}
	for _, tc := range tests {
		values, optimal, err := tc.read(tc.text, m)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case (values == nil) != (tc.values == nil) || len(values) != len(tc.values):
			t.Errorf("%s: values %v, want %v", tc.name, values, tc.values)
		case optimal != tc.optimal:
			t.Errorf("%s: optimal %v, want %v", tc.name, optimal, tc.optimal)
		default:
			for i := range values {
				if values[i] != tc.values[i] {
					t.Errorf("%s: values %v, want %v", tc.name, values, tc.values)
					break
				}
			}
		}
	}
}

// --solver names: unknown names are refused, none is NoSolver, and a named executable must be
// on PATH.
func TestSolverNamed(t *testing.T) {
	if _, err := SolverNamed("gurobi"); err == nil || !strings.Contains(err.Error(), "unknown solver") {
		t.Errorf("gurobi: %v", err)
	}
	if s, err := SolverNamed("none"); err != nil || s != NoSolver {
		t.Errorf("none: %v %v", s, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := SolverNamed("glpk"); err == nil || !strings.Contains(err.Error(), "glpsol") {
		t.Errorf("glpk with an empty PATH: %v", err)
	}
	auto, err := SolverNamed("auto")
	if err != nil {
		t.Fatal(err)
	}
	if Linked() != (auto == nil) || !Linked() && auto != NoSolver {
		t.Errorf("auto with an empty PATH (HiGHS linked: %v): %v", Linked(), auto)
	}
}

// A solver executable that does not keep its time limit is killed shortly after it, and the
// clustering falls back to its start (the greedy clustering), not proven optimal: a hung solver
// never hangs cnf.
func TestHungSolverIsKilled(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "cbc")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	s, err := SolverNamed("cbc")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGraph(sizesOf(t, example(t, "everything")))
	start := time.Now()
	res, err := Solve(context.Background(), g, Options{Solver: s, TimeLimit: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > externalGrace+3*time.Second {
		t.Errorf("the hung solver held the clustering for %v", took)
	}
	if res.Optimal && res.Fallback == "" {
		t.Errorf("a killed solver's answer is claimed optimal (note %q)", res.Note)
	}
	if problems := Validate(g, res.Of, false); len(problems) > 0 {
		t.Errorf("invalid clustering after a killed solver: %v", problems)
	}
}
