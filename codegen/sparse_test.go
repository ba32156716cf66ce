package codegen

import (
	"math"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// A loop that speculates maps through a filter it compacts is written twice (blocked.go,
// sparseSpec), and each block runs the form the block before chose: with the speculation, or,
// where the filters kept under half of what they tested, the maps and folds over what they
// keep. The inputs come in runs of about a block that the filters keep none of, all of, or some
// of, so that blocks run both forms and switch between them in every order; the results are
// the reference's on 1 and 2 threads (chunks of 256 elements: a team's chunks start in the
// middle of a run).
func TestSparseBlocksDropTheSpeculation(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src  string
		vals func(rt *rapid.T, n int) map[string]fuse.Value
	}{
		// A running maximum's rises: an increasing run keeps all, a falling one none.
		{`f :: Array Int -> (Int, Array Int)
f xs =
  let r  = prescanl max 0 xs
      d  = map2 (\a b -> b - a) r xs
      t  = tail d
      up = filter (> 0) t
      n  = fold (+) 0 up
      z  = map (\x -> x * x) up
  in  (n, z)
`, func(rt *rapid.T, n int) map[string]fuse.Value {
			return map[string]fuse.Value{"xs": runs(rt, n, func(mode, prev int64) int64 {
				switch mode {
				case 0:
					return prev + rapid.Int64Range(1, 3).Draw(rt, "rise")
				case 1:
					return prev - rapid.Int64Range(0, 3).Draw(rt, "fall")
				}
				return prev + rapid.Int64Range(-3, 3).Draw(rt, "step")
			})}
		}},
		// Two filters of one input, maps and masked folds of one, and a nested filter.
		{`f :: Array Int -> Int -> (Array Int, Int, Int, Int)
f xs n1 =
  let b1 = filter (\x -> x > n1) xs
      b2 = filter (\x -> x == 3) xs
      b3 = fold (+) 0 b1
      b4 = fold (+) 0 b2
      b5 = map (\x -> max (abs x) (x * n1)) b1
      b6 = filter even b5
      b7 = map (\x -> x * 3 + 1) b6
      b8 = fold (+) 0 b7
  in  (b7, b3, b4, b8)
`, func(rt *rapid.T, n int) map[string]fuse.Value {
			return map[string]fuse.Value{"n1": int64(2), "xs": runs(rt, n, func(mode, _ int64) int64 {
				switch mode {
				case 0:
					return rapid.Int64Range(3, 9).Draw(rt, "kept")
				case 1:
					return rapid.Int64Range(-9, 2).Draw(rt, "dropped")
				}
				return rapid.Int64Range(-9, 9).Draw(rt, "either")
			})}
		}},
		// Floats, signed zeros and NaNs among them, and a count under the mask.
		{`f :: Array Float -> (Int, Array Float)
f fs =
  let b = filter (\x -> x < 0.5) fs
      c = map (\x -> x * 2.0 + 1.0) b
      k = length b
  in  (k, c)
`, func(rt *rapid.T, n int) map[string]fuse.Value {
			vals := []float64{math.Copysign(0, -1), 0, -1.5, 0.25, math.NaN(), math.Inf(-1)}
			return map[string]fuse.Value{"fs": mapTo(runs(rt, n, func(mode, _ int64) int64 {
				switch mode {
				case 0:
					return int64(rapid.IntRange(0, 3).Draw(rt, "kept"))
				case 1:
					return -1
				}
				return int64(rapid.IntRange(-1, len(vals)-1).Draw(rt, "either"))
			}), func(i int64) fuse.Value {
				if i < 0 {
					return 2.0
				}
				return vals[i]
			})}
		}},
	} {
		r, cl, code := optimalC(t, c.src)
		if !strings.Contains(code, "_sparse) {") {
			t.Errorf("no block without speculation in the C of\n%s\n%s", c.src, code)
			continue
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{1100, 2500}).Draw(rt, "n")
			agreesOnThreads(rt, r, cl, c.vals(rt, n), c.src, 256, 1, 2)
		})
	}
}

// runs draws n Ints in runs of 200-1500 elements, each of one mode (0, 1 or 2), each element
// from the mode and the element before it.
func runs(rt *rapid.T, n int, next func(mode, prev int64) int64) fuse.Array {
	out := make(fuse.Array, 0, n)
	prev := int64(0)
	for len(out) < n {
		mode := rapid.Int64Range(0, 2).Draw(rt, "mode")
		for k := rapid.IntRange(200, 1500).Draw(rt, "run"); k > 0 && len(out) < n; k-- {
			prev = next(mode, prev)
			out = append(out, prev)
		}
	}
	return out
}

// mapTo is the array of f of each Int of a.
func mapTo(a fuse.Array, f func(int64) fuse.Value) fuse.Array {
	out := make(fuse.Array, len(a))
	for i, v := range a {
		out[i] = f(v.(int64))
	}
	return out
}

// A fold whose step under a filter's mask would be a select of the identity (a max, a min, a
// product) costs more for every element tested than over what the filter keeps, which it
// compacts anyway: a loop that would speculate maps through such a filter is written once,
// without that speculation (blocked.go). The results are the reference's on inputs in runs
// that keep none, all or some of a block, on 1 and 2 threads.
func TestMaskedSelectsDropTheSpeculation(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, src := range []string{
		// A max over a map speculated through the inner of nested filters.
		`f :: Array Int -> (Int, Int, Int, Array Int)
f xs =
  let a  = filter (> -5) xs
      a2 = map (\x -> x + 7) a
      b  = filter (\x -> x ` + "`mod`" + ` 4 /= 0) a2
      b2 = map (\x -> x * 3) b
      c  = filter (> 0) b2
      c2 = map (\x -> x - 11) c
      d  = filter even c2
      sa = fold (+) 0 a
      sc = fold max 0 c2
      sd = length d
  in  (sa, sc, sd, d)
`,
		// A max over the filter's output beside a map of it that is stored.
		`f :: Array Int -> (Array Int, Int)
f xs =
  let k = filter (\x -> x < 3) xs
      y = map (\x -> max (abs x) (x * 5) + 3 * x) k
      s = fold max 0 k
  in  (y, s)
`,
	} {
		r, cl, code := optimalC(t, src)
		if strings.Contains(code, "_sparse) {") || strings.Contains(code, "(INT64_MIN & ~") {
			t.Errorf("the C of\n%s\nspeculates under a masked max:\n%s", src, code)
			continue
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{1100, 2500}).Draw(rt, "n")
			xs := runs(rt, n, func(mode, _ int64) int64 {
				switch mode {
				case 0:
					return rapid.Int64Range(3, 9).Draw(rt, "kept")
				case 1:
					return rapid.Int64Range(-9, -5).Draw(rt, "dropped")
				}
				return rapid.Int64Range(-9, 9).Draw(rt, "either")
			})
			agreesOnThreads(rt, r, cl, map[string]fuse.Value{"xs": xs}, src, 256, 1, 2)
		})
	}
}
