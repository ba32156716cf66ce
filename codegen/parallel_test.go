package codegen

import (
	"context"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// floatFolds are definitions whose loops hold Float folds: sequential unless the user asks for
// reassociation.
var floatFolds = []string{
	`f :: Array Float -> Float
f xs =
  let s = fold (+) 0.0 xs
  in  s
`,
	`f :: Array Float -> (Float, Float, Float, Array Float)
f xs =
  let ys = map (* 2.0) xs
      hi = fold max 0.5 ys
      lo = fold min 0.5 ys
      ps = filter (> 1.0) ys
      s  = fold (+) 1.5 ps
  in  (hi, lo, s, ps)
`,
	`f :: Array Float -> (Float, Int)
f xs =
  let p  = fold (*) 1.0 xs
      ks = map (\x -> if x > 0.0 then 1 else 0) xs
      n  = fold (+) 0 ks
  in  (p, n)
`,
}

// A loop with a Float fold stays on one thread unless ReassociateFloats is set; with it, the
// loop runs on a team and its results, on inputs whose sums and products are exact (small
// multiples of a half, few of them), are the reference's at 1, 2 and 3 threads.
func TestReassociateFloats(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, src := range floatFolds {
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		plain, err := Emit(r, cl, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(plain.Source, "On a team of threads") {
			t.Errorf("a Float fold's loop is split without ReassociateFloats:\n%s", src)
		}
		if !strings.Contains(plain.Source, "not reassociated without --reassociate-floats") {
			t.Errorf("the C does not say why the loop stays on one thread:\n%s", src)
		}
		re, err := Emit(r, cl, Options{ReassociateFloats: true}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(re.Source, "On a team of threads") {
			t.Errorf("with ReassociateFloats, the loop is not split:\n%s", src)
		}
		rapid.Check(t, func(rt *rapid.T) {
			in := map[string]fuse.Value{}
			n := rapid.IntRange(0, 30).Draw(rt, "n") // 1.5^30 is exact
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = float64(rapid.IntRange(-4, 4).Draw(rt, "x")) / 2
			}
			in["xs"] = xs
			ref, err := fuse.RunReference(context.Background(), r, in, nil)
			if err != nil {
				rt.Fatal(err)
			}
			for _, threads := range []int{1, 2, 3} {
				got, err := Run(context.Background(), r, cl, in, Options{Threads: threads, MinChunk: 1, ReassociateFloats: true})
				if err != nil {
					rt.Fatal(err)
				}
				if !same(ref, got) {
					rt.Fatalf("on %d threads:\n got%s\nwant%s\n%s\ninputs%s", threads, show(got), show(ref), src, show(in))
				}
			}
		})
	}
}

// scanPrograms have scans that a team splits in chunks, fixed up after (stored, not read in
// their loop: Int sums, maxima, Bool ors; under a filter; exclusive and inclusive), scans that
// their own loop reads, which run in tiles, each starting from the total of the tiles before
// (counts.go: a filter of the running totals; a scan of a filter's output beside a scan of the
// input), and one whose total would repeat a `mod` a tile at a time, which stays whole.
var scanPrograms = []struct {
	src   string
	split string // "chunks", "tiles" or ""
}{
	{`f :: Array Int -> (Array Int, Array Int, Int)
f xs =
  let ys = map (\x -> x * 3 - 1) xs
      run = postscanl (+) 7 ys
      pre = prescanl max (-5) xs
      s   = fold (+) 0 ys
  in  (run, pre, s)
`, "chunks"},
	{`f :: Array Int -> (Array Int, Array Bool, Array Int)
f xs =
  let ps  = filter (> 0) xs
      run = postscanl (*) 1 ps
      bs  = map (\x -> x > 2) xs
      any = prescanl (||) False bs
  in  (run, any, ps)
`, "chunks"},
	{`f :: Array Int -> Array Int
f xs =
  let run = postscanl (+) 0 xs
      big = filter (> 3) run
  in  big
`, "tiles"},
	{`f :: Array Int -> (Array Int, Array Int, Int)
f xs =
  let a = filter (> 0) xs
      r = postscanl (+) 0 a
      m = map (\x -> x * 2 - 5) r
      k = filter (> 6) m
      q = prescanl max (-3) xs
      s = fold (+) 0 k
  in  (k, q, s)
`, "tiles"},
	{`f :: Array Int -> (Array Int, Array Bool)
f xs =
  let bs  = map (\x -> x > 1) xs
      all = postscanl (&&) True bs
      ys  = zip all xs
      ok  = filter (\t -> fst t) ys
      vs  = map snd ok
  in  (vs, all)
`, "tiles"},
	{`f :: Array Int -> Array Int
f xs =
  let ys = map (\x -> x ` + "`mod`" + ` 7) xs
      run = postscanl (+) 0 ys
      big = filter (> 3) run
  in  big
`, ""},
}

// Scans split across a team give the reference's results at 1, 2 and 3 threads, chunks of
// one element and up.
func TestParallelScans(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, sp := range scanPrograms {
		r, cl, code := optimalC(t, sp.src)
		got := ""
		switch {
		case strings.Contains(code, "chunks' totals before it"):
			got = "chunks"
		case strings.Contains(code, "runs on from the tiles before"):
			got = "tiles"
		}
		if got != sp.split || (got == "") != strings.Contains(code, "On one thread") {
			t.Errorf("scans split: %q, want %q:\n%s", got, sp.split, sp.src)
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.IntRange(0, 60).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = int64(rapid.IntRange(-4, 6).Draw(rt, "x"))
			}
			in := map[string]fuse.Value{"xs": xs}
			ref, err := fuse.RunReference(context.Background(), r, in, nil)
			if err != nil {
				rt.Fatal(err)
			}
			for _, threads := range []int{1, 2, 3} {
				got, err := Run(context.Background(), r, cl, in, Options{Threads: threads, MinChunk: 1})
				if err != nil {
					rt.Fatal(err)
				}
				if !same(ref, got) {
					rt.Fatalf("on %d threads:\n got%s\nwant%s\n%s\ninputs%s", threads, show(got), show(ref), sp.src, show(in))
				}
			}
		})
	}
}

// cnf build --threads compiles the starting number of threads into the C, which a -D may
// still change.
func TestDefaultThreads(t *testing.T) {
	r, rep := analyse(t, floatFolds[0])
	f, err := Emit(r, rep.Ours.Clustering, Options{DefaultThreads: 8}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "#ifndef CNF_THREADS_DEFAULT\n#define CNF_THREADS_DEFAULT 8") {
		t.Errorf("no default of 8 threads in:\n%.600s", f.Source)
	}
	one, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(one.Source, "#define CNF_THREADS_DEFAULT 8") || !strings.Contains(one.Source, "#define CNF_THREADS_DEFAULT 1") {
		t.Error("without DefaultThreads the C must start at one thread")
	}
}
