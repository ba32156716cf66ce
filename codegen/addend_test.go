package codegen

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// An Int fold whose step adds and subtracts things of the element to and from the accumulator
// (the accumulator first, on the left of every -) is an addend fold: Ints wrap, so (a + x) - n
// is a + (x - n) bit for bit, and the fold is split on a team and masked under a filter. Its
// results are the reference's at 1, 2 and 3 threads, on values that overflow.
func TestSubtractingFoldsAreSplit(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		worker string
		split  bool
	}{
		{`\acc x -> acc + x - n`, true},
		{`\acc x -> acc - x`, true},
		{`\acc x -> acc + 5 - x`, true},
		{`\acc x -> (acc - x) - (x * x)`, true},
		{`\acc x -> acc - x + n - 3`, true},
		{`\acc x -> x - acc`, false},         // the accumulator on the right of a -
		{`\acc x -> acc - (x - acc)`, false}, // named twice
	} {
		src := fmt.Sprintf("f :: Array Int -> Int -> (Int, Int, Array Int)\nf xs n =\n  let s = fold (%[1]s) 7 xs\n      ps = filter (\\x -> x > n) xs\n      q = fold (%[1]s) 0 ps\n  in  (s, q, ps)\n", c.worker)
		r, cl, code := optimalC(t, src)
		if got := !strings.Contains(code, "not known to be associative"); got != c.split {
			t.Errorf("%s: split %v, want %v", c.worker, got, c.split)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 5, 1100}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = rapid.SampledFrom([]int64{-3, -1, 0, 2, 9, math.MaxInt64, math.MinInt64, 1 << 62, -(1 << 62) - 5}).Draw(rt, "x")
			}
			in := map[string]fuse.Value{"xs": xs, "n": int64(rapid.IntRange(-4, 4).Draw(rt, "scalar"))}
			agreesOnThreads(rt, r, cl, in, src, 1, 1, 2, 3)
		})
	}
}
