package fuse

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cnf-tools/cnf/infer"
)

// Profile counts what each computed filter read and kept, and returns the reference's
// results; a filter no result needs is not computed, and not counted.
func TestProfileCountsFilters(t *testing.T) {
	src := []byte(`p :: Array Int -> (Array Int, Int)
p xs =
  let pos = filter (> 0) xs
      evs = filter even pos
      dead = filter odd xs
      s = fold (+) 0 evs
  in  (pos, s)
`)
	r := infer.Analyze("p.cnf", src).Funcs[0]
	if r == nil || !r.OK() {
		t.Fatal("rejected")
	}
	inputs := map[string]Value{"xs": Array{int64(3), int64(-1), int64(4), int64(0), int64(6), int64(-2)}}
	out, counts, err := Profile(context.Background(), r, inputs, DefaultExternals())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FilterCount{"pos": {Read: 6, Kept: 3}, "evs": {Read: 3, Kept: 2}}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	ref, err := RunReference(context.Background(), r, inputs, DefaultExternals())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ref, out); diff != "" {
		t.Errorf("results differ from the reference's (-ref +profile):\n%s", diff)
	}
	if got := (FilterCount{Read: 0, Kept: 0}).Rate(); got != 1 {
		t.Errorf("an empty input's rate = %v, want 1", got)
	}
	if got := want["evs"].Rate(); got != 2.0/3 {
		t.Errorf("evs's rate = %v, want 2/3", got)
	}
}
