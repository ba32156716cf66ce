package codegen

import (
	"math"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// A Float fold over a filter's output is a chain of dependent additions: under the filter's
// mask it takes a step for every element tested, so it runs over the elements the filter
// keeps instead; so does a fold of tuples, whose masked step gcc makes a branch taken at
// random; an Int fold, which gcc vectorises under the mask, stays masked unless the filter's
// kept elements are compacted anyway (stored, here), when it runs over them. Either way the
// results are the reference's, bit for bit, on 1 and 2 threads.
func TestFloatFoldRunsOverKeptElements(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src    string
		masked bool
	}{
		{`f :: Array Float -> (Array Float, Float)
f fs =
  let g = filter (\x -> x < 0.25) fs
      t = fold (+) 0.0 g
  in  (g, t)
`, false},
		{`f :: Array Float -> (Float, Float)
f fs =
  let g = filter (\x -> x < 0.25) fs
      h = map (\x -> x * 2.0) g
      t = fold (+) 0.5 h
      u = fold max (-1.0) g
  in  (t, u)
`, false},
		{`f :: Array Int -> (Array Int, Int)
f xs =
  let g = filter (\x -> x < 2) xs
      t = fold (+) 0 g
  in  (g, t)
`, false},
		{`f :: Array Int -> (Int, Int)
f xs =
  let g = filter (\x -> x < 2) xs
      t = fold (+) 0 g
      u = fold max 0 g
  in  (t, u)
`, true},
		{`f :: Array Int -> ((Int, Int), Array Int)
f xs =
  let z = zip xs xs
      g = filter (\p -> fst p < 2) z
      t = fold (\a p -> (fst a + fst p, max (snd a) (snd p))) (0, 0) g
      d = map (\p -> fst p - snd p) g
  in  (t, d)
`, false},
	} {
		r, cl, code := optimalC(t, c.src)
		if got := strings.Contains(code, "_acc_t = L1_c_g ?") || strings.Contains(code, "& (-(int64_t)L1_c_g ^ L1_zero)"); got != c.masked {
			t.Errorf("t folded under g's mask: %v, want %v:\n%s", got, c.masked, c.src)
		}
		float := strings.Contains(c.src, "Array Float ->")
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 9, 1100, 3000}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				v := rapid.IntRange(-6, 6).Draw(rt, "x")
				if float {
					xs[i] = float64(v) / 8
				} else {
					xs[i] = int64(v)
				}
			}
			name := "xs"
			if float {
				name = "fs"
			}
			in := map[string]fuse.Value{name: xs}
			agreesOnThreads(rt, r, cl, in, c.src, 256, 1, 2)
		})
	}
}

// A Float fold or scan is a chain of steps in order that keeps its loop scalar; there Float
// min and max, of the folds' steps and of maps beside them, are one SSE instruction each
// (cnf_max_Float_sse), not the mask minMax gives a loop gcc vectorises, which keeps the mask.
// NaNs, signed zeros and infinities give the reference's results, printed alike, on 1 and 2
// threads, through every block and tile.
func TestFloatMinMaxByOneInstructionInScalarLoops(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src       string
		want, not []string // C the loop must and must not have
	}{
		{`f :: Array Float -> (Float, Float, Array Float, Array Float, Array Float)
f fs =
  let a = fold max 0.0 fs
      b = fold (min) (-0.0) fs
      c = postscanl max (-1.0) fs
      d = prescanl min 5.0 fs
      e = map (\x -> max x (min 1.0 x)) fs
  in  (a, b, c, d, e)
`, []string{"cnf_max_Float_sse(L1_acc_a, ", "cnf_min_Float_sse(L1_acc_b, ", "cnf_max_Float_sse(L1_acc_c, ", "cnf_min_Float_sse(L1_acc_d, ", "cnf_max_Float_sse(l"}, nil},
		{`f :: Array Float -> (Float, Float, Array Float)
f fs =
  let g = filter (\x -> x < 0.25) fs
      u = fold max (-1.0) g
      v = fold (\acc x -> min acc (x * 2.0)) 1.0 g
  in  (u, v, g)
`, []string{"cnf_max_Float_sse(L1_acc_u, ", "cnf_min_Float_sse("}, nil},
		{`f :: Array Float -> Array Float
f fs =
  let e = map (\x -> max x (min 1.0 x)) fs
  in  e
`, []string{"cnf_max_Float(l"}, []string{"_sse("}},
	} {
		r, cl, code := optimalC(t, c.src)
		for _, want := range c.want {
			if !strings.Contains(code, want) {
				t.Errorf("no %q in the C of\n%s", want, c.src)
			}
		}
		for _, not := range c.not {
			if strings.Contains(code, not) {
				t.Errorf("%q in the C of\n%s", not, c.src)
			}
		}
		values := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1.5, 0.125, 2.25, 7}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 9, 1100, 3000}).Draw(rt, "n")
			fs := make(fuse.Array, n)
			for i := range fs {
				fs[i] = rapid.SampledFrom(values).Draw(rt, "x")
			}
			agreesOnThreads(rt, r, cl, map[string]fuse.Value{"fs": fs}, c.src, 256, 1, 2)
		})
	}
}

// Slow work (a sqrt, a Float division) of what a filter keeps is computed for every element
// the filter tests only where the pass over what it keeps is scalar anyway, held by a Float
// fold over all of it: there the vector roots of every element beat scalar roots of those
// kept. Elsewhere it is vector code either way, and it runs on the kept elements only. The
// results are the reference's on 1 and 2 threads.
func TestSlowWorkSpeculatedOnlyIntoAScalarPass(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src        string
		speculated bool
	}{
		{`f :: Array Float -> Array Float
f fs =
  let lo = filter (\x -> x < 0.1) fs
      sq = map sqrt lo
  in  sq
`, false},
		{`f :: Array Float -> (Int, Float, Array Float)
f fs =
  let hi = filter (\x -> x > 0.75) fs
      k  = length hi
      s  = fold (+) 0.0 hi
      lo = filter (\x -> x < 0.1) fs
      sq = map (\x -> 1.0 / sqrt x) lo
  in  (k, s, sq)
`, false},
		{`f :: Array Float -> (Float, Array Float)
f fs =
  let b = filter (\v -> v > 0.0) fs
      c = map sqrt b
      s = fold (+) 0.0 c
  in  (s, c)
`, true},
	} {
		r, cl, code := optimalC(t, c.src)
		if got := strings.Contains(code, "for every element"); got != c.speculated {
			t.Errorf("speculated: %v, want %v:\n%s\n%s", got, c.speculated, c.src, code)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 9, 1100, 3000}).Draw(rt, "n")
			fs := make(fuse.Array, n)
			for i := range fs {
				fs[i] = float64(rapid.IntRange(-4, 12).Draw(rt, "x")) / 8
			}
			agreesOnThreads(rt, r, cl, map[string]fuse.Value{"fs": fs}, c.src, 256, 1, 2)
		})
	}
}
