package codegen

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/golden"
)

// analyse is the first definition of src, accepted, with its report.
func analyse(t interface{ Fatalf(string, ...any) }, src string) (*infer.Result, *cluster.Report) {
	prog := infer.Analyze("test.cnf", []byte(src))
	r := prog.Funcs[0]
	if r == nil || !r.OK() {
		t.Fatalf("rejected:\n%s", src)
	}
	rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
	if err != nil {
		t.Fatalf("%v", err)
	}
	return r, rep
}

// optimalC is the C (no main) of src's definition under its optimal clustering, with the
// analysis and the clustering it was emitted from.
func optimalC(t testing.TB, src string) (*infer.Result, *cluster.Clustering, string) {
	t.Helper()
	r, rep := analyse(t, src)
	cl := rep.Ours.Clustering
	f, err := Emit(r, cl, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	return r, cl, f.Source
}

// The C of every example definition under its optimal clustering (without the runtime, which
// is the same in every file), or why it cannot be compiled, located:
// testdata/EXAMPLE.c; go test ./codegen -run Golden -update rewrites them.
func TestGoldenC(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		prog := infer.Analyze(name+".cnf", src)
		var b strings.Builder
		for i, r := range prog.Funcs {
			def := prog.Syntax.Funcs[i].Def.Name.Name
			if r == nil || !r.OK() {
				fmt.Fprintf(&b, "/* %s: rejected by the front end */\n\n", def)
				continue
			}
			rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
			var ce *CompileError
			switch {
			case errors.As(err, &ce):
				pos := prog.Syntax.File.Position(ce.Range.Start)
				fmt.Fprintf(&b, "/* %s: cannot compile: %s:%d:%d: %s */\n\n", def, name, pos.Line, pos.Column, ce.Message)
			case err != nil:
				t.Fatalf("%s: %v", def, err)
			default:
				_, body, ok := strings.Cut(f.Source, "\n/* Types")
				if !ok {
					t.Fatalf("%s: no types section in\n%s", def, f.Source)
				}
				b.WriteString("/* Types" + body + "\n")
			}
		}
		golden.File(t, "testdata/"+name+".c", []byte(b.String()))
	})
}

// The C is emitted from the fused loops the caller gives (the analysis core's, Def.Fused) when
// they are the clustering's, one per cluster; loops of another clustering are not used. The
// marker: a process renamed by the caller, whose name the per-element C prints.
func TestEmitFromGivenFusedLoops(t *testing.T) {
	r, rep := analyse(t, "f xs =\n  let ys = map (+ 1) xs\n      s  = fold (+) 0 ys\n  in  (ys, s)\n")
	cl := rep.Ours.Clustering
	mine := fuse.FuseClusters(cl, fuse.MaxStates)
	if !fusedFrom(mine, cl) || fusedFrom(fuse.FuseClusters(rep.Unfused, fuse.MaxStates), cl) || fusedFrom(nil, cl) {
		t.Fatal("fusedFrom: want true only for the clustering's own loops")
	}
	plain, err := Emit(r, cl, Options{PerElement: true}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	// The same loops, one with a mark on its process: the C shows the mark only when they are used.
	marked := fuse.FuseClusters(cl, fuse.MaxStates)
	marked[0].Process.Name = "given-by-the-caller"
	given, err := Emit(r, cl, Options{PerElement: true, Fused: marked}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Emit(r, cl, Options{PerElement: true, Fused: fuse.FuseClusters(rep.Unfused, fuse.MaxStates)}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.Source, "given-by-the-caller") || other.Source != plain.Source {
		t.Fatal("loops of another clustering were used")
	}
	if !strings.Contains(given.Source, "/* given-by-the-caller */") {
		t.Fatal("the loops given were not the ones emitted")
	}
}
