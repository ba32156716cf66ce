package cluster

import (
	"slices"
)

// improve is a local search on a valid clustering: one node at a time moves to another
// cluster, or to a cluster of its own, when that lowers Cost and keeps the clustering valid,
// until no move does or w is out of work (it then returns what it has, which is valid). The greedy
// merges and the readings of the relaxation only ever join clusters, so a node joined early to
// the wrong partner stays there; a move undoes that. It returns cl itself when nothing moved.
//
// A move's change of Cost is computed from the node's pairs and the edges at it (Cost's terms
// that can change: the pairs of the node, the node's array and the arrays it reads); only a
// move that lowers it is checked (movable: what Validate checks, for what the move changes;
// Validate itself, which also describes the clusters, made the search 50 times slower).
//
// focus, when not nil, is the nodes whose moves the first pass weighs (a kick's, kick.go); each
// later pass weighs the nodes of the clusters the pass before changed and their neighbours:
// elsewhere nothing changed since the clustering was a local optimum.
func improve(w *meter, cl *Clustering, sameSizeOnly bool, focus []bool) *Clustering {
	g := cl.Graph
	n := len(g.Nodes)
	of := slices.Clone(cl.Of)
	// members are the nodes of each label; labels are < n, and n is a free one at first.
	// joinable and delta read only the two clusters a move touches (scanning every node for
	// them made a pass over a 5,000-binding chain of clusters of three take seconds).
	members := make([][]int, n+1)
	for v, l := range of {
		members[l] = append(members[l], v)
	}
	// free is a label no node has: there are n nodes and n+1 labels.
	free := func() int {
		return slices.IndexFunc(members, func(ms []int) bool { return len(ms) == 0 })
	}
	// materialised is whether node i's array is read from another cluster under of.
	materialised := func(i int) bool {
		if len(g.Nodes[i].Arrays) == 0 {
			return false
		}
		for _, e := range g.Out(i) {
			if of[e.To.ID] != of[i] {
				return true
			}
		}
		return false
	}
	// arrays is the part of Cost from v's array and those v reads.
	arrays := func(v int) int {
		c := 0
		if materialised(v) {
			c += n
		}
		for _, e := range g.In(v) {
			if materialised(e.From.ID) {
				c += n
			}
		}
		return c
	}
	// delta is how much Cost changes if v moves to the cluster labelled to.
	delta := func(v, to int) int {
		from := of[v]
		d := -arrays(v)
		for _, u := range members[from] {
			if u != v && g.Possible(v, u) {
				d += g.pairWeight(u, v)
			}
		}
		for _, u := range members[to] {
			if g.Possible(v, u) {
				d -= g.pairWeight(u, v)
			}
		}
		of[v] = to
		d += arrays(v)
		of[v] = from
		return d
	}
	// joinable is a quick necessary condition for v to join the cluster labelled to: every
	// node of it may share a loop with v (Validate, which the move must pass, is slower).
	joinable := func(v, to int) bool {
		for _, u := range members[to] {
			if g.Nodes[u].External() || !g.Possible(v, u) {
				return false
			}
		}
		return true
	}
	moved := false
	var targets []int
	seen, stamp := make([]int, n+1), 0 // label -> the stamp of the last list of targets it is in
	// Every move lowers Cost, so the search ends by itself; the cap on passes is a guard
	// against a reckoning that was wrong (a language server must never spin).
	var next []bool // with a focus: the nodes of the next pass
	if focus != nil {
		next = make([]bool, n)
	}
	for pass, improved := 0, true; improved && pass < maxImprovePasses; pass++ {
		improved = false
		for v := 0; v < n; v++ {
			if focus != nil && !focus[v] {
				continue
			}
			if w.spend(priceScan * float64(n)) {
				return result(cl, of, moved)
			}
			if g.Nodes[v].External() {
				continue
			}
			// The clusters v could join: those of its partners, and one of its own.
			targets, stamp = targets[:0], stamp+1
			for u := 0; u < n; u++ {
				if l := of[u]; u != v && l != of[v] && g.Possible(v, u) && seen[l] != stamp {
					seen[l] = stamp
					targets = append(targets, l)
				}
			}
			if len(members[of[v]]) > 1 {
				targets = append(targets, free())
			}
			for _, to := range targets {
				// Each target is weighed against the two clusters' members (joinable and
				// delta), a few nanoseconds each.
				if w.spend(priceScan + priceTarget*float64(len(members[of[v]])+len(members[to]))) {
					return result(cl, of, moved)
				}
				if !joinable(v, to) || delta(v, to) >= 0 {
					continue
				}
				from := of[v]
				// movable weighs v against its new cluster and the pairs it leaves behind
				// (priced here), and checks the cluster graph's order (a pass over the edges,
				// unpriced: priced per node and edge, it stopped improve early and left
				// objectives 6-29% higher on 2,000-3,000-binding programs).
				left := len(members[from]) - 1
				if w.spend(priceScan*float64(len(members[to])) + pricePair*float64(left*(left-1)/2)) {
					return result(cl, of, moved)
				}
				of[v] = to
				if !movable(g, of, v, from, members[from], members[to], sameSizeOnly) {
					of[v] = from
					continue
				}
				members[from] = slices.DeleteFunc(members[from], func(u int) bool { return u == v })
				members[to] = append(members[to], v)
				moved, improved = true, true
				if next != nil {
					wake(g, next, members[from])
					wake(g, next, members[to])
				}
				break
			}
		}
		if focus != nil {
			focus, next = next, focus
			clear(next)
		}
	}
	return result(cl, of, moved)
}

