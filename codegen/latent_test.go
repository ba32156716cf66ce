package codegen

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
)

// What reads a map that waits on a division by an element runs in the block's next loop, where
// it does not wait on it, when it cannot fail itself; one that can fail stays in the map's loop
// (a failure must be the first in order). Both compute what the reference does.
func TestLatentMapsReadInTheNextPass(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, c := range []struct {
		name, reader string
		apart        bool
	}{
		{"a remainder by a literal", "x `mod` 13", true},
		{"a division by the element", "100 `div` (x + 1)", false},
	} {
		src := "p :: Array Int -> (Array Int, Int)\np xs =\n  let q = map (\\x -> (x * x + 5) `div` (x `mod` 7 + 1)) xs\n      r = map (\\x -> " + c.reader + ") q\n      s = fold (+) 0 r\n  in (q, s)\n"
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		if len(cl.Clusters) != 1 {
			t.Fatalf("%s: %d loops, want 1", c.name, len(cl.Clusters))
		}
		f, err := Emit(r, cl, Options{}, NoMain)
		if err != nil {
			t.Fatal(err)
		}
		_, after, _ := strings.Cut(f.Source, "/* q = map")
		between, _, _ := strings.Cut(after, "/* r = map")
		if got := strings.Contains(between, "for (int64_t L1_k"); got != c.apart {
			t.Errorf("%s: r in a loop of its own %v, want %v:\n%s", c.name, got, c.apart, f.Source)
		}
		for _, n := range []int{0, 1, 5, 1100, 3000} {
			xs := make([]fuse.Value, n)
			for i := range xs {
				xs[i] = int64((i*7919)%2001 - 1000)
			}
			agreesWithReference(t, fmt.Sprintf("%s, %d elements", c.name, n), r, cl, map[string]fuse.Value{"xs": fuse.Array(xs)})
		}
	}
}

// agreesWithReference fails t unless the compiled clustering cl gives the reference's results on
// in, or fails with the reference's error message.
func agreesWithReference(t *testing.T, what string, r *infer.Result, cl *cluster.Clustering, in map[string]fuse.Value) {
	t.Helper()
	ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
	got, err := Run(context.Background(), r, cl, in, Options{})
	if (refErr == nil) != (err == nil) || refErr == nil && !same(ref, got) || refErr != nil && refErr.Error() != err.Error() {
		t.Fatalf("%s: got %v%s, want %v%s", what, err, show(got), refErr, show(ref))
	}
}
