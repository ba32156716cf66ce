package codegen

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// Slices and indexed of a loop's own input, and a generate that drives a loop, split on a
// team: each chunk's positions start at the chunk's start. Of a filtered rate, each tile counts
// the rate's elements first and starts after the tiles before (counts.go): filters nested,
// under a slice of the input, slices of slices of a filtered rate (their positions by
// cnf_slice_before), beside a scan (which starts from the tiles before's total). A filter
// under a slice of a filtered rate, and a filter whose count would repeat costly work (a
// `mod`), stay on one thread. Results are the
// reference's at 1, 2 and 3 threads, chunks of one element and up.
func TestPositionsOnATeam(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src   string
		split bool
	}{
		{`f :: Array Int -> Int -> (Array Int, Int, Array Int)
f xs n =
  let a = take n xs
      b = map (\x -> x * 2) a
      s = fold (+) 0 b
      d = drop n xs
      e = filter (> 0) d
  in  (b, s, e)
`, true},
		{`f :: Array Int -> Int -> (Array (Int, Int), Int)
f xs n =
  let p = indexed xs
      q = filter (\t -> fst t > n) p
      c = length q
  in  (q, c)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int, Array (Int, Int), Int)
f xs n =
  let l = length xs
      g = generate l (\i -> i * 7 - n)
      h = map (\y -> y ` + "`mod`" + ` 11) g
      k = filter (> 4) h
      s = fold (+) 0 k
      p = indexed g
      q = filter (\t -> snd t > 3 * fst t) p
      m = fold max 0 h
  in  (k, s, q, m)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let a = filter (> 0) xs
      b = take n a
      s = fold (+) 0 b
  in  (b, s)
`, true},
		{`f :: Array Int -> Int -> Int
f xs n =
  let a = filter (> 0) xs
      b = map (\x -> x * 3 - n) a
      c = filter (\x -> x < n && x /= 7) b
      d = indexed c
      e = map (\t -> fst t * snd t) d
      s = fold (+) 0 e
  in  s
`, true},
		{`f :: Array Int -> Int -> (Array Int, Array Int, Int)
f xs n =
  let a = drop 3 xs
      b = filter (> 2) a
      c = take n b
      h = map (\x -> x * 3 - 4) xs
      k = filter (> 12) h
      e = drop 1 k
      l = length e
  in  (c, e, l)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let a = filter (> 0) xs
      b = take n a
      c = drop 2 b
      s = fold (+) 0 c
  in  (c, s)
`, true},
		{`f :: Array Int -> Int -> Int -> (Array (Int, Int), Array Int, Int)
f xs n m =
  let a = filter (\x -> x /= 3) xs
      b = slice m n a
      c = indexed b
      d = drop n b
      e = take m d
      s = fold (+) 0 e
  in  (c, e, s)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let a = filter (> 0) xs
      b = drop n a
      c = filter (> 4) b
      d = take 7 c
      s = fold (+) 0 d
  in  (d, s)
`, false},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let a = filter (\x -> x ` + "`mod`" + ` 3 /= 0) xs
      b = drop n a
      s = fold (+) 0 b
  in  (b, s)
`, false},
		{`f :: Array Int -> Int -> (Array Int, Array Int)
f xs n =
  let a = filter (> 0) xs
      b = take n a
      r = prescanl (+) 0 xs
  in  (b, r)
`, true},
	} {
		r, cl, code := optimalC(t, c.src)
		if got := !strings.Contains(code, "On one thread"); got != c.split {
			t.Errorf("split %v, want %v:\n%s", got, c.split, c.src)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 5, 1100, 3000}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = int64(rapid.IntRange(-5, 9).Draw(rt, "x"))
			}
			in := map[string]fuse.Value{"xs": xs, "n": int64(rapid.IntRange(-2, n+2).Draw(rt, "scalar"))}
			if strings.Contains(c.src, "f xs n m =") {
				in["m"] = int64(rapid.IntRange(-2, n+2).Draw(rt, "scalar"))
			}
			agreesOnThreads(rt, r, cl, in, c.src, 1, 1, 2, 3)
		})
	}
}
