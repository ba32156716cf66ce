package codegen

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"pgregory.net/rapid"
)

// A slice keeps one run of positions, so each block of a blocked loop keeps a run of its
// elements: found from the block's first position (sliceRun), read in place or copied out,
// never compacted by a mask. And a fold of a filter whose kept elements are compacted for
// another reader runs over them (keptAnyway), not under the filter's mask. Each program's
// optimal clustering is emitted, the C checked for the shape, and its results are the
// reference's at 1, 2 and 3 threads on random inputs and on counts and starts below 0, at 0,
// within and past the input's length, and at the ends of Int's range (a start plus a count
// past it).
func TestSlicesAsRuns(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src  string
		runs []string // the slices kept as runs (none compacted by a mask)
		kept []string // the folds of filters over what they keep (not under the mask)
	}{
		// A tail of a map of a scan (the shape that compacted every block by its mask), a
		// filter of it, a fold and a map of what it keeps.
		{`f :: Array Int -> (Int, Array Int)
f xs =
  let r  = prescanl max 0 xs
      d  = map2 (\a b -> b - a) r xs
      t  = tail d
      up = filter (> 0) t
      n  = fold (+) 0 up
      z  = map (\x -> x * x) up
  in  (n, z)
`, []string{"t"}, nil},
		// Literal starts and counts over a filter's rate: read (indexed, a fold), stored, and a
		// take of the drop.
		{`f :: Array Int -> (Array Int, Int, Int)
f xs =
  let k = filter (\x -> x > 0 && x /= 7) xs
      d = drop 3 k
      w = indexed d
      v = map (\t -> fst t * snd t) w
      s = fold (+) 0 v
      m = fold max 0 d
      e = take 1030 d
  in  (e, s, m)
`, []string{"d", "e"}, []string{"m"}},
		// Scalar starts and counts, stored and read, a slice of a slice, a count of zero and
		// below, a count past Int's range when added to the start.
		{`f :: Array Int -> Int -> Int -> (Array Int, Array Int, Int, Array Int)
f xs n m =
  let a = map (\x -> x * 3 + 1) xs
      b = slice n m a
      c = take m b
      s = fold (+) 0 c
      e = drop n a
      g = slice m 0 a
      h = slice 1030 m a
      l = length g
      q = fold (+) 0 h
      u = map2 (\x y -> x + y + l + q) b b
  in  (e, c, s, u)
`, []string{"b", "c", "e"}, nil},
		// Literal counts at Int's ends: a start plus a count past the range, a take of the
		// most, a drop of the most.
		{`f :: Array Int -> Int -> (Array Int, Array Int, Array Int)
f xs n =
  let a = map (\x -> x - 2) xs
      b = slice n 9223372036854775807 a
      c = take 9223372036854775807 a
      d = drop 9223372036854775807 a
  in  (b, c, d)
`, []string{"b", "c", "d"}, nil},
		// A fold over a filter read by a scan (over what it keeps) beside a fold over a filter
		// read only by folds (under its mask).
		{`f :: Array Int -> Int -> (Int, Int, Int, Array Int)
f xs n =
  let a  = filter (\x -> x ` + "`mod`" + ` 3 /= 1) xs
      r  = postscanl (+) 0 a
      h  = filter (\x -> x > n) r
      m  = map (\x -> x ` + "`div`" + ` 7) h
      s1 = fold (+) 0 m
      s2 = fold max 0 a
      b  = filter (< 2) xs
      s3 = fold (+) 0 b
  in  (s1, s2, s3, m)
`, nil, []string{"s2"}},
	} {
		t.Run(strings.Fields(c.src[strings.Index(c.src, "let")+3:])[0], func(t *testing.T) {
			r, cl, code := optimalC(t, c.src)
			for _, name := range c.runs {
				if regexp.MustCompile(`/\* `+name+` = [^\n]*: the kept elements`).MatchString(code) ||
					!regexp.MustCompile(`/\* `+name+` = [^\n]*: a run of the block`).MatchString(code) {
					t.Errorf("%s not kept as a run:\n%s\n%s", name, c.src, code)
				}
			}
			for _, name := range c.kept {
				if regexp.MustCompile(`_acc_` + name + ` = [^\n]*_zero\)`).MatchString(code) {
					t.Errorf("%s folded under its filter's mask:\n%s\n%s", name, c.src, code)
				}
			}
			// The fold of the last program's b, read only by folds, stays under b's mask.
			if strings.Contains(c.src, "s3 = ") && !regexp.MustCompile(`_acc_s3 = [^\n]*_zero\)`).MatchString(code) {
				t.Errorf("s3 not folded under b's mask:\n%s", code)
			}
			rapid.Check(t, func(rt *rapid.T) {
				n := rapid.SampledFrom([]int{0, 1, 5, 1100, 3000}).Draw(rt, "n")
				in := map[string]fuse.Value{}
				a := make(fuse.Array, n)
				for i := range a {
					a[i] = int64(rapid.IntRange(-5, 9).Draw(rt, "x"))
				}
				in["xs"] = a
				for _, name := range []string{"n", "m"} {
					if strings.Contains(c.src, " "+name+" =") || strings.Contains(c.src, " "+name+" m =") {
						in[name] = rapid.OneOf(
							rapid.Int64Range(-2, int64(n)+2),
							rapid.SampledFrom([]int64{math.MinInt64, -1030, 1029, 1030, 1031, math.MaxInt64}),
						).Draw(rt, "scalar")
					}
				}
				failsOrAgrees(rt, r, cl, in, c.src, 1, 2, 3)
			})
		})
	}
}

