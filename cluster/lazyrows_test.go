package cluster

import (
	"context"
	"testing"

	"pgregory.net/rapid"
)

// The root loop leaves the concestor rows out of its relaxation (lazyrows.go) and ends with
// nothing left to cut only when its relaxation keeps to every one of them: on random programs
// of every shape, a loop that converged
// ends with a relaxation, or the clustering it settled on, that satisfies every row of the
// model but Fig 1.14's π rows (which the directed cycle inequalities stand for).
func TestLoopKeepsConcestorRows(t *testing.T) {
	if !Linked() {
		t.Skip("needs HiGHS")
	}
	converged := 0
	rapid.Check(t, func(t *rapid.T) {
		// Five programs a check: about one loop in 40 converges, and one in several of those
		// would have ended with a concestor row violated had the loop not added it.
		for range 5 {
			_, g, sameSize := genGraph(t, 24)
			m := Formulate(g, FormulateOptions{SameSizeOnly: sameSize})
			others, _, conc := m.splitOrder()
			res, err := m.strengthen(unlimited(context.Background()), unlimited(context.Background()), defaultLoop(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.converged {
				continue // stalled, or ended on a clustering read from a relaxation
			}
			converged++
			values := res.last
			if res.values != nil {
				values = res.values
			}
			for _, r := range append(others, conc...) {
				if a := activity(r, values); a < r.Lo-1e-6 || a > r.Hi+1e-6 {
					t.Fatalf("the loop converged on values outside the row %s: %v not in [%v, %v]", r.Name, a, r.Lo, r.Hi)
				}
			}
		}
	})
	if converged == 0 {
		t.Error("no loop converged: nothing was checked")
	}
	t.Logf("%d loops converged", converged)
}
