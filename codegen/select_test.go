package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// An Int choice whose sides cannot fail and cost little is made by a mask (cnf_select_Int),
// which gcc cannot fold into a choice between a vector's mask and a scalar truth (that kept
// the pass scalar); one whose side can fail stays a ?: (the side it does not choose must not
// run). Both compute what the reference does, failures included.
func TestIntChoicesByMask(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		name, worker string
		mask         bool
	}{
		{"a loop-invariant side", "if (if (abs k) > (x + x) then x else k) < (x - 3) then x else 7", true},
		{"a side that divides by the element", "if x > 0 then 100 `div` x else k", false},
	} {
		src := "p :: Array Int -> Int -> (Int, Array Int)\np xs k =\n  let ys = map (\\x -> " + c.worker + ") xs\n" +
			"      zs = filter (\\y -> y < k) ys\n      s = fold (+) 0 zs\n  in (s, ys)\n"
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		f, err := Emit(r, cl, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(f.Source, "cnf_select_Int("); got != c.mask {
			t.Errorf("%s: by a mask %v, want %v:\n%s", c.name, got, c.mask, f.Source)
		}
		for _, n := range []int{0, 1, 7, 1500} {
			for _, k := range []int64{5, -3} {
				xs := make([]fuse.Value, n)
				for i := range xs {
					xs[i] = int64((i*7919)%201 - 100)
				}
				agreesWithReference(t, fmt.Sprintf("%s, %d elements, k = %d", c.name, n, k), r, cl, map[string]fuse.Value{"xs": fuse.Array(xs), "k": k})
			}
		}
	}
}