// A map of what a slice keeps runs over the slice's run only, not speculated for every element
// of the slice's input: a slice's run costs nothing to find, so speculating through it saved
// no compaction and computed the map for every element the slice drops (a `drop n` of
// everything fused with maps of it ran 1.4 times the time of the loop over the run).
func TestMapsOfSlicesRunOverTheRun(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := `f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let k = filter (\x -> x > 0) xs
      d = drop n k
      m = map (\x -> abs x * 3 + 1) d
      s = fold (+) 0 m
  in  (m, s)
`
	r, cl, code := optimalC(t, src)
	if strings.Contains(code, "for every element d tests") {
		t.Errorf("m speculated through the drop:\n%s", code)
	}
	agreesWithCount(t, r, cl, src, -1, 0, 3, 1023, 1500, math.MaxInt64)
}

// agreesWithCount checks src's compiled clustering cl against the reference on 1 and 2 threads,
// for xs of small Ints (of 0 to 3000 elements, chunks of 256) and n one of counts.
func agreesWithCount(t *testing.T, r *infer.Result, cl *cluster.Clustering, src string, counts ...int64) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.SampledFrom([]int{0, 5, 1100, 3000}).Draw(rt, "n")
		xs := make(fuse.Array, n)
		for i := range xs {
			xs[i] = rapid.Int64Range(-5, 9).Draw(rt, "x")
		}
		count := rapid.SampledFrom(counts).Draw(rt, "count")
		agreesOnThreads(rt, r, cl, map[string]fuse.Value{"xs": xs, "n": count}, src, 256, 1, 2)
	})
}

// A loop whose every result comes after a take or slice of a filter's output stops at that
// slice's end (blocked.go, stopAt), not testing the rest of its input; a loop with a result
// before the slice (a fold of the filter) or with work that can fail (the reference would fail
// on an element past the end) runs to the end. The results are the reference's.
func TestLoopsStopAfterTheirTakes(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src  string
		stop bool
	}{
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let k = filter (\x -> x > 2) xs
      t = take n k
      m = map (\x -> x * 3) t
      s = fold (+) 0 t
  in  (m, s)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let k = filter (\x -> x > 2) xs
      t = slice 3 n k
      m = map (\x -> x * 3) t
      d = drop 1 m
      s = length d
  in  (d, s)
`, true},
		{`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let k = filter (\x -> x > 2) xs
      t = take n k
      s = fold (+) 0 k
  in  (t, s)
`, false},
		{"f :: Array Int -> Int -> Array Int\nf xs n =\n  let k = filter (\\x -> 100 `div` (x + 10) > 2) xs\n      t = take n k\n  in  t\n", false},
	} {
		r, cl, code := optimalC(t, c.src)
		if got := strings.Contains(code, "(stopAt)"); got != c.stop {
			t.Errorf("stops early: %v, want %v:\n%s\n%s", got, c.stop, c.src, code)
		}
		agreesWithCount(t, r, cl, c.src, -1, 0, 1, 2, 700, 1023, 1500, math.MaxInt64)
	}
}
