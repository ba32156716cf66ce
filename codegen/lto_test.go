package codegen

import (
	"os/exec"
	"strings"
	"testing"
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
