package cluster

import (
	"maps"
	"slices"
)

// The merger keeps a topological order of its cluster graph (ord, by label), so that asking
// whether one cluster reaches another searches only the clusters ordered between them, and
// updates it at each merge by the reordering of Pearce and Kelly's dynamic topological sort
// ("A dynamic topological sort algorithm for directed acyclic graphs", JEA 2007), restricted
// to the same window. Without it, merging neighbours along a chain of 5,000 bindings searched
// to both ends of the chain at each merge (2 million steps for the Megiddo and Sarkar
// baseline of a chain of maps and filters).
//
// The order is dropped (ordered false) when a merge makes a cycle, which only merges that
// rebuild a known valid clustering do on the way (mergerFrom); it is rebuilt when next asked.

// reorder rebuilds ord from the cluster graph; false when the graph has a cycle.
func (m *merger) reorder() bool {
	labels := slices.Sorted(maps.Keys(m.members))
	index := make(map[int]int, len(labels))
	for k, l := range labels {
		index[l] = k
	}
	succ := func(k int) []int {
		var out []int
		for c := range m.succ[labels[k]] {
			out = append(out, index[c])
		}
		slices.Sort(out)
		return out
	}
	order, ok := topological(len(labels), succ, func(a, b int) bool { return a < b })
	if !ok {
		return false
	}
	for pos, k := range order {
		m.ord[labels[k]] = pos
	}
	m.ordered = true
	return true
}

// reachesOrdered reports whether a path of two or more edges leads from cluster from to
// cluster to, searching forward from from among the clusters ordered before to.
func (m *merger) reachesOrdered(from, to int) bool {
	limit := m.ord[to]
	if m.ord[from] > limit {
		return false
	}
	m.stamp++
	stack := m.stack[:0]
	for c := range m.succ[from] {
		if c != to && m.ord[c] < limit && m.mark[c] != m.stamp {
			m.mark[c] = m.stamp
			stack = append(stack, c)
		}
	}
	found := false
	for len(stack) > 0 && !found {
		m.visits++
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range m.succ[c] {
			if d == to {
				found = true
				break
			}
			if m.ord[d] < limit && m.mark[d] != m.stamp {
				m.mark[d] = m.stamp
				stack = append(stack, d)
			}
		}
	}
	m.stack = stack[:0]
	return found
}

// keepOrder updates ord for the merge of cluster b into cluster a, before the cluster graph
// changes. With x the earlier of the two and y the later, the clusters between them that x
// reaches (F) and those that reach y (B) share no cluster when the merge makes no cycle; B
// then takes the first of their positions, the merged cluster the next, and F the last, each
// in its old order, which keeps every edge pointing forward (the Pearce-Kelly argument).
func (m *merger) keepOrder(a, b int) {
	if !m.ordered {
		return
	}
	x, y := a, b
	if m.ord[x] > m.ord[y] {
		x, y = y, x
	}
	lo, hi := m.ord[x], m.ord[y]
	m.stamp++
	fwd := m.window(x, y, m.succ, func(o int) bool { return o < hi }, m.mark)
	bwd := m.window(y, x, m.pred, func(o int) bool { return o > lo }, m.markB)
	for _, c := range bwd {
		if m.mark[c] == m.stamp {
			m.ordered = false // a cycle: rebuilt when next asked
			return
		}
	}
	byOrd := func(p, q int) int { return m.ord[p] - m.ord[q] }
	slices.SortFunc(fwd, byOrd)
	slices.SortFunc(bwd, byOrd)
	pool := make([]int, 0, len(fwd)+len(bwd)+2)
	for _, c := range fwd {
		pool = append(pool, m.ord[c])
	}
	for _, c := range bwd {
		pool = append(pool, m.ord[c])
	}
	pool = append(pool, lo, hi)
	slices.Sort(pool)
	k := 0
	for _, c := range bwd {
		m.ord[c] = pool[k]
		k++
	}
	m.ord[a] = pool[k]
	for j, c := range fwd {
		m.ord[c] = pool[len(pool)-len(fwd)+j]
	}
}

// window is the clusters other than skip that start reaches along next, among those whose
// position in, marked in mark with the current stamp.
func (m *merger) window(start, skip int, next map[int]map[int]int, in func(int) bool, mark []int) []int {
	var found []int
	stack := []int{start}
	for len(stack) > 0 {
		m.visits++
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range next[c] {
			if d != skip && in(m.ord[d]) && mark[d] != m.stamp {
				mark[d] = m.stamp
				found = append(found, d)
				stack = append(stack, d)
			}
		}
	}
	return found
}
