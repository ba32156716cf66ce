package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// benchSeeds are the programs each size is measured on (cnf gen --seed S --bindings N gives
// the same programs).
var benchSeeds = []uint64{1, 2, 3, 4, 5}

func benchProgram(b testing.TB, n int, seed uint64, thesis bool) *Graph {
	return generatedGraph(b, seed, gen.Options{Bindings: n, ThesisOnly: thesis})
}

// generatedGraph is the graph of the program `cnf gen` writes for seed and opts.
func generatedGraph(t testing.TB, seed uint64, opts gen.Options) *Graph {
	src := gen.Program(rand.New(rand.NewPCG(seed, 0x636e66)), opts)
	prog := infer.Analyze("gen.cnf", []byte(src))
	if prog.Funcs[0] == nil || !prog.Funcs[0].OK() {
		t.Fatalf("generated program rejected: %v", prog.Diagnostics)
	}
	return NewGraph(prog.Funcs[0])
}

// BenchmarkSolve measures formulation and solve time on generated programs of 10 to 200
// bindings, and reports the size of the formulation: programs of the thesis's combinators
// (mix=thesis, as `cnf gen --thesis`) and of all of them (mix=all). docs/performance.md has the
// numbers.
//
//	go test ./cluster -run '^$' -bench Solve -benchtime 1x
func BenchmarkSolve(b *testing.B) {
	for _, mix := range []string{"thesis", "all"} {
		for _, n := range []int{10, 25, 50, 100, 200} {
			for _, seed := range benchSeeds {
				b.Run(fmt.Sprintf("mix=%s/bindings=%d/seed=%d", mix, n, seed), func(b *testing.B) {
					g := benchProgram(b, n, seed, mix == "thesis")
					var m *Model
					optimal := true
					for i := 0; i < b.N; i++ {
						m = Formulate(g, FormulateOptions{})
						sol, err := SolveModel(context.Background(), m, SolveOptions{TimeLimit: 60 * time.Second})
						if err != nil {
							b.Fatal(err)
						}
						optimal = optimal && sol.Optimal
					}
					b.ReportMetric(float64(len(m.Vars)), "vars")
					b.ReportMetric(float64(len(m.Rows)), "rows")
					if !optimal {
						b.ReportMetric(1, "not-optimal")
					}
				})
			}
		}
	}
}

// BenchmarkCuts compares, on the 50- and 100-binding programs, the model without and with the
// transitivity cuts (the default).
//
//	go test ./cluster -run '^$' -bench Cuts -benchtime 1x
func BenchmarkCuts(b *testing.B) {
	for _, mix := range []string{"thesis", "all"} {
		for _, n := range []int{50, 100} {
			for _, seed := range benchSeeds {
				g := benchProgram(b, n, seed, mix == "thesis")
				for _, cuts := range []bool{false, true} {
					b.Run(fmt.Sprintf("mix=%s/bindings=%d/seed=%d/cuts=%v", mix, n, seed, cuts), func(b *testing.B) {
						var objective float64
						var m *Model
						for i := 0; i < b.N; i++ {
							m = Formulate(g, FormulateOptions{NoCuts: !cuts})
							sol, err := SolveModel(context.Background(), m, SolveOptions{TimeLimit: 60 * time.Second, Start: m.StartValues(Greedy(context.Background(), g, false))})
							if err != nil {
								b.Fatal(err)
							}
							if !sol.Optimal {
								b.ReportMetric(1, "not-optimal")
							}
							objective = sol.Objective
						}
						b.ReportMetric(objective, "objective")
						b.ReportMetric(float64(len(m.Rows)), "rows")
					})
				}
			}
		}
	}
}

// BenchmarkRootCuts compares, on 100-binding programs of each shape of the second generator,
// the solve without and with the root cuts (rootcuts.go; the default), from the greedy start.
//
//	go test ./cluster -run '^$' -bench RootCuts -benchtime 1x
func BenchmarkRootCuts(b *testing.B) {
	for _, shape := range append([]string{"classic"}, gen.Shapes...) {
		for _, seed := range []uint64{1, 2, 3} {
			opts := gen.Options{Bindings: 100}
			if shape != "classic" {
				opts.Shape = shape
			}
			src := gen.Program(rand.New(rand.NewPCG(seed, 0x636e66)), opts)
			prog := infer.Analyze("bench.cnf", []byte(src))
			if prog.Funcs[0] == nil || !prog.Funcs[0].OK() {
				b.Fatalf("generated program rejected: %v", prog.Diagnostics)
			}
			g := NewGraph(prog.Funcs[0])
			for _, root := range []bool{false, true} {
				b.Run(fmt.Sprintf("shape=%s/seed=%d/root=%v", shape, seed, root), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						m := Formulate(g, FormulateOptions{})
						sol, err := SolveModel(context.Background(), m, SolveOptions{TimeLimit: 60 * time.Second, Start: m.StartValues(Greedy(context.Background(), g, false)), NoRootCuts: !root})
						if err != nil {
							b.Fatal(err)
						}
						if !sol.Optimal {
							b.ReportMetric(1, "not-optimal")
						}
					}
				})
			}
		}
	}
}
