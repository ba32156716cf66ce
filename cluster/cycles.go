package cluster

import "math"

// Directed cycle inequalities: cutting planes for the root loop (rootcuts.go) beside the path
// and convexity inequalities. They state the ordering of loops, which the relaxation of Fig
// 1.14 hardly sees: its π rows bound a difference by N·x, so around a cycle they only say
// Σ x_edges ≤ M·Σ x_links, and with every other cut in, the relaxation without the π rows has
// the same bound (docs/performance.md).
//
// The loops of a clustering run in some order ord (the cluster graph is acyclic). For an edge
// u → v, ord(u) ≤ ord(v), with equality exactly when u and v share a loop, and never for a
// fusion-preventing edge; for a pair that shares a loop (x = 0), ord is equal. Take a cycle
// v0, v1, ..., vk = v0 whose steps are edges taken forwards or links (pairs with an x column,
// either way round). If every link has x = 0, ord cannot rise anywhere on the cycle, so every
// edge of it joins two nodes of one loop. Hence, for each edge e of the cycle,
//
//	x_e ≤ Σ_{links ℓ of the cycle} x_ℓ,  and  1 ≤ Σ x_ℓ when e prevents fusion (or its pair can
//	never share a loop).
//
// The convexity inequalities are the cycles with one link. Unlike the path inequalities, the
// edges of the cycle cost nothing on its right-hand side: they are what carries the order.
//
// Separation is exact for each edge: a shortest-path search from v back to u, in which edges
// (forwards) have length 0 and links the relaxation's x, finds the cycle through u → v whose
// right-hand side is least. A path made of edges alone would be a cycle in the dependency
// graph, so every cycle found has a link.

// separateCycles returns at most limit of the directed cycle inequalities that values violate,
// the most violated first.
func (m *Model) separateCycles(values []float64, limit int) []Row {
	const eps = 1e-4
	g := m.Graph
	if g == nil {
		return nil
	}
	n := len(g.Nodes)
	adj := m.pairArcs(n)
	for _, e := range g.Edges {
		adj[e.From.ID] = append(adj[e.From.ID], arc{e.To.ID, -1})
	}
	sr := newSearcher(adj)
	// edgeX is the value of an edge's x: 1 when its pair can never share a loop.
	edgeX := func(e *Edge) (float64, int) {
		col, ok := m.X(e.From.ID, e.To.ID)
		if e.Preventing || !ok || m.Vars[col].Lo >= 1 {
			return 1, -1
		}
		return values[col], col
	}
	var cuts []pathCut
	dist, via, from := sr.dist, sr.via, sr.from
	for v := 0; v < n; v++ {
		// The largest x among the edges into v: no cycle longer than it can be violated.
		top := 0.0
		for _, e := range g.In(v) {
			top = math.Max(top, first(edgeX(e)))
		}
		if top <= eps {
			continue
		}
		sr.run(v, values, top-eps)
		for _, e := range g.In(v) {
			u := e.From.ID
			xe, col := edgeX(e)
			if from[u] < 0 || xe-dist[u] <= eps {
				continue
			}
			row := Row{Name: "cycle", Lo: 1, Hi: math.Inf(1)}
			if col >= 0 {
				row = Row{Name: "cycle", Terms: []Term{{col, -1}}, Lo: 0, Hi: math.Inf(1)}
			}
			links := 0
			for w := u; w != v; w = from[w] {
				if via[w] >= 0 {
					row.Terms = append(row.Terms, Term{via[w], 1})
					links++
				}
			}
			if links == 0 {
				continue // not expected: the graph is acyclic
			}
			cuts = append(cuts, pathCut{row: row, violation: xe - dist[u]})
		}
	}
	return mostViolated(cuts, limit)
}

// first is the first of two values.
func first[A, B any](a A, _ B) A { return a }
