package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// A cross drives its loop in the blocked form (blocked.go, crossFill): each block's pairs are
// laid out row by row, so a block may hold the end of one row and the start of the next, many
// short rows, or part of one long row, and a chunk of a team may start in the middle of a row.
// The programs read the pairs through maps, filters, folds, a length, a scan and positions of a
// filtered rate (which a team counts a tile at a time, counts.go); every pair of lengths here
// puts block and chunk edges at each of those places. The second program's loop runs on a
// team, its chunks starting inside rows (its fold of the pairs' products is split: a sum of a
// term of the pair); the first's fold that is not known to be associative
// and the third's positions of a filtered rate (counting them a tile at a time would repeat the
// cross) keep theirs on one thread. The results are the reference's.
func TestCrossBlockedAgrees(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	progs := []string{
		`prog :: Array Int -> Array Int -> (Int, Int, Int, Int, Array (Int, Int))
prog xs ys =
  let ps   = cross xs ys
      ds   = map (\(a, b) -> a - b) ps
      near = filter (\d -> abs d < 20) ds
      n    = length near
      s    = fold (+) 0 near
      pr   = map (\(a, b) -> a * b) ps
      m    = fold max 0 pr
      f    = fold (\acc (a, b) -> acc * 3 + a - b) 1 ps
  in  (n, s, m, f, ps)
`,
		`prog :: Array Int -> Array Int -> (Int, Int, Int, Int, Array (Int, Int))
prog xs ys =
  let ps   = cross xs ys
      ds   = map (\(a, b) -> a - b) ps
      near = filter (\d -> abs d < 20) ds
      n    = length near
      s    = fold (+) 0 near
      pr   = map (\(a, b) -> a * b) ps
      m    = fold max 0 pr
      q    = fold (\acc (a, b) -> acc + a * b - 3) 0 ps
  in  (n, s, m, q, ps)
`,
		`prog :: Array Int -> Array Int -> (Array (Int, Int), Array Int, Int)
prog xs ys =
  let ps   = cross xs ys
      ds   = map (\(a, b) -> a * 3 - b) ps
      pos  = filter (> 0) ds
      ix   = indexed pos
      run  = postscanl (+) 0 ds
      t    = fold (+) 1 run
  in  (ix, run, t)
`,
	}
	lengths := [][2]int{{0, 5}, {5, 0}, {1, 1}, {3, 1000}, {1000, 3}, {2, 1025}, {7, 2049}, {1, 3000}, {3000, 1}, {40, 41}}
	for i, src := range progs {
		r, rep := analyse(t, src)
		f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.Source, "ps = cross xs ys: the block's pairs") {
			t.Fatalf("program %d: the cross is not blocked:\n%s", i, f.Source)
		}
		if team := strings.Contains(f.Source, "On a team of threads"); team != (i == 1) {
			t.Fatalf("program %d: on a team %v, want %v:\n%s", i, team, i == 1, f.Source)
		}
		for _, l := range lengths {
			t.Run(fmt.Sprintf("%d/%dx%d", i, l[0], l[1]), func(t *testing.T) {
				in := map[string]fuse.Value{"xs": spread(l[0], 7919, 61), "ys": spread(l[1], 104729, 53)}
				agreesOnThreads(t, r, rep.Ours.Clustering, in, src, 1, 1, 2, 3)
			})
		}
	}
}
