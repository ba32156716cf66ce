package codegen

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// BenchmarkEmitAndCompile100 emits the C of a generated 100-binding program under its optimal
// clustering and compiles it with the C compiler (no cache): issue 13's target is under 1 s.
// The loops are the analysis core's fused ones, as cnf build, run and bench give them (its
// fusion is the analysis's time, not the emitter's).
//
//	go test ./codegen -run '^$' -bench EmitAndCompile -benchtime 5x
func BenchmarkEmitAndCompile100(b *testing.B) {
	src := gen.Program(rand.New(rand.NewPCG(1, 100)), gen.Options{Bindings: 100, NoExternals: true})
	r, rep := analyse(b, src)
	fused := fuse.FuseClusters(rep.Ours.Clustering, fuse.MaxStates)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.Setenv("CNF_CACHE", b.TempDir())
		f, err := Emit(r, rep.Ours.Clustering, Options{Fused: fused}, HarnessMain)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build(context.Background(), f.Source); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmit100 is the emitter alone on the same program, given the fused loops.
func BenchmarkEmit100(b *testing.B) {
	src := gen.Program(rand.New(rand.NewPCG(1, 100)), gen.Options{Bindings: 100, NoExternals: true})
	r, rep := analyse(b, src)
	var cl *cluster.Clustering = rep.Ours.Clustering
	fused := fuse.FuseClusters(cl, fuse.MaxStates)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Emit(r, cl, Options{Fused: fused}, HarnessMain); err != nil {
			b.Fatal(err)
		}
	}
}
