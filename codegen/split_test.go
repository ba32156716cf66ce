package codegen

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// A loop whose processes do not fuse (a static deadlock among map_ns that read an unzip's two
// outputs after a cross) runs blocked, whole: the cross lays out its pairs a block at a time
// (blocked.go, crossFill), so the loop needs no fused process. It ran as seven state machines,
// one a binding, and then as two loops, the cross alone and the rest blocked (split.go, which
// still splits a loop whose cross or append is not blocked). A generated program (cnf gen
// --bindings 20 --seed 32). Its results are the reference's on one thread and teams.
func TestUnfusedLoopWithACrossIsBlocked(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `prog :: Array Int -> Array Int -> Array Int -> Int -> (Array Int, Array Int, Array Int, Array Int, Array Int, Array Int, Array Int)
prog xs1 xs2 xs3 n1 =
  let b1 = map (+ n1) xs1
      b2 = map (\x1 -> abs x1) xs3
      b3 = map3 (\x1 x2 x3 -> x2 + x1) b1 b1 xs1
      b4 = cross xs1 b2
      b5 = filter (< n1) b2
      b6 = fold min n1 xs3
      (b7, b7_snd) = unzip b4
      b8 = map3 (\x1 x2 x3 -> if (x2 * x3) /= (max x2 x2) then if (abs b6) > (abs x1) then 1 else 1 else x2 - x3) xs3 xs3 xs3
      b9 = map3 (\x1 x2 x3 -> 7) b7_snd b7 b7_snd
      b10 = filter (< n1) b5
      b11 = map2 (\x1 x2 -> if n1 > (x2 + x1) then x1 else x2 * b6) xs3 b8
      b12 = map3 (\x1 x2 x3 -> x3) b9 b7 b7_snd
      b13 = postscanl (\acc x -> acc + x) 3 xs1
      b14 = length b11
      b15 = map2 (\x1 x2 -> x2) b12 b12
      b16 = fold max n1 b5
      b17 = map2 (\x1 x2 -> abs (max x2 n1)) b15 b7
      b18 = map3 (\x1 x2 x3 -> abs x3) b17 b7 b15
      b19 = generate n1 (\i -> b14 - (i - i))
      b20 = map3 (\x1 x2 x3 -> max (if ((x2 * x2) >= (x3 * x1)) && (x1 == b16) then x2 else x1) b14) b11 b8 b11
  in  (xs2, b3, b10, b13, b18, b19, b20)
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Source, "not fused: its processes") || strings.Contains(f.Source, "part 2 of") || !strings.Contains(f.Source, "b4 = cross xs1 b2: the block's pairs") {
		t.Fatalf("the loop whose processes do not fuse is not blocked whole:\n%s", f.Source)
	}
	for _, n := range []int{0, 1, 7, 60} {
		in := map[string]fuse.Value{"xs1": spread(n, 7919, 41), "xs2": spread(3, 13, 41), "xs3": spread(n+3, 104729, 41), "n1": int64(5)}
		agreesOnThreads(t, r, rep.Ours.Clustering, in, src, 1, 1, 3)
	}
}

// A loop that two crosses would drive has no blocked form; where its bindings pass nothing to
// each other (classic 204: `cross b2 b2` and `cross b1 b3`, here also reading one array in
// common), each part runs as a blocked loop of its own instead of the fused process's state
// machine, one part after the other. Where a binding reads both crosses' pairs, the loop
// stays one. Results are the reference's on one thread and teams.
func TestIndependentPartsApart(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const apart = `prog :: Array Int -> (Array (Int, Int), Array (Int, Int), Array (Int, Int))
prog xs1 =
  let b1 = map (\x -> x + 1) xs1
      b2 = map (\x -> x * 3) xs1
      b3 = map (\x -> x - 2) xs1
      b4 = cross b2 b2
      b5 = cross b1 b3
      b6 = cross b2 b3
  in  (b4, b5, b6)
`
	r, rep := analyse(t, apart)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Source, "an element at a time") || !strings.Contains(f.Source, "part 3 of 3 of the clustering's loop 2: its parts pass no array to each other") {
		t.Fatalf("the three crosses are not blocked loops of their own:\n%s", f.Source)
	}
	for _, n := range []int{0, 1, 7, 40} {
		agreesOnThreads(t, r, rep.Ours.Clustering, map[string]fuse.Value{"xs1": spread(n, 7919, 41)}, apart, 1, 1, 3)
	}
	const joined = `prog :: Array Int -> Array Int
prog xs1 =
  let b1 = map (\x -> x + 1) xs1
      b2 = map (\x -> x * 3) xs1
      b4 = cross b2 b2
      b5 = cross b1 b2
      b6 = map2 (\(p, q) (r, s) -> p + s) b4 b5
  in  b6
`
	r, rep = analyse(t, joined)
	f, err = Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Source, "pass no array") || !strings.Contains(f.Source, "an element at a time (not blocked: two generates, appends or crosses)") {
		t.Fatalf("crosses in one loop whose pairs one binding reads were split:\n%s", f.Source)
	}
	for _, n := range []int{0, 1, 7, 40} {
		agreesOnThreads(t, r, rep.Ours.Clustering, map[string]fuse.Value{"xs1": spread(n, 7919, 41)}, joined, 1, 1, 3)
	}
}
