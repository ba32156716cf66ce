package cluster

import (
	"context"
	"testing"

	"pgregory.net/rapid"
)

// Given the values of an optimal clustering (an integral relaxation), each reading finds a
// clustering as cheap, and the guided clustering is the cheaper of the two readings.
func TestReadingsOfAnOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, g, sameSize := genGraph(t, 8)
		m := Formulate(g, FormulateOptions{SameSizeOnly: sameSize})
		opt, err := Exhaustive(g, sameSize)
		if err != nil {
			t.Fatalf("exhaustive: %v", err)
		}
		values := m.StartValues(opt)
		cost := func(cl *Clustering) float64 { return objective(m, m.StartValues(cl)) }
		want := cost(opt)
		byX, byGain := m.byRelaxation(unlimited(context.Background()), values), m.byGain(unlimited(context.Background()), values)
		for name, cl := range map[string]*Clustering{"by x": byX, "by gain": byGain} {
			if c := cost(cl); c != want {
				t.Fatalf("read %s from the optimum %s (%v): %s (%v)\n%s", name, opt, want, cl, c, source(r))
			}
		}
		if c := cost(m.guided(unlimited(context.Background()), values)); c != min(cost(byX), cost(byGain)) {
			t.Fatalf("guided costs %v, the readings %v and %v", c, cost(byX), cost(byGain))
		}
	})
}
