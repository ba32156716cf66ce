package codegen

import (
	"context"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// A compile optimises the loops in parallel only where that pays: from loopsInParallel loops,
// with gcc, at least two cores and loopsPerJob loops a job, never more jobs than cores.
func TestParallelFlags(t *testing.T) {
	src := func(loops int) string { return strings.Repeat(loopFunctionMark+"1_f(void) {}\n", loops) }
	jobs := func(flags []string) string {
		for _, f := range flags {
			if j, ok := strings.CutPrefix(f, "-flto="); ok {
				return j
			}
		}
		return ""
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("no make on PATH: gcc would compile the partitions one after another (%v)", err)
	}
	for _, c := range []struct {
		loops, cpus int
		gcc         bool
		want        string
	}{
		{loopsInParallel - 1, 16, true, ""},
		{loopsInParallel, 16, true, "2"},
		{100, 16, true, "16"},
		{100, 4, true, "4"},
		{1000, 64, true, "16"},
		{100, 1, true, ""},
		{100, 16, false, ""},
	} {
		if got := jobs(parallelFlags(src(c.loops), c.gcc, c.cpus)); got != c.want {
			t.Errorf("%d loops, %d cores, gcc %v: %q jobs, want %q", c.loops, c.cpus, c.gcc, got, c.want)
		}
	}
}

// Large programs, whose loops gcc optimises in parallel, run compiled with the reference's
// results: the partitions change where the loops are optimised, not what they compute.
func TestLargeProgramsCompiledInParallelAgree(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for seed := range uint64(3) {
		src := gen.Program(rand.New(rand.NewPCG(seed, 40)), gen.Options{Bindings: 40, NoExternals: true})
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		f, err := Emit(r, cl, Options{}, HarnessMain)
		if err != nil {
			t.Fatal(err)
		}
		if parallelFlags(f.Source, true, 2) == nil {
			t.Fatalf("seed %d: %d loops, not compiled in parallel: the test needs a larger program\n%s", seed, f.Unit.Loops, src)
		}
		agreed := 0
		for k := 0; k < 16 && agreed < 3; k++ {
			in := rapid.Custom(func(t *rapid.T) map[string]fuse.Value { return inputs(t, r) }).Example(int(seed)*10 + k)
			ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
			got, err := Run(context.Background(), r, cl, in, Options{})
			var re *RunError
			switch {
			case err != nil && !errors.As(err, &re):
				t.Fatalf("seed %d: cannot compile: %v\n%s", seed, err, src)
			case (refErr == nil) != (err == nil):
				t.Fatalf("seed %d: compiled gives error %v, the reference %v\n%s\ninputs%s", seed, err, refErr, src, show(in))
			case refErr == nil && !same(ref, got):
				t.Fatalf("seed %d: compiled differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", seed, show(got), show(ref), src, show(in))
			case refErr == nil:
				agreed++
			}
		}
		if agreed == 0 {
			t.Errorf("seed %d: every input failed in both: nothing compared", seed)
		}
	}
}
