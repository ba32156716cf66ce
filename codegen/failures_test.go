package codegen

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"pgregory.net/rapid"
)

// failingPrograms have loops whose workers can fail: checked gathers (from an array the loop
// also walks, too), divisions by elements, a gather of a generate's indices; in loops with a
// filtered output (run in tiles), with folds only, and with a scan (run in chunks); a
// division after a drop of a filtered rate (in tiles that count the rate first).
var failingPrograms = []string{
	`f :: Array Int -> Int -> (Array Int, Int, Array Int)
f xs n =
  let is = map (\x -> x * 3 + n) xs
      g = gather xs is
      k = filter (> 2) g
      s = fold (+) 0 k
      h = map (\x -> 1000 ` + "`div`" + ` x) xs
  in  (k, s, h)
`,
	`f :: Array Int -> Int -> (Int, Int)
f xs n =
  let h = map (\x -> (n + 100) ` + "`mod`" + ` x) xs
      s = fold (+) 0 h
      m = fold max 0 h
  in  (s, m)
`,
	`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let h = map (\x -> 60 ` + "`div`" + ` (x - n)) xs
      r = postscanl (+) 0 h
      s = fold (\a x -> a + 7 ` + "`div`" + ` x) 0 xs
  in  (r, s)
`,
	`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let l = length xs
      g = generate l (\i -> i * 2 - n)
      v = gather xs g
      k = filter (> 0) v
      c = length k
  in  (k, c)
`,
	`f :: Array Int -> Int -> (Array Int, Int)
f xs n =
  let a = filter (> 1) xs
      k = filter (> 3) a
      d = drop n k
      h = map (\x -> 60 ` + "`div`" + ` (x - 5)) d
      s = fold (+) 0 h
  in  (h, s)
`,
}

// A loop whose workers can fail runs on a team: a chunk or tile that fails marks the loop, which
// then runs again on one thread, so the error is the first in order, the one a single thread
// reports. On inputs that fail nowhere, once, or at several places (zeros, indices out of
// range), the compiled code on 2 and 3 threads (chunks of one element and up) fails exactly
// when the reference fails, with one thread's message, and otherwise gives its results.
func TestFailuresOnATeam(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, src := range failingPrograms {
		r, cl, code := optimalC(t, src)
		if strings.Contains(code, "On one thread") || !strings.Contains(code, "setjmp(") {
			t.Errorf("a loop that can fail is not split with a jump back:\n%s", src)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 5, 300, 3000}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = int64(rapid.IntRange(1, 9).Draw(rt, "x"))
			}
			for range rapid.IntRange(0, 3).Draw(rt, "failures") {
				if n > 0 {
					xs[rapid.IntRange(0, n-1).Draw(rt, "at")] = int64(0)
				}
			}
			in := map[string]fuse.Value{"xs": xs, "n": int64(rapid.IntRange(-3, 3).Draw(rt, "scalar"))}
			threads := []int{1, 2, 3}
			errs := failsOrAgrees(rt, r, cl, in, src, threads...)
			for i, err := range errs {
				if err != nil && err.Error() != errs[0].Error() {
					rt.Fatalf("on %d threads the error is %q, on one %q\n%s\ninputs%s", threads[i], err, errs[0], src, show(in))
				}
			}
		})
	}
}

// failsOrAgrees fails rt unless the compiled clustering cl gives the reference's results on in
// at each number of threads (chunks of one element and up), or fails where the reference does;
// it returns each number of threads' error (nil where it ran).
func failsOrAgrees(rt fatal, r *infer.Result, cl *cluster.Clustering, in map[string]fuse.Value, src string, threads ...int) []error {
	ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
	errs := make([]error, len(threads))
	for i, th := range threads {
		got, err := Run(context.Background(), r, cl, in, Options{Threads: th, MinChunk: 1})
		var re *RunError
		if err != nil && !errors.As(err, &re) {
			rt.Fatalf("cannot compile: %v\n%s", err, src)
		}
		switch {
		case (refErr == nil) != (err == nil):
			rt.Fatalf("on %d threads: error %v, the reference %v\n%s\ninputs%s", th, err, refErr, src, show(in))
		case err == nil && !same(ref, got):
			rt.Fatalf("on %d threads:\n got%s\nwant%s\n%s\ninputs%s", th, show(got), show(ref), src, show(in))
		}
		errs[i] = err
	}
	return errs
}

// The same through a library, whose failure returns on the caller's thread: an entry on teams
// of two (the driver's), called from one thread and from three at once, on inputs long enough
// to split (two chunks of cnf_min_chunk), failing in the second chunk or in both, gives one
// thread's error.
func TestLibraryFailuresOnATeam(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	r, rep := analyse(t, failingPrograms[0])
	dir := t.TempDir()
	exe, e := libraryDriver(t, dir, r, rep.Ours.Clustering)
	for _, zeros := range [][]int{nil, {39000}, {20000, 39000}} {
		xs := make(fuse.Array, 40000)
		for i := range xs {
			xs[i] = int64(i%9 + 1)
		}
		for _, z := range zeros {
			xs[z] = int64(0)
		}
		in := map[string]fuse.Value{"xs": xs, "n": int64(0)}
		ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
		_, singleErr := Run(context.Background(), r, rep.Ours.Clustering, in, Options{Threads: 1})
		for _, callers := range []int{1, 3} {
			got, err := runDriver(t, exe, e, r, in, callers)
			switch {
			case (refErr == nil) != (err == nil):
				t.Fatalf("zeros at %v, %d callers: error %v, the reference %v", zeros, callers, err, refErr)
			case err == nil && !same(ref, got):
				t.Fatalf("zeros at %v, %d callers: results differ from the reference", zeros, callers)
			case err != nil && (singleErr == nil || err.Error() != singleErr.Error()):
				t.Fatalf("zeros at %v, %d callers: the library says %q, one thread %v", zeros, callers, err, singleErr)
			}
		}
	}
}

// On one thread a loop with a filtered output runs in tiles (of two elements with MinChunk 1),
// each under the team's jump back: the first tile that fails ends the loop, and its error is
// the one reported. Before, the tiles after it ran on and each failure's message replaced the
// one before: a gather of an empty array by [-1, 0, 0, 0, 0] said index 0, not -1.
func TestFirstFailureInTiles(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `f :: Array Int -> Array Int -> (Array Int, Array Int)
f xs ys =
  let g = gather ys xs
      k = filter even g
  in  (g, k)
`
	r, cl, code := optimalC(t, src)
	if !strings.Contains(code, "In tiles") {
		t.Fatalf("the loop does not run in tiles:\n%s", code)
	}
	in := map[string]fuse.Value{"xs": fuse.Array{int64(-1), int64(0), int64(0), int64(0), int64(0)}, "ys": fuse.Array{}}
	for _, th := range []int{1, 2} {
		_, err := Run(context.Background(), r, cl, in, Options{Threads: th, MinChunk: 1})
		if want := "g: index -1 out of range for an array of 0 elements"; err == nil || err.Error() != want {
			t.Errorf("on %d threads in tiles of two: %v, want %q", th, err, want)
		}
	}
}
