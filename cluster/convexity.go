package cluster

import "math"

// Convexity inequalities: cutting planes for the root loop (rootcuts.go) beside the path
// inequalities (paths.go). A loop is convex: when i and k share it and a path of edges leads
// from i through j to k, j shares it too (otherwise the loop would run both before and after
// j's). So for every such j,
//
//	x_ij <= x_ik and x_jk <= x_ik,
//
// and x_ik >= 1 when j can never share a loop with i (or with k). The figure's rows imply these
// for integers through π, but its relaxation can keep x_ik near 0 while x_ij is near 1 at the
// cost of a π difference of 1/M. Every clustering satisfies them; only violated ones are added.

// separateConvexity returns at most limit of the convexity inequalities that values violate,
// the most violated first.
func (m *Model) separateConvexity(values []float64, limit int) []Row {
	const eps = 1e-4
	g := m.Graph
	if g == nil {
		return nil
	}
	n := len(g.Nodes)
	reach := make([]bitset, n) // reach[i]: the nodes a path of edges leads to from i
	order := g.topo()
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		reach[i] = newBitset(n)
		for _, e := range g.Out(i) {
			reach[i].set(e.To.ID)
			reach[i].or(reach[e.To.ID])
		}
	}
	// x is the value of the pair's x, 1 for a pair that can never share a loop, and the
	// column (-1 for none).
	x := func(a, b int) (float64, int) {
		col, ok := m.X(a, b)
		if !ok || m.Vars[col].Lo >= 1 {
			return 1, -1
		}
		return values[col], col
	}
	var cuts []pathCut
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			if k == i || !reach[i].has(k) {
				continue
			}
			vik, ik := x(i, k)
			if ik < 0 {
				continue // i and k never share a loop: nothing to imply
			}
			// The most violated of the inequalities through some j, for this pair.
			worst, worstCol := vik+eps, -2
			for j := 0; j < n; j++ {
				if j == i || j == k || !reach[i].has(j) || !reach[j].has(k) {
					continue
				}
				for _, p := range [2][2]int{{i, j}, {j, k}} {
					if v, col := x(p[0], p[1]); v > worst {
						worst, worstCol = v, col
					}
				}
			}
			if worstCol == -2 {
				continue
			}
			row := Row{Name: "convex", Terms: []Term{{ik, 1}}, Lo: 1, Hi: math.Inf(1)}
			if worstCol >= 0 {
				row.Terms = append(row.Terms, Term{worstCol, -1})
				row.Lo = 0
			}
			cuts = append(cuts, pathCut{row: row, violation: worst - vik})
		}
	}
	return mostViolated(cuts, limit)
}
