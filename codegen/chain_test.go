package codegen

import (
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
		r, rep := analyse(t, c.src)
		cl := rep.Ours.Clustering
		f, err := Emit(r, cl, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(f.Source, "_acc_t = L1_c_g ?") || strings.Contains(f.Source, "& (-(int64_t)L1_c_g ^ L1_zero)"); got != c.masked {
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
