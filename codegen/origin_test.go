package codegen

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// A loop that only slices of its input read runs from the first position they keep
// (blockedLoop's origin), and counts and folds that add the same value for every element
// step once a block (perBlock). Each program's optimal clustering is emitted, the C is
// checked for the shape (the origin, the steps once a block, and none where an addend can
// fail or names the element), and its results are the reference's at 1, 2 and 3 threads on
// random inputs, counts below 0, at 0, within and past the input's length.
func TestOriginAndStepsOnceABlock(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src    string
		origin bool
		once   int // steps once a block
	}{
		// mixed 128's first loop: three folds of a drop, two of them counts.
		{`f :: Array Int -> Int -> Int -> (Int, Int, Int)
f xs n m =
  let a = drop n xs
      b = fold (\acc x -> acc + x + x) 0 a
      c = fold (\acc x -> acc + x * m) 0 a
      d = fold (\acc x -> acc + abs m) 0 a
  in  (b, c, d)
`, true, 0},
		// Two slices of two inputs of one size: the loop starts at the first start.
		{`f :: Array Int -> Array Int -> Int -> Int -> (Array Int, Array Int, Int)
f xs ys n m =
  let a = drop n xs
      b = slice m n ys
      c = map (\x -> x * 3) a
      l = length b
  in  (c, b, l)
`, true, 1},
		// A take and a tail: the take starts at 0, so no origin; the loop runs to the end.
		{`f :: Array Int -> Int -> (Array Int, Int, Int)
f xs n =
  let a = take n xs
      b = tail xs
      s = fold (+) 0 a
      k = fold (\acc _ -> acc + 2) 0 b
  in  (a, s, k)
`, false, 0},
		// A take of a tail: the tail's rate is counted a tile at a time on a team (countPass),
		// from the loop's origin too (the rapid property found 9 elements kept, not 8).
		{`f :: Array Int -> Int -> (Array Int, Array Int)
f xs n =
  let a = tail xs
      b = take 8 a
      c = drop n a
  in  (b, c)
`, true, 0},
		// Counts under filters: kept by a compacted filter (once a block), under a mask of
		// one that is not compacted (in the loop), and a length.
		{`f :: Array Int -> Int -> (Array Int, Int, Int, Int, Int)
f xs n =
  let a = filter (> 0) xs
      b = filter (\x -> x < n) xs
      c = fold (\acc x -> acc + n * 3) 0 a
      d = fold (\acc x -> acc + 1) 0 b
      e = length a
      s = fold (+) 0 a
  in  (a, c, d, e, s)
`, false, 2},
		// An addend that can fail (a division by n) steps for each element, and fails only
		// where there is one; an addend naming the element steps for each too.
		{`f :: Array Int -> Int -> (Int, Int)
f xs n =
  let a = filter (> 3) xs
      c = fold (\acc x -> acc + 100 ` + "`div`" + ` n) 0 a
      d = fold (\acc x -> acc + (x - x)) 0 a
  in  (c, d)
`, false, 0},
		// Steps that divide by the element, over what a filter that drops the zeros keeps
		// (directly and through a map): never under the filter's mask, where they divided
		// by the zeros it drops and failed.
		{`f :: Array Int -> (Int, Int)
f xs =
  let a = filter (/= 0) xs
      s = fold (\acc x -> acc + 100 ` + "`div`" + ` x) 0 a
      b = map (\x -> x * 2 + 1) a
      t = fold (\acc y -> acc + 1000 ` + "`mod`" + ` (y - 1)) 0 b
  in  (s, t)
`, false, 0},
		// A count of a tuple's elements under a mask (q is not compacted: in the loop), and a
		// count at a filter's rate read by a map too (once a block).
		{`f :: Array Int -> Int -> (Array Int, Int, Int)
f xs n =
  let p = indexed xs
      q = filter (\t -> fst t > n) p
      c = fold (\acc (i, x) -> acc + 5) 0 q
      a = filter (> n) xs
      b = map (\x -> x * 2) a
      k = fold (\acc y -> acc - 7) 0 a
  in  (b, c, k)
`, false, 1},
	} {
		t.Run(strings.Fields(c.src[strings.Index(c.src, "let")+3:])[0], func(t *testing.T) { checkOriginProgram(t, c.src, c.origin, c.once) })
	}
}

// checkOriginProgram emits src's optimal clustering, checks the C's shape (an origin or not,
// once steps a block) and runs it against the reference.
func checkOriginProgram(t *testing.T, src string, origin bool, once int) {
	r, cl, code := optimalC(t, src)
	if got := strings.Contains(code, "_org = "); got != origin {
		t.Errorf("origin %v, want %v:\n%s", got, origin, src)
	}
	// A loop written twice (blocked.go, sparseSpec) steps as many once a block in its
	// speculating form, after the sparse one.
	steps := code
	if i := strings.Index(code, "} else { /* the maps speculated"); i >= 0 {
		steps = code[i:]
	}
	if got := strings.Count(steps, ": once a block */"); got != once {
		t.Errorf("%d steps once a block, want %d:\n%s\n%s", got, once, src, code)
	}
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.SampledFrom([]int{0, 1, 5, 1100, 3000}).Draw(rt, "n")
		in := map[string]fuse.Value{}
		for _, name := range []string{"xs", "ys"} {
			if strings.Contains(src, " "+name+" ") {
				a := make(fuse.Array, n)
				for i := range a {
					a[i] = int64(rapid.IntRange(-5, 9).Draw(rt, "x"))
				}
				in[name] = a
			}
		}
		for _, name := range []string{"n", "m"} {
			if strings.Contains(src, " "+name+" =") || strings.Contains(src, " "+name+" m =") {
				in[name] = int64(rapid.IntRange(-2, n+2).Draw(rt, "scalar"))
			}
		}
		failsOrAgrees(rt, r, cl, in, src, 1, 2, 3)
	})
}
