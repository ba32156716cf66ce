package cluster

import "math"

// transitivityCuts returns inequalities that every clustering satisfies but the relaxation of
// Fig 1.14 does not: for each node j and two of its neighbours i and k (an edge joins j to
// each, in either direction), x_ik <= x_ij + x_jk, "if i and k both share j's loop, they share
// each other's". The figure's rows imply this only when an edge joins i and k; without one,
// x_ik = 1 with π_i = π_k is allowed, which only costs more. Every clustering (a partition)
// satisfies the cuts, and the greedy start is one, so they remove no clustering and keep the
// optimum (the exhaustive-search property test checks this with the cuts on).
//
// Only neighbours are used: all triples would be cubic in the bindings, and the tried variant
// (docs/performance.md) found the neighbour triples to be the ones that tighten the relaxation.
// When i and k can never share a loop (x_ik fixed to 1, or no x_ik because a fusion-preventing
// path joins them) the cut is x_ij + x_jk >= 1; the figure's rows give only x_ij + x_jk >= 1/M
// in the relaxation. Triples where j is already apart from i or k are left out.
func (m *Model) transitivityCuts() []Row {
	g := m.Graph
	if g == nil {
		return nil
	}
	free := func(i, j int) (int, bool) {
		x, ok := m.X(i, j)
		return x, ok && m.Vars[x].Lo == 0
	}
	var rows []Row
	seen := map[[3]int]bool{}
	for j := range g.Nodes {
		var nb []int
		for _, e := range g.in[j] {
			nb = append(nb, e.From.ID)
		}
		for _, e := range g.out[j] {
			nb = append(nb, e.To.ID)
		}
		for a := 0; a < len(nb); a++ {
			for b := a + 1; b < len(nb); b++ {
				i, k := min(nb[a], nb[b]), max(nb[a], nb[b])
				if i == k || i == j || k == j || seen[[3]int{i, j, k}] {
					continue
				}
				seen[[3]int{i, j, k}] = true
				xij, ok1 := free(i, j)
				xjk, ok2 := free(j, k)
				if !ok1 || !ok2 {
					continue // j already apart from i or from k: nothing to say
				}
				name := "tri_" + g.Nodes[i].Name + "_" + g.Nodes[j].Name + "_" + g.Nodes[k].Name
				if xik, ok := free(i, k); ok {
					rows = append(rows, Row{Name: name, Terms: []Term{{xik, 1}, {xij, -1}, {xjk, -1}}, Lo: math.Inf(-1), Hi: 0})
				} else {
					// i and k never share a loop, so j shares it with one of them at most.
					rows = append(rows, Row{Name: name, Terms: []Term{{xij, 1}, {xjk, 1}}, Lo: 1, Hi: math.Inf(1)})
				}
			}
		}
	}
	return rows
}
