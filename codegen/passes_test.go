package codegen

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// A scan's chain of dependences keeps its loop scalar, so a block's scans run in a loop of
// their own and what reads a scan's elements (its filter, folds and maps) in the loop after,
// which gcc vectorises (blocked.go, pass). Each program's C puts the scan and each reader in
// different loops of the block, and its results are the reference's on 1 and 2 threads.
func TestScansRunApartFromTheirReaders(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		src     string
		scan    string   // the scan's binding
		readers []string // bindings that read its elements, in the loop after it
		with    []string // bindings in the scan's own loop (a chain of scans)
	}{
		{`f :: Array Int -> (Array Int, Int, Int)
f xs =
  let d = map (\x -> x - 3) xs
      bal = postscanl (+) 0 d
      low = filter (< 0) bal
      c = length low
      m = fold min 0 low
  in  (low, c, m)
`, "bal", []string{"low", "c", "m"}, nil},
		{`f :: Array Int -> (Array Int, Int)
f xs =
  let s = prescanl (+) 0 xs
      t = postscanl max 0 s
      u = map (\x -> x * 2) t
      v = fold (+) 0 u
  in  (u, v)
`, "s", []string{"u", "v"}, []string{"t"}},
		{`f :: Array Int -> (Array Int, Int)
f xs =
  let s = postscanl (+) 0 xs
      u = map (\x -> abs x + 1) s
      w = postscanl (+) 0 u
      k = filter even w
      n = length k
  in  (k, n)
`, "s", []string{"u"}, nil},
	} {
		r, cl, code := optimalC(t, c.src)
		loops := blockLoops(code)
		at := func(name string) int {
			for k, l := range loops {
				if strings.Contains(l, "/* "+name+" = ") {
					return k
				}
			}
			t.Fatalf("no block loop computes %s:\n%s", name, code)
			return -1
		}
		for _, name := range c.readers {
			if at(name) == at(c.scan) {
				t.Errorf("%s is in the loop of the scan %s, which keeps it scalar:\n%s", name, c.scan, c.src)
			}
		}
		for _, name := range c.with {
			if at(name) != at(c.scan) {
				t.Errorf("%s, a scan of the scan %s, is in a loop of its own:\n%s", name, c.scan, c.src)
			}
		}
		rapid.Check(t, func(rt *rapid.T) {
			n := rapid.SampledFrom([]int{0, 1, 9, 1100, 3000}).Draw(rt, "n")
			xs := make(fuse.Array, n)
			for i := range xs {
				xs[i] = int64(rapid.IntRange(-6, 6).Draw(rt, "x"))
			}
			agreesOnThreads(rt, r, cl, map[string]fuse.Value{"xs": xs}, c.src, 256, 1, 2)
		})
	}
}

// blockLoop is the start of a loop over a block's elements in the emitted C.
var blockLoop = regexp.MustCompile(`CNF_IVDEP\n\s*for \(int64_t \w+ = 0;`)

// blockLoops splits the one-thread path of src at its loops over a block's elements: each
// piece is one loop's body and what follows it up to the next.
func blockLoops(src string) []string {
	if i := strings.Index(src, "one thread: the whole input one chunk"); i >= 0 {
		src = src[i:]
	}
	idx := blockLoop.FindAllStringIndex(src, -1)
	var out []string
	for k, m := range idx {
		end := len(src)
		if k+1 < len(idx) {
			end = idx[k+1][0]
		}
		out = append(out, src[m[0]:end])
	}
	return out
}
