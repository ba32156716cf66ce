package cluster

import (
	"slices"
)

// Reading a clustering from the relaxation's solution when the root loop did not settle the
// model: the search's start, and the answer when there is no time to search. The relaxation
// says which pairs share a loop (x near 0), but when the loop stopped early it is far from
// integral and the readings differ a great deal, so two are made and the cheaper kept.

// guided is a clustering read from the relaxation's solution values: the cheaper of
// byRelaxation and byGain, each mended by moving single nodes and merging clusters (polish:
// which of the two is cheaper often changes). Nil when the model has pairs forced together
// (the heuristics do not keep to them).
func (m *Model) guided(w *meter, values []float64) *Clustering {
	if m.Graph == nil || len(m.variant.Together) > 0 {
		return nil
	}
	var best *Clustering
	bestCost := 0.0
	for _, cl := range []*Clustering{m.byRelaxation(w, values), m.byGain(w, values)} {
		cl = polish(w, cl, m.variant.SameSizeOnly, nil)
		if c := objective(m, m.StartValues(cl)); best == nil || c < bestCost {
			best, bestCost = cl, c
		}
	}
	return best
}

// byRelaxation merges pairs in order of their x (nearest 0 first) while the merge keeps the
// clustering valid, then the greedy merges finish it. Near the optimum the relaxation is
// almost integral, so this is usually the optimum itself.
func (m *Model) byRelaxation(w *meter, values []float64) *Clustering {
	type pair struct {
		i, j int
		x    float64
	}
	var pairs []pair
	m.x.each(func(i, j, col int) {
		if values[col] < 0.5 {
			pairs = append(pairs, pair{i, j, values[col]})
		}
	})
	slices.SortFunc(pairs, func(a, b pair) int {
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		case a.i != b.i:
			return a.i - b.i
		}
		return a.j - b.j
	})
	mg := newMerger(m.Graph, m.variant.SameSizeOnly)
	for k, p := range pairs {
		if k%256 == 0 && w.spend(256*priceScan) {
			break
		}
		if a, b := mg.label[p.i], mg.label[p.j]; a != b && mg.canMerge(a, b) {
			mg.merge(a, b)
		}
	}
	mg.greedy(w, nil)
	return mg.clustering()
}

// byGain is the greedy clustering restricted to the merges the relaxation agrees with (every
// pair across the two clusters has x below 1/2), then finished by the greedy merges. Far from
// the optimum, where many pairs are near 1/2, merging in the order of x joins pairs that the
// relaxation only half wants and that block the merges that pay: on fans 100 seed 1 after five
// rounds of the loop, merging by x read 1,074,822 (the greedy clustering costs 614,210) and
// this 454,437 (the optimum is 384,609); where the relaxation is nearly integral both read
// the same clustering.
func (m *Model) byGain(w *meter, values []float64) *Clustering {
	n := len(m.Graph.Nodes)
	together := make([]bool, n*n)
	m.x.each(func(i, j, col int) {
		if values[col] < 0.5 {
			together[i*n+j], together[j*n+i] = true, true
		}
	})
	mg := newMerger(m.Graph, m.variant.SameSizeOnly)
	mg.greedy(w, func(a, b []int) bool {
		for _, i := range a {
			for _, j := range b {
				if !together[i*n+j] {
					return false
				}
			}
		}
		return true
	})
	mg.greedy(w, nil)
	return mg.clustering()
}
