package cluster

import (
	"math/rand/v2"
	"slices"
)

// Kicks: an iterated local search from a clustering, for the work a solve has left when
// HiGHS's search cannot start (rootStage). polish (improve's moves of one node, then the greedy
// merges) stops at a local optimum: on fans 200 under the 2 s default the readings of the
// relaxation stopped 6-33% above the optimum, and the work the search could not use was left
// unspent (docs/performance.md, "Kicks"). A kick breaks part of the best clustering so far and
// polish rebuilds it; the result is kept when it costs less. Kicks are drawn from a generator
// with a fixed seed and every step is counted in work, so the answer is the same on every run.
//
// The kicks:
//   - a guided move, half of the kicks when the last relaxation is given: an edge that the
//     clustering splits and the relaxation does not (x below 1/2) is drawn, and its producer
//     with its successors in its cluster joins the consumer's cluster, or the consumer with its
//     predecessors the producer's. This is where the relaxation and the clustering disagree.
//   - a move: a node and its successors (or predecessors) in its cluster split off and join a
//     neighbouring cluster. Clusters exchange chains of bindings this way, which improve's
//     one-node moves cannot do (each single move splits a heavy edge).
//   - a dissolve: one cluster, or a cluster and a neighbour, breaks into its nodes.
// (The moves and the dissolves share the other half, or all of the kicks, alike.)
//
// Both keep a valid clustering valid for the order: a part split off downwards (upwards) has no
// edge back into the rest of its cluster, and a cycle through it would be one through the old
// cluster. Every kick that lowers the cost is checked whole (Validate) all the same before it
// is kept; twins stay together, as the model wants them. polish after a kick weighs only what
// the kick changed (polish's from), and the kick is costed by what changed (costDelta).

// kicksWithout is how many kicks in a row that find nothing better end the search: by then
// every cluster has been broken up a few times.
const kicksWithout = 200

// kicked runs kicks from cl within w's work and returns the cheapest clustering found (cl
// itself when none is cheaper). cost is what a clustering costs in the model being solved;
// wants, when not nil, says whether the relaxation puts two nodes together (the guided moves).
func kicked(w *meter, cl *Clustering, sameSizeOnly bool, cost func(*Clustering) float64, wants func(i, j int) bool) *Clustering {
	g := cl.Graph
	n := len(g.Nodes)
	if n < 3 {
		return cl
	}
	twinOf := make([]int, n) // each node's first twin (itself when it has none)
	for i := range twinOf {
		twinOf[i] = i
	}
	for _, group := range g.twins() {
		for _, j := range group[1:] {
			twinOf[j] = group[0]
		}
	}
	rng := rand.New(rand.NewPCG(uint64(n), 0x6b69636b))
	best, bestCost := cl, cost(cl)
	// priceCost is the work of costing a clustering: a scan of the pairs.
	priceCost := priceScan * float64(n*n) / 2
	for without := 0; without < kicksWithout && !w.out(); without++ {
		labels, target := kick(best, rng, wants)
		if labels == nil {
			break // every cluster has one binding: nothing to break apart
		}
		// Twins go back together (dissolving split them); the others stay apart.
		for v := range labels {
			if t := twinOf[v]; t != v {
				labels[v] = labels[t]
			}
		}
		if w.spend(3 * priceRebuild * float64(n)) { // the clustering, its merger, its cost
			break
		}
		start, err := NewClustering(g, labels)
		if err != nil {
			continue // not expected: a kick keeps the clusters in an order
		}
		mg := mergerFrom(start, sameSizeOnly)
		joinNeighbour(mg, labels, n, rng, target)
		next := polish(w, mg.clustering(), sameSizeOnly, best)
		// What the kick and polish changed is weighed first (costDelta, a scan of the changed
		// nodes' pairs); only a clustering that costs less is checked whole (Validate, which
		// a kick's is not expected to fail) and costed in the model.
		changed := changedNodes(best, next)
		moved := 0
		for _, c := range changed {
			if c {
				moved++
			}
		}
		if w.spend(priceScan * float64(moved*n)) {
			break // the work ran out during polish: its clustering may be half rebuilt
		}
		if costDelta(best, next, changed) >= 0 {
			continue
		}
		if w.spend(2 * priceCost) {
			break
		}
		if len(Validate(g, next.Of, sameSizeOnly)) > 0 {
			continue
		}
		if c := cost(next); c < bestCost {
			best, bestCost, without = next, c, -1
		}
	}
	return best
}

// costDelta is to's Cost less from's, where changed marks the nodes whose clusters differ
// (changedNodes): the pairs with a changed node, and the arrays of the changed nodes and of
// the nodes they read from (the only ones whose readers' clusters can have changed).
func costDelta(from, to *Clustering, changed []bool) int {
	g := to.Graph
	n := len(g.Nodes)
	d := 0
	for i := 0; i < n; i++ {
		if !changed[i] {
			continue
		}
		for j := 0; j < n; j++ {
			if j == i || changed[j] && j < i || !g.Possible(i, j) {
				continue // a pair of two changed nodes is weighed once
			}
			was, is := from.Of[i] != from.Of[j], to.Of[i] != to.Of[j]
			if was != is {
				if is {
					d += g.pairWeight(i, j)
				} else {
					d -= g.pairWeight(i, j)
				}
			}
		}
	}
	writes := func(cl *Clustering, i int) bool {
		if len(g.Nodes[i].Arrays) == 0 {
			return false
		}
		for _, e := range g.Out(i) {
			if cl.Of[e.To.ID] != cl.Of[i] {
				return true
			}
		}
		return false
	}
	seen := make([]bool, n)
	weigh := func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		if writes(to, i) {
			d += n
		}
		if writes(from, i) {
			d -= n
		}
	}
	for i := 0; i < n; i++ {
		if changed[i] {
			weigh(i)
			for _, e := range g.In(i) {
				weigh(e.From.ID)
			}
		}
	}
	return d
}

