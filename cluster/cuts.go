package cluster

import "math"

// addTransitivityCuts adds inequalities that every clustering satisfies but the relaxation of
// Fig 1.14 does not. For a node j and two of its partners i and k (nodes whose pair with j
// weighs N² in the objective: an edge joins them, or they read a common array):
//
//   - x_ik <= x_ij + x_jk: if i and k both share j's loop, they share each other's. The figure's
//     rows imply this for integers only when an edge joins i and k; without one, x_ik = 1 with
//     π_i = π_k is allowed (it only costs more), and the relaxation is weaker still.
//   - x_ij + x_jk >= 1 when i and k can never share a loop (x_ik fixed to 1, or no x_ik because
//     a fusion-preventing path joins them): j shares a loop with one of them at most. The
//     figure's rows give only x_ij + x_jk >= 1/M in the relaxation.
//
// Every clustering (a partition into convex loops) satisfies both, so the cuts remove no
// clustering and keep the optimum; the exhaustive-search property test solves with and without
// them. Triples where j is already apart from i or k say nothing and are left out. Partners
// rather than all triples keep the rows near-linear in the pairs that matter for the objective;
// on the benchmark programs they cut the 100-binding solve times by up to 10x
// (docs/performance.md).
//
// partners[j] lists j's partners that have an x column (the others are never with j, so no cut
// would name them), in ascending order.
func (m *Model) addTransitivityCuts(name func(parts ...string) string, partners [][]int) {
	g := m.Graph
	free := func(i, j int) (int, bool) {
		x, ok := m.X(i, j)
		return x, ok && m.Vars[x].Lo == 0
	}
	for j, ps := range partners {
		for a := 0; a < len(ps); a++ {
			for b := a + 1; b < len(ps); b++ {
				i, k := min(ps[a], ps[b]), max(ps[a], ps[b])
				xij, ok1 := free(i, j)
				xjk, ok2 := free(j, k)
				if !ok1 || !ok2 {
					continue // j is already apart from i or from k
				}
				row := name("tri", g.Nodes[i].Name, g.Nodes[j].Name, g.Nodes[k].Name)
				if xik, ok := free(i, k); ok {
					m.Rows = append(m.Rows, Row{Name: row, Terms: []Term{{xik, 1}, {xij, -1}, {xjk, -1}}, Lo: math.Inf(-1), Hi: 0})
				} else {
					m.Rows = append(m.Rows, Row{Name: row, Terms: []Term{{xij, 1}, {xjk, 1}}, Lo: 1, Hi: math.Inf(1)})
				}
				m.Cuts++
			}
		}
	}
}
