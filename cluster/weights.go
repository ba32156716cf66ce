package cluster

import (
	"github.com/cnf-tools/cnf/syntax"
)

// The objective's weights (Fig 1.14, section 1.4.4): a split pair of nodes that an edge joins
// or that read a common array costs an array's traffic, N²; a materialised array N; any
// other split pair 1.
//
// Fig 1.14 prices every array's traffic alike, a filter's output as its input. That made the
// optimum write a map's whole output to read it in a second loop rather than split the loop
// after a filter of it whose output is small (the filter's consumers then read the filter's
// output): the two cost one array each and the first splits fewer pairs, but it moves several
// times the bytes (docs/performance.md, "Filtered arrays weigh less"). cnf prices the traffic
// of an array behind d filters at N² / 2^d (at least N): a filter is assumed to keep half of
// what it reads, as a query planner without statistics assumes a selectivity. Arrays of their
// own size (parameters, generate, cross, append, external outputs) and every array of a
// program without filters weigh N², as in the figure; `cnf ilp --paper` prints the figure's
// weights.

// weigh computes heavy (the pairs joined by an edge or reading a common array) and, for the
// heavy pairs whose every such array is behind filters, how many (shallow).
func (g *Graph) weigh() {
	n := len(g.Nodes)
	g.heavy = make([]bitset, n)
	for i := range g.heavy {
		g.heavy[i] = newBitset(n)
	}
	depth := g.filterDepths()
	g.shallow = map[[2]int]int{}
	// mark records that i and j share an array d filters deep: the pair weighs by its least
	// such depth.
	mark := func(i, j, d int) {
		p := [2]int{min(i, j), max(i, j)}
		if !g.heavy[i].has(j) {
			g.heavy[i].set(j)
			g.heavy[j].set(i)
			if d > 0 {
				g.shallow[p] = d
			}
			return
		}
		if old, ok := g.shallow[p]; ok && d < old {
			if d == 0 {
				delete(g.shallow, p)
			} else {
				g.shallow[p] = d
			}
		}
	}
	readers := map[string][]int{}
	var names []string // in the order first read, so that the marks are reproducible
	for _, nd := range g.Nodes {
		for _, a := range nd.Reads {
			if _, ok := readers[a]; !ok {
				names = append(names, a)
			}
			readers[a] = append(readers[a], nd.ID)
		}
	}
	for _, a := range names {
		rs := readers[a]
		for x, i := range rs { // a node reads an array once: i != j
			for _, j := range rs[x+1:] {
				mark(i, j, depth[a])
			}
		}
	}
	for _, e := range g.Edges {
		// The arrays of one node are all as deep (filterDepths); a scalar has no depth (0).
		d := 0
		for _, v := range e.Vars {
			d = max(d, depth[v])
		}
		mark(e.From.ID, e.To.ID, d)
	}
}

// filterDepths gives each array of the definition (parameters and nodes' outputs) the number of
// filters its size is behind: 0 for a parameter and for the arrays of a size of their own
// (generate, cross, append, external); a filter's output one more than the array it walks;
// every other combinator's output that of the array it walks (maps, scans, zips, reversals,
// slices; a gather's, its indices').
func (g *Graph) filterDepths() map[string]int {
	depth := map[string]int{}
	for _, nd := range g.Nodes { // in source order: an array's producer comes before its readers
		d := 0
		if w := syntax.Walked(nd.Binding.Rhs); w != nil {
			d = depth[w.Name] // a parameter's is 0
			if _, ok := nd.Binding.Rhs.(*syntax.Filter); ok {
				d++
			}
		}
		for _, a := range nd.Arrays {
			depth[a] = d
		}
	}
	return depth
}

// pairWeight is the weight of a possible pair in the objective: for a pair joined by an edge or
// reading a common array, N² for an array of a size of its own and N² / 2^d (at least N) for
// one behind d filters; 1 for any other pair.
func (g *Graph) pairWeight(i, j int) int {
	if !g.heavy[i].has(j) {
		return 1
	}
	n := len(g.Nodes)
	w := n * n
	if d, ok := g.shallow[[2]int{min(i, j), max(i, j)}]; ok {
		w = max(n, w>>min(d, 62))
	}
	return w
}