// kick is cl's labels after a random kick, and the node whose cluster a guided move's part
// joins (-1 for the others): a move's part is labelled 2n and above (for joinNeighbour), a
// dissolve's nodes n and above. nil when every cluster has one node.
func kick(cl *Clustering, rng *rand.Rand, wants func(i, j int) bool) ([]int, int) {
	g := cl.Graph
	n := len(g.Nodes)
	size := map[int]int{}
	for _, l := range cl.Of {
		size[l]++
	}
	var big []int
	for l, k := range size {
		if k > 1 {
			big = append(big, l)
		}
	}
	if len(big) == 0 {
		return nil, -1
	}
	slices.Sort(big)
	if wants != nil && rng.IntN(2) == 0 {
		var split []*Edge
		for _, e := range g.Edges {
			if cl.Of[e.From.ID] != cl.Of[e.To.ID] && wants(e.From.ID, e.To.ID) {
				split = append(split, e)
			}
		}
		if len(split) > 0 {
			e := split[rng.IntN(len(split))]
			v, t, down := e.From.ID, e.To.ID, true
			if rng.IntN(2) == 0 {
				v, t, down = t, v, false
			}
			group := chain(g, cl, v, down)
			labels := slices.Clone(cl.Of)
			for x := range group {
				labels[x] = 2*n + v
			}
			return labels, t
		}
	}
	if rng.IntN(2) == 0 {
		c := big[rng.IntN(len(big))]
		var in []int
		for v, l := range cl.Of {
			if l == c {
				in = append(in, v)
			}
		}
		v := in[rng.IntN(len(in))]
		if group := chain(g, cl, v, rng.IntN(2) == 0); len(group) < len(in) {
			labels := slices.Clone(cl.Of)
			for x := range group {
				labels[x] = 2*n + v
			}
			return labels, -1
		}
	}
	dissolve := map[int]bool{big[rng.IntN(len(big))]: true}
	if rng.IntN(2) == 0 {
		var near []int
		for _, e := range g.Edges {
			a, b := cl.Of[e.From.ID], cl.Of[e.To.ID]
			if a != b && dissolve[a] && !slices.Contains(near, b) {
				near = append(near, b)
			} else if a != b && dissolve[b] && !slices.Contains(near, a) {
				near = append(near, a)
			}
		}
		if len(near) > 0 {
			slices.Sort(near)
			dissolve[near[rng.IntN(len(near))]] = true
		}
	}
	labels := make([]int, n)
	for v, l := range cl.Of {
		labels[v] = l
		if dissolve[l] {
			labels[v] = n + v // a label no cluster has (cl's are below n)
		}
	}
	return labels, -1
}

// chain is v and its successors (down) or predecessors in its cluster under cl.
func chain(g *Graph, cl *Clustering, v int, down bool) map[int]bool {
	c := cl.Of[v]
	group := map[int]bool{v: true}
	stack := []int{v}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		edges := g.In(u)
		if down {
			edges = g.Out(u)
		}
		for _, e := range edges {
			x := e.From.ID
			if down {
				x = e.To.ID
			}
			if cl.Of[x] == c && !group[x] {
				group[x] = true
				stack = append(stack, x)
			}
		}
	}
	return group
}

// joinNeighbour merges a move's part (the nodes labelled 2n and above in labels) with the
// cluster of target (a guided move's), or else with a neighbouring cluster, the first of them in
// a random order that may merge (canMerge). When none may, the part stays a cluster of its own.
func joinNeighbour(mg *merger, labels []int, n int, rng *rand.Rand, target int) {
	var group []int
	for v, l := range labels {
		if l >= 2*n {
			group = append(group, v)
		}
	}
	if len(group) == 0 {
		return
	}
	a := mg.label[group[0]]
	near := []int{}
	if target >= 0 {
		near = append(near, mg.label[target])
	} else {
		for _, v := range group {
			for _, e := range mg.g.Out(v) {
				if b := mg.label[e.To.ID]; b != a && !slices.Contains(near, b) {
					near = append(near, b)
				}
			}
			for _, e := range mg.g.In(v) {
				if b := mg.label[e.From.ID]; b != a && !slices.Contains(near, b) {
					near = append(near, b)
				}
			}
		}
		slices.Sort(near)
		rng.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
	}
	for _, b := range near {
		if b != a && mg.canMerge(a, b) {
			mg.merge(a, b)
			return
		}
	}
}

// kickedValues is kicked from the clustering of start (column values of m) within w's work,
// guided by the relaxation guide (m's columns; nil for none), as column values of m: start
// itself when no kick found a cheaper clustering, or when the model has no graph or forces
// pairs together (variant.Together: a kick would not keep them).
func kickedValues(w *meter, m *Model, start, guide []float64) []float64 {
	if m.Graph == nil || len(m.variant.Together) > 0 || start == nil || w.out() {
		return start
	}
	cl, err := readback(m, start)
	if err != nil {
		return start
	}
	cost := func(c *Clustering) float64 { return objective(m, m.StartValues(c)) }
	var wants func(i, j int) bool
	if guide != nil {
		wants = func(i, j int) bool {
			col, ok := m.X(i, j)
			return ok && guide[col] < 0.5
		}
	}
	if k := kicked(w, cl, m.variant.SameSizeOnly, cost, wants); k != cl {
		return m.StartValues(k)
	}
	return start
}
