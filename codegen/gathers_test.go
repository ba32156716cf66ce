package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// checkedGathers is a program whose one loop's first pass holds two gathers (of Ints and of
// Floats) beside maps, a fold and a filter: nothing else in the pass can fail.
const checkedGathers = `f :: Array Int -> Array Int -> Array Float -> (Array Int, Int, Array Int, Array Float)
f xs ys fs =
  let a = map (\x -> x + 1) xs
      g = gather ys a
      h = gather fs xs
      s = fold (+) 0 g
      m = map2 (\p q -> p * 2 + q) g a
      k = filter even m
      t = map (\v -> v * 2.0) h
  in  (m, s, k, t)
`

// The same with a division by an element in the pass: its failure must stay in order with the
// gather's, so the gather is checked where it reads.
const checkedGathersBeside = `f :: Array Int -> Array Int -> (Array Int, Int)
f xs ys =
  let a = map (\x -> x + 1) xs
      g = gather ys a
      d = map (\x -> 100 ` + "`div`" + ` x) xs
      m = map2 (\p q -> p + q) g d
      s = fold (+) 0 m
  in  (m, s)
`

// The same with pairs in the pass that it stores (indexed, an output) and reads (snd):
// vectorised, their interleaving cost more than the check in place, so the gather keeps it.
const checkedGathersPairs = `f :: Array Int -> Array Int -> (Array (Int, Int), Array Int, Int)
f xs ys =
  let p = indexed xs
      g = gather ys xs
      q = map snd p
      s = fold max 0 q
  in  (p, g, s)
`

// Pairs made and taken apart in the pass (never in memory) cost nothing of the kind: checked
// after the pass.
const checkedGathersPairsInRegisters = `f :: Array Int -> Array Int -> (Array Int, Int)
f xs ys =
  let p = indexed xs
      (i, v) = unzip p
      g = gather ys v
      s = fold (+) 0 i
  in  (g, s)
`

// A pass whose gathers are the only part that can fail reads their elements without a branch
// and checks the block's indices after it (CNF_GATHER, then CNF_AT in order); beside a division
// or pairs in memory the gather keeps its check at each element. Either way the compiled loops give the
// reference's results, or fail where it does with the first failure in order (each program's
// one pass that can fail reads its gathers and division element by element, in the order of
// the bindings): on indices in range, out of range at one place or several, and gathers from
// empty arrays, on one thread, in tiles of two elements (MinChunk 1) and on teams.
func TestGathersCheckedAfterTheirPass(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	r, cl, code := optimalC(t, checkedGathers)
	for _, want := range []string{"CNF_GATHER(L1_gd_g, ", "CNF_GATHER(L1_gd_h, ", "(void)CNF_AT(v_ys, L1_gi_g[L1_k], \"g\");", "(void)CNF_AT(v_fs, L1_gi_h[L1_k], \"h\");"} {
		if !strings.Contains(code, want) {
			t.Fatalf("the gathers are not checked after their pass (no %q):\n%s", want, code)
		}
	}
	if strings.Contains(code, "__builtin_prefetch(v_fs.data") {
		t.Fatalf("a checked gather prefetches its elements (which slowed its vectorised pass):\n%s", code)
	}
	if strings.Index(code, "(void)CNF_AT(v_ys, ") > strings.Index(code, "(void)CNF_AT(v_fs, ") {
		t.Fatalf("the check does not take the gathers in the pass's order:\n%s", code)
	}
	_, _, beside := optimalC(t, checkedGathersBeside)
	if strings.Contains(beside, "CNF_GATHER(L") || !strings.Contains(beside, "CNF_AT(v_ys, ") {
		t.Fatalf("a gather beside a division is checked after its pass:\n%s", beside)
	}
	if _, _, pairs := optimalC(t, checkedGathersPairs); strings.Contains(pairs, "CNF_GATHER(L") || !strings.Contains(pairs, "CNF_AT(v_ys, ") {
		t.Fatalf("a gather beside pairs is checked after its pass:\n%s", pairs)
	}
	if _, _, pairs := optimalC(t, checkedGathersPairsInRegisters); !strings.Contains(pairs, "CNF_GATHER(L") {
		t.Fatalf("a gather beside pairs that stay in registers is not checked after its pass:\n%s", pairs)
	}
	rb, clb, _ := optimalC(t, checkedGathersBeside)
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.SampledFrom([]int{0, 1, 5, 1100, 3000}).Draw(rt, "n")
		ny := rapid.SampledFrom([]int{0, 1, 40, 5000}).Draw(rt, "ys")
		nf := rapid.SampledFrom([]int{0, 3, 5000}).Draw(rt, "fs")
		xs := make(fuse.Array, n)
		for i := range xs {
			xs[i] = int64(rapid.IntRange(0, max(min(ny, nf)-2, 0)).Draw(rt, "x"))
		}
		for range rapid.IntRange(0, 3).Draw(rt, "bad") {
			if n > 0 {
				xs[rapid.IntRange(0, n-1).Draw(rt, "at")] = int64(rapid.SampledFrom([]int{-1, ny - 1, nf, 1 << 40}).Draw(rt, "index"))
			}
		}
		ys, fs := make(fuse.Array, ny), make(fuse.Array, nf)
		for i := range ys {
			ys[i] = int64(i*7%13 - 6)
		}
		for i := range fs {
			fs[i] = float64(i) / 8
		}
		in := map[string]fuse.Value{"xs": xs, "ys": ys, "fs": fs}
		g := func(x int64) string { return gatherAt("g", x+1, ny) }
		h := func(x int64) string { return gatherAt("h", x, nf) }
		failsWith(rt, in, failsOrAgrees(rt, r, cl, in, checkedGathers, 1, 2, 3), firstFailure(xs, g, h))
		delete(in, "fs")
		d := func(x int64) string {
			if x == 0 {
				return "d: division by zero"
			}
			return ""
		}
		failsWith(rt, in, failsOrAgrees(rt, rb, clb, in, checkedGathersBeside, 1, 2), firstFailure(xs, g, d))
	})
}

// firstFailure is the error of a pass that reads, at each element of xs in turn, each of
// reads in order: the first message that one of them gives ("" for none), which the compiled
// code must give on every number of threads.
func firstFailure(xs fuse.Array, reads ...func(x int64) string) string {
	for _, x := range xs {
		for _, read := range reads {
			if msg := read(x.(int64)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// gatherAt is the failure of a gather of an array of n elements at index i ("" for none).
func gatherAt(name string, i int64, n int) string {
	if i < 0 || i >= int64(n) {
		return fmt.Sprintf("%s: index %d out of range for an array of %d elements", name, i, n)
	}
	return ""
}

// failsWith fails rt unless each of errs (nil where the compiled code ran) is want's.
func failsWith(rt fatal, in map[string]fuse.Value, errs []error, want string) {
	for i, err := range errs {
		if err != nil && err.Error() != want {
			rt.Fatalf("the compiled code's error %d is %q, not the first in order, %q\ninputs%s", i, err, want, show(in))
		}
	}
}
