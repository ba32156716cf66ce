package cluster

import (
	"context"
	"testing"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
	"pgregory.net/rapid"
)

func genSizes(t *rapid.T, maxBindings int) *infer.Result {
	n := rapid.IntRange(1, maxBindings).Draw(t, "bindings")
	return analyzeGenerated(t, gen.Options{Bindings: n})
}

// analyzeGenerated generates a program with opts and infers its sizes; the generators make
// only programs that size inference accepts.
func analyzeGenerated(t *rapid.T, opts gen.Options) *infer.Result {
	src := rapidgen.Program(t, opts)
	prog := infer.Analyze("gen.cnf", []byte(src))
	r := prog.Funcs[0]
	if r == nil || !r.OK() {
		t.Fatalf("generated program rejected:\n%s\n%v", src, prog.Diagnostics)
	}
	return r
}

// The ILP and the exhaustive search agree on the optimal objective, for our formulation and for
// Megiddo and Sarkar's, with and without the transitivity cuts and the root cuts, and for the
// literal formulation with the figure's weights; the ILP's clustering passes the independent
// checker; and the solver's objective is the cost of the clustering read
// back from x (so x was transitive).
//
// Thousands of programs: go test ./cluster -run ILPMatchesExhaustive -rapid.checks=3000
func TestILPMatchesExhaustive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genSizes(t, 9)
		g := NewGraph(r)
		for _, sameSize := range []bool{false, true} {
			ex, err := Exhaustive(g, sameSize)
			if err != nil {
				t.Fatalf("exhaustive: %v", err)
			}
			// With and without the transitivity cuts, the solve must find the optimum.
			for _, variant := range [][2]bool{{false, false}, {true, false}, {false, true}} {
				noCuts, noRoot := variant[0], variant[1]
				m := Formulate(g, FormulateOptions{SameSizeOnly: sameSize, NoCuts: noCuts})
				sol, err := SolveModel(context.Background(), m, SolveOptions{NoRootCuts: noRoot})
				if err != nil {
					t.Fatalf("solve (noCuts %v): %v\n%s", noCuts, err, source(r))
				}
				cl, err := readback(m, sol.Values)
				if err != nil {
					t.Fatalf("readback (noCuts %v): %v\n%s", noCuts, err, source(r))
				}
				if problems := Validate(g, cl.Of, sameSize); len(problems) > 0 {
					t.Fatalf("the ILP's clustering %s (noCuts %v) is invalid: %v\n%s", cl, noCuts, problems, source(r))
				}
				if int(sol.Objective) != cl.Cost() {
					t.Fatalf("solver objective %v, cost of the clustering read back %d (%s, noCuts %v)\n%s", sol.Objective, cl.Cost(), cl, noCuts, source(r))
				}
				if ex.Cost() != cl.Cost() {
					t.Fatalf("sameSize=%v, noCuts %v, noRoot %v: ILP %s costs %d, exhaustive %s costs %d\n%s", sameSize, noCuts, noRoot, cl, cl.Cost(), ex, ex.Cost(), source(r))
				}
			}
			// The literal formulation has the figure's weights, every array's traffic N²
			// (weights.go): the exhaustive search on a graph with those weights.
			figure := NewGraph(r)
			figure.shallow = nil
			exFigure, err := Exhaustive(figure, sameSize)
			if err != nil {
				t.Fatalf("exhaustive: %v", err)
			}
			paper, err := SolveModel(context.Background(), Formulate(g, FormulateOptions{SameSizeOnly: sameSize, Paper: true}), SolveOptions{})
			if err != nil {
				t.Fatalf("solve the literal formulation: %v", err)
			}
			if int(paper.Objective) != exFigure.Cost() {
				t.Fatalf("literal formulation %v, exhaustive with the figure's weights %d\n%s", paper.Objective, exFigure.Cost(), source(r))
			}
		}
	})
}

// Baselines are valid clusterings too, and never beat the optimum.
func TestBaselinesValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genSizes(t, 20)
		rep, err := Analyze(context.Background(), r, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, cl := range map[string]*Clustering{"ours": rep.Ours.Clustering, "stream": rep.Stream, "unfused": rep.Unfused, "greedy": Greedy(context.Background(), rep.Graph, false)} {
			if problems := Validate(rep.Graph, cl.Of, false); len(problems) > 0 {
				t.Fatalf("%s clustering %s invalid: %v\n%s", name, cl, problems, source(r))
			}
			if cl.Cost() < rep.Ours.Objective {
				t.Fatalf("%s clustering costs %d, below the optimum %d\n%s", name, cl.Cost(), rep.Ours.Objective, source(r))
			}
		}
		if problems := Validate(rep.Graph, rep.Megiddo.Of, true); len(problems) > 0 {
			t.Fatalf("Megiddo clustering invalid: %v", problems)
		}
		if rep.Ours.Objective > rep.Megiddo.Objective {
			t.Fatalf("ours %d worse than Megiddo %d", rep.Ours.Objective, rep.Megiddo.Objective)
		}
	})
}

func source(r *infer.Result) string { return r.Func.File.Text(r.Func.Def.Range) }
