package codegen

import (
	"context"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// A loop that only folds its input reads the two halves of each block side by side, and gives
// the reference's results at every length (odd, even, shorter than a peel), on one thread and
// on a team whose chunks each have two halves; a loop with a Float fold, one that can fail and
// one that writes an array are left as they are.
func TestInterleavedFoldsAsTheReference(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const marker = "two halves read side by side"
	src := "p :: Array Int -> Int -> (Int, Int, Int, Int)\np xs k =\n  let ys = map (\\x -> x * 3 - k) xs\n      ws = filter (> -20) ys\n      s = fold (+) 0 ws\n      m = fold max 7 ys\n      n = length ws\n      q = fold (\\acc x -> acc + x * x) k xs\n  in (s, m, n, q)\n"
	r, rep := analyse(t, src)
	cl := rep.Ours.Clustering
	f, err := Emit(r, cl, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, marker) {
		t.Fatalf("the folds' loop is not interleaved:\n%s", f.Source)
	}
	for _, threads := range []int{1, 3} {
		for _, n := range append(seq(40), 1100, 4097) {
			xs := make([]fuse.Value, n)
			for i := range xs {
				xs[i] = int64((i*7919)%61 - 30)
			}
			in := map[string]fuse.Value{"xs": fuse.Array(xs), "k": int64(n % 5)}
			ref, err := fuse.RunReference(context.Background(), r, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(context.Background(), r, cl, in, Options{Threads: threads, MinChunk: 1, MinPeel: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !same(ref, got) {
				t.Fatalf("%d elements, %d threads: got%s\nwant%s", n, threads, show(got), show(ref))
			}
		}
	}
	for name, src := range map[string]string{
		"a Float fold":  "p :: Array Float -> Float\np xs =\n  let ys = map (\\x -> x * 3.0) xs\n      s = fold (+) 0.0 ys\n  in s\n",
		"a division":    "p :: Array Int -> Int\np xs =\n  let ys = map (\\x -> 100 `div` x) xs\n      s = fold (+) 0 ys\n  in s\n",
		"an array made": "p :: Array Int -> (Array Int, Int)\np xs =\n  let ys = map (\\x -> x * 3) xs\n      s = fold (+) 0 ys\n  in (ys, s)\n",
		"a scan":        "p :: Array Int -> Int\np xs =\n  let ys = postscanl (+) 0 xs\n      s = fold max 0 ys\n  in s\n",
	} {
		r, rep := analyse(t, src)
		f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(f.Source, marker) {
			t.Errorf("%s: interleaved:\n%s", name, f.Source)
		}
	}
}

// seq is 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
