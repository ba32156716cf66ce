package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// Tests and maps that gcc leaves scalar (remainders by 3, 5 and 7) run in a loop of their own
// ahead of the rest of their pass, when nothing in them can fail and the rest has work; a
// remainder by a power of two stays (it vectorises), and so does one by a variable (it can
// fail). Every form computes what the reference does, failures included.
func TestScalarWorkApart(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		name, test string
		apart      bool
	}{
		{"remainders by literals", "x `mod` 3 == 0", true},
		{"a remainder by a power of two", "x `mod` 4 == 0", false},
		{"a remainder by the input's own element", "x `mod` (x + 2000) == 0", false},
		{"a division by a parameter", "x `div` k == 2", false},
	} {
		src := "p :: Array Int -> Int -> (Int, Int, Int, Array Int)\np xs k =\n  let a = filter (\\x -> " + c.test + ") xs\n" +
			"      b = filter (\\x -> x `mod` 2 == 0) xs\n      d = map (\\x -> x * 3 + 1) xs\n" +
			"      sa = fold (+) 0 a\n      sb = fold max 0 b\n      sd = fold (+) 0 d\n  in (sa, sb, sd, a)\n"
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		if len(cl.Clusters) != 1 {
			t.Fatalf("%s: %d loops, want 1", c.name, len(cl.Clusters))
		}
		f, err := Emit(r, cl, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(f.Source, "in a loop of its own (hoistIn"); got != c.apart {
			t.Errorf("%s: a's test apart %v, want %v:\n%s", c.name, got, c.apart, f.Source)
		}
		for _, n := range []int{0, 1, 5, 1100, 3000} {
			for _, k := range []int64{7, 0} {
				xs := make([]fuse.Value, n)
				for i := range xs {
					xs[i] = int64((i*7919)%4001 - 2000)
				}
				agreesWithReference(t, fmt.Sprintf("%s, %d elements, k = %d", c.name, n, k), r, cl, map[string]fuse.Value{"xs": fuse.Array(xs), "k": k})
			}
		}
	}
}

// A reverse in a pass with a filter (its mask bytes) or elements of another type reads its
// block's run in a loop of its own, which gcc vectorises (a negative step beside elements of
// another size kept the whole pass scalar); alone with elements of its own type it stays in
// the pass. The results are the reference's, on 1 and 2 threads (a team's chunks read the
// reverse from the whole array's end).
func TestReversesApart(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		name, src string
		apart     bool
	}{
		{"beside a filter", `p :: Array Int -> (Array Int, Int, Int)
p xs =
  let r = reverse xs
      d = map2 (\a b -> a - b) xs r
      k = filter (\v -> v > 10) d
      s = fold (+) 0 k
      m = fold max 0 d
      q = map (\v -> v * v) k
  in  (q, s, m)
`, true},
		{"with its own type only", `p :: Array Int -> (Array Int, Int)
p xs =
  let r = reverse xs
      d = map2 (\a b -> a - b) xs r
      s = fold (+) 0 d
  in  (d, s)
`, false},
	} {
		r, cl, code := optimalC(t, c.src)
		if got := strings.Contains(code, "r: in a loop of its own (hoistIn"); got != c.apart {
			t.Errorf("%s: the reverse apart %v, want %v:\n%s", c.name, got, c.apart, code)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 7, 1100, 2500}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = rapid.Int64Range(-50, 50).Draw(rt, "x")
			}
			agreesOnThreads(rt, r, cl, map[string]fuse.Value{"xs": xs}, c.src, 256, 1, 2)
		})
	}
}
