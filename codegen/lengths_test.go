package codegen

import (
	"context"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// A loop that reads apart an input and an array an earlier loop mapped from it is blocked: the
// two have one length by construction (lengths.go). It ran an element at a time through a goto
// state machine (15 of 120 generated programs had such a loop; in cache 1.5 times slower). Two
// parameters read apart stay unblocked: a caller may pass them of different lengths, and the
// results must still be the reference's.
func TestRootsOfOneLengthAreBlocked(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const made = `apart :: Array Int -> (Int, Int, Array Int)
apart xs =
  let ys = map (\x -> x * 3 - 7) xs
      m  = fold max 0 ys
      p  = filter (\x -> x > m - 250) xs
      q  = filter (\y -> y < m - 100) ys
      s  = fold (+) 0 p
      t  = fold (+) 0 q
      r  = map (\y -> y * m) q
  in  (s, t, r)
`
	// map2 makes xs and ys one size in the size scheme, but runs after the first loop: on
	// inputs of different lengths the first loop runs and the map2 fails, as in the reference.
	const given = `apart2 :: Array Int -> Array Int -> Int -> (Int, Int, Array Int)
apart2 xs ys k =
  let p = filter (\x -> x > k) xs
      q = filter (\y -> y < k) ys
      s = fold (+) 0 p
      t = fold (+) 0 q
      w = map2 (\a b -> a + b + s - t) xs ys
  in  (s, t, w)
`
	long := spread(5000, 7919, 201)
	r, rep := analyse(t, made)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Source, "not blocked") {
		t.Fatalf("a loop reading xs and ys = map f xs is not blocked:\n%s", f.Source)
	}
	for _, xs := range []fuse.Array{{}, {int64(40)}, {int64(3), int64(-1), int64(70), int64(2)}, long} {
		agreesOnThreads(t, r, rep.Ours.Clustering, map[string]fuse.Value{"xs": xs}, made, 1, 1, 3)
	}

	r, rep = analyse(t, given)
	f, err = Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "xs and ys are read apart") {
		t.Fatalf("two parameters read apart are blocked:\n%s", f.Source)
	}
	for _, ys := range []fuse.Array{{}, {int64(-5)}, long[:1500], long[2000:]} {
		in := map[string]fuse.Value{"xs": long[:3000], "ys": ys, "k": int64(10)}
		_, want := fuse.RunReference(context.Background(), r, in, nil)
		for _, th := range []int{1, 3} {
			got, err := Run(context.Background(), r, rep.Ours.Clustering, in, Options{Threads: th, MinChunk: 1})
			if len(ys) == 3000 {
				if err != nil || want != nil {
					t.Fatalf("%d threads, inputs of one length: %v (reference: %v)", th, err, want)
				}
				continue
			}
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Fatalf("%d threads, %d and %d elements: got %v, %v; the reference fails with %v", th, 3000, len(ys), got, err, want)
			}
		}
	}
	agreesOnThreads(t, r, rep.Ours.Clustering, map[string]fuse.Value{"xs": long[:3000], "ys": long[2000:], "k": int64(10)}, given, 1, 1, 3)
}

// An append of two arrays in memory drives its loop blocked, as a generate does, each block
// reading one of the two contiguously (no block straddles the end of the first): the loop ran
// an element at a time (bench: 37-41 → 31-32 ms at 10^7). Its results are the reference's
// for first arrays empty, shorter than a block, ending inside one and longer, on one thread
// and on teams split into chunks of one element.
func TestAppendIsBlocked(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `ap :: Array Int -> Array Int -> (Int, Int, Array Int, Array Int)
ap xs ys =
  let a = map (\x -> x * 2 + 1) xs
      m = fold max 0 a
      b = append a ys
      c = map (\x -> x * 3 - m) b
      k = filter (> 0) c
      s = fold (+) 0 k
      t = fold max 0 b
  in  (s, t, k, c)
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "b = append a ys */") || strings.Contains(f.Source, "not blocked") {
		t.Fatalf("the append's loop is not blocked:\n%s", f.Source)
	}
	for _, n := range [][2]int{{0, 0}, {0, 5}, {3, 0}, {5, 7}, {1500, 2500}, {2048, 1}, {1, 3000}} {
		in := map[string]fuse.Value{"xs": spread(n[0], 7919, 201), "ys": spread(n[1], 104729, 201)}
		agreesOnThreads(t, r, rep.Ours.Clustering, in, src, 1, 1, 3)
	}
}

// spread is n Ints spread over [-(span/2), span/2] by a multiplier prime to span: inputs whose
// maps, filters and folds take both signs.
func spread(n, mul, span int) fuse.Array {
	out := fuse.Array{}
	for i := range n {
		out = append(out, int64((i*mul)%span-span/2))
	}
	return out
}
