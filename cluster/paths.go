package cluster

import (
	"container/heap"
	"math"
	"slices"
)

// Path inequalities: cutting planes found from a solution of the relaxation, beyond the
// transitivity cuts that Formulate adds up front (cuts.go).
//
// The relaxation of Fig 1.14 is weak where a separation is forced by π: a fold f whose value a
// map g uses needs π_g ≥ π_f + 1, and the big-M rows let that difference be spread over a chain
// of partners f - a - b - g (nodes that read a common array) at x ≈ 1/M each, so the
// relaxation charges almost nothing for a separation the integers must pay N² for. Every
// clustering satisfies, for any chain s = v0, v1, ..., vk = t of pairs with x columns:
//
//   - Σ x_{v(i) v(i+1)} ≥ 1 when s and t can never share a loop (no x column, or x fixed at 1):
//     if every pair of the chain shared a loop, s and t would share it;
//   - x_st ≤ Σ x_{v(i) v(i+1)} when x_st is free (k ≥ 2): the same, for a pair that may share.
//
// These are the cycle inequalities of clique partitioning; the transitivity cuts are their
// chains of two. They remove no clustering (the exhaustive-search property test solves with
// them), and there are exponentially many, so only violated ones are added: for each node s, a
// shortest-path search with the relaxation's x values as lengths finds, for every t, the chain
// that violates its inequality most (Dijkstra; lengths are non-negative). On the `fans`
// programs of the second generator they close the gap between the relaxation and the optimum
// almost entirely (docs/performance.md).

// pathCut is a violated inequality (a path or a convexity one) and by how much the relaxation violates it.
type pathCut struct {
	row       Row
	violation float64
}

// separatePaths returns at most limit of the path inequalities that the relaxation's values
// violate by more than a tolerance, the most violated first.
func (m *Model) separatePaths(values []float64, limit int) []Row {
	const eps = 1e-4
	n := m.N
	sr := newSearcher(m.pairArcs(n))
	dist, via, from := sr.dist, sr.via, sr.from
	var cuts []pathCut
	for s := 0; s < n; s++ {
		sr.run(s, values, 1-eps) // no inequality has a right-hand side above 1
		for t := s + 1; t < n; t++ {
			if via[t] < 0 {
				continue
			}
			var row Row
			col, ok := m.X(s, t)
			switch {
			case !ok || m.Vars[col].Lo >= 1: // never together
				if 1-dist[t] <= eps {
					continue
				}
				row = Row{Name: "path", Lo: 1, Hi: math.Inf(1)}
				cuts = append(cuts, pathCut{row: row, violation: 1 - dist[t]})
			case from[t] != s && values[col]-dist[t] > eps: // free, reached through others
				row = Row{Name: "path", Terms: []Term{{col, -1}}, Lo: 0, Hi: math.Inf(1)}
				cuts = append(cuts, pathCut{row: row, violation: values[col] - dist[t]})
			default:
				continue
			}
			c := &cuts[len(cuts)-1]
			for v := t; v != s; v = from[v] {
				c.row.Terms = append(c.row.Terms, Term{via[v], 1})
			}
		}
	}
	return mostViolated(cuts, limit)
}

// mostViolated returns the rows of at most limit cuts, the most violated first.
func mostViolated(cuts []pathCut, limit int) []Row {
	slices.SortStableFunc(cuts, func(a, b pathCut) int {
		switch {
		case a.violation > b.violation:
			return -1
		case a.violation < b.violation:
			return 1
		}
		return 0
	})
	rows := make([]Row, 0, min(limit, len(cuts)))
	for _, c := range cuts[:min(limit, len(cuts))] {
		rows = append(rows, c.row)
	}
	return rows
}

// arc is a step of a shortest-path search: to node to, along the pair whose x is column col
// (its length the relaxation's x), or along an edge when col is -1 (length 0).
type arc struct{ to, col int }

// pairArcs is, for each of n nodes, the arcs along the pairs that may share a loop (a chain
// cannot pass through a pair that never does), both ways, in a deterministic order.
func (m *Model) pairArcs(n int) [][]arc {
	adj := make([][]arc, n)
	m.x.each(func(i, j, col int) {
		if m.Vars[col].Lo > 0 {
			return
		}
		adj[i] = append(adj[i], arc{j, col})
		adj[j] = append(adj[j], arc{i, col})
	})
	return adj
}

// searcher runs Dijkstra's shortest-path search over fixed arcs from one node after another,
// reusing its arrays: dist to each node, via the column of the last step to it (-1: an edge,
// or none), from the node before it (-1: none).
type searcher struct {
	adj       [][]arc
	dist      []float64
	via, from []int
	reached   []int
}

// newSearcher is a searcher over adj, whose arcs it sorts (ties break alike in every run).
func newSearcher(adj [][]arc) *searcher {
	for _, a := range adj {
		slices.SortFunc(a, func(x, y arc) int {
			if x.to != y.to {
				return x.to - y.to
			}
			return x.col - y.col
		})
	}
	n := len(adj)
	sr := &searcher{adj: adj, dist: make([]float64, n), via: make([]int, n), from: make([]int, n)}
	for i := range sr.dist {
		sr.dist[i], sr.via[i], sr.from[i] = math.Inf(1), -1, -1
	}
	return sr
}

// run finds from s the shortest chains to every node, with each pair's x (negative values
// taken as 0) and each edge's 0 as lengths; nodes at cutoff or beyond are not expanded.
func (sr *searcher) run(s int, values []float64, cutoff float64) {
	for _, i := range sr.reached { // only what the last run touched needs resetting
		sr.dist[i], sr.via[i], sr.from[i] = math.Inf(1), -1, -1
	}
	sr.reached = append(sr.reached[:0], s)
	sr.dist[s] = 0
	q := &funcHeap[distItem]{less: nearer, items: []distItem{{s, 0}}}
	for q.Len() > 0 {
		it := heap.Pop(q).(distItem)
		if it.d > sr.dist[it.node] || it.d >= cutoff {
			continue
		}
		for _, a := range sr.adj[it.node] {
			l := 0.0
			if a.col >= 0 {
				l = math.Max(values[a.col], 0)
			}
			if d := it.d + l; d < sr.dist[a.to]-1e-12 {
				if math.IsInf(sr.dist[a.to], 1) {
					sr.reached = append(sr.reached, a.to)
				}
				sr.dist[a.to], sr.via[a.to], sr.from[a.to] = d, a.col, it.node
				heap.Push(q, distItem{a.to, d})
			}
		}
	}
}

// distItem is a node in Dijkstra's queue with its distance.
type distItem struct {
	node int
	d    float64
}

func nearer(a, b distItem) bool { return a.d < b.d }