// wake marks the nodes and their neighbours in the graph in next.
func wake(g *Graph, next []bool, nodes []int) {
	for _, u := range nodes {
		next[u] = true
		for _, e := range g.In(u) {
			next[e.From.ID] = true
		}
		for _, e := range g.Out(u) {
			next[e.To.ID] = true
		}
	}
}

// maxImprovePasses bounds improve's passes over the nodes (on the benchmark programs it
// makes a few).
const maxImprovePasses = 100

// result is the clustering of labels of, or cl when nothing moved.
func result(cl *Clustering, of []int, moved bool) *Clustering {
	if !moved {
		return cl
	}
	out, err := NewClustering(cl.Graph, of)
	if err != nil {
		return cl // not expected: every move was validated
	}
	return out
}

// movable reports whether the clustering of is valid, given that it was before node v moved
// out of the cluster labelled from (of already has v's new label; before and joined are the
// members of from, v included, and of v's new cluster, v not yet included): what Validate checks, for
// the pairs and edges the move changes. v shares no loop across a fusion-preventing edge; each
// pair of v and a node of its new cluster, and each pair left behind (which may have had v
// as a concestor), passes pairFault; and the clusters can still run in some order.
func movable(g *Graph, of []int, v, from int, before, joined []int, sameSizeOnly bool) bool {
	to := of[v]
	for _, e := range g.Out(v) {
		if e.Preventing && of[e.To.ID] == to {
			return false
		}
	}
	for _, e := range g.In(v) {
		if e.Preventing && of[e.From.ID] == to {
			return false
		}
	}
	for _, u := range joined {
		if fault, _, _ := g.pairFault(of, u, v, sameSizeOnly); fault != faultNone {
			return false
		}
	}
	left := slices.DeleteFunc(slices.Clone(before), func(u int) bool { return u == v }) // the nodes left behind in from
	for x, i := range left {
		for _, j := range left[x+1:] {
			if fault, _, _ := g.pairFault(of, i, j, sameSizeOnly); fault != faultNone {
				return false
			}
		}
	}
	return acyclic(g, of)
}

// acyclic reports whether the clusters of of (non-negative labels) can run in some order: the
// graph of clusters that the edges between them make has no cycle.
func acyclic(g *Graph, of []int) bool {
	k := 0
	for _, l := range of {
		k = max(k, l+1)
	}
	succ := make([][]int, k) // labels no node has are clusters without edges: no cycle
	for _, e := range g.Edges {
		if a, b := of[e.From.ID], of[e.To.ID]; a != b {
			succ[a] = append(succ[a], b)
		}
	}
	_, ok := topological(k, func(c int) []int { return succ[c] }, func(a, b int) bool { return a < b })
	return ok
}

// polish alternates improve with the greedy merges of whole clusters, from what improve left,
// until neither lowers Cost (or w is out of work, or maxPolishRounds). improve moves one node at a
// time, and once nodes have moved, two clusters may be worth merging that were not before (and
// after a merge, single moves again): on `fans` programs improve alone left clusterings that
// merges made cheaper still (docs/performance.md, "Behind the code", I1). It returns cl itself
// when neither changed it; what it returns is valid, and never costs more than cl.
//
// from, when not nil, is a local optimum of polish that cl differs from in a few clusters (a
// kick's, kick.go): then only those clusters' nodes and their neighbours are weighed for moves,
// and only merges with one of those clusters (or with what they merged into), a fraction of
// the work of weighing every node and every pair of clusters.
func polish(w *meter, cl *Clustering, sameSizeOnly bool, from *Clustering) *Clustering {
	cost := cl.Cost()
	for round := 0; round < maxPolishRounds && !w.out(); round++ {
		var focus, changed []bool
		if from != nil {
			changed = changedNodes(from, cl)
			focus = make([]bool, len(changed))
			for v, c := range changed {
				if c {
					wake(cl.Graph, focus, []int{v})
				}
			}
		}
		moved := improve(w, cl, sameSizeOnly, focus)
		if from != nil && w.spend(3*priceRebuild*float64(len(cl.Of))) { // the merger, the clustering, its cost
			return cl
		}
		mg := mergerFrom(moved, sameSizeOnly)
		if from != nil {
			if moved != cl {
				changed = changedNodes(from, moved)
			}
			mg.touched = func(members []int) bool { return changed[members[0]] }
		}
		mg.greedy(w, nil)
		merged := mg.clustering()
		c := merged.Cost()
		if c >= cost { // improve moved nothing and no merge paid (each lowers Cost)
			return cl
		}
		cl, cost = merged, c
	}
	return cl
}

// changedNodes is, for each node, whether its cluster under cl has other members than under
// from (the whole cluster is marked).
func changedNodes(from, cl *Clustering) []bool {
	n := len(cl.Of)
	size := map[int]int{}
	for _, l := range from.Of {
		size[l]++
	}
	first := map[int]int{} // cl's label -> from's label of its first member
	count := map[int]int{}
	bad := map[int]bool{}
	for v, l := range cl.Of {
		f, ok := first[l]
		if !ok {
			f, first[l] = from.Of[v], from.Of[v]
		}
		if from.Of[v] != f {
			bad[l] = true
		}
		count[l]++
	}
	changed := make([]bool, n)
	for v, l := range cl.Of {
		changed[v] = bad[l] || count[l] != size[first[l]]
	}
	return changed
}

// maxPolishRounds bounds polish's rounds, as maxImprovePasses bounds improve's passes.
const maxPolishRounds = 20

// mergerFrom is a merger whose clusters are cl's (a valid clustering, so each cluster is
// merged in without canMerge's checks): mergerOf its labels.
func mergerFrom(cl *Clustering, sameSizeOnly bool) *merger {
	return mergerOf(cl.Graph, sameSizeOnly, cl.Of)
}
