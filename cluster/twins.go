package cluster

import (
	"fmt"
	"slices"
	"strings"
)

// twins groups the nodes that are interchangeable in the model: neither is an external, they
// have the same iteration size, the same producers and consumers (by edge kind), read the same
// arrays, and both make arrays or neither does. Twins always can share a loop (an edge or a
// fusion-preventing path between them would make their neighbourhoods differ), and every
// optimal clustering puts them together:
//
// Let i and j be twins in different clusters X and Y. Moving j into X, or i into Y, keeps the
// clustering valid (their neighbourhoods and sizes are the same, so no cycle and no concestor
// condition changes). By symmetry the two moves change the cost of every other pair and of
// every materialised array by amounts that sum to at most zero, and both remove the split of
// the pair itself, which weighs at least 1. So one of the moves lowers the cost: the clustering
// was not optimal.
//
// The model fixes x = 0 for twin pairs (not in the --paper form, and not when other pairs are
// forced together, which can break the symmetry). It removes no optimum (the exhaustive-search
// property test checks it) and takes symmetric solutions out of the search.
func (g *Graph) twins() [][]int {
	class := map[string][]int{}
	var order []string
	for i, nd := range g.Nodes {
		if nd.External() {
			continue
		}
		key := g.twinKey(i)
		if _, ok := class[key]; !ok {
			order = append(order, key)
		}
		class[key] = append(class[key], i)
	}
	var out [][]int
	for _, k := range order {
		if len(class[k]) > 1 {
			out = append(out, class[k])
		}
	}
	return out
}

// twinKey describes a node's place in the model apart from its name.
func (g *Graph) twinKey(i int) string {
	nd := g.Nodes[i]
	iter := -1
	for j := range i + 1 {
		if g.sameIter(i, j) {
			iter = j
			break
		}
	}
	edges := func(es []*Edge, other func(*Edge) int) string {
		var parts []string
		for _, e := range es {
			parts = append(parts, fmt.Sprintf("%d:%v", other(e), e.Preventing))
		}
		slices.Sort(parts)
		return strings.Join(parts, ",")
	}
	reads := slices.Clone(nd.Reads)
	slices.Sort(reads)
	return fmt.Sprintf("iter=%d arrays=%v in=%s out=%s reads=%s", iter, len(nd.Arrays) > 0,
		edges(g.In(i), func(e *Edge) int { return e.From.ID }),
		edges(g.Out(i), func(e *Edge) int { return e.To.ID }),
		strings.Join(reads, ","))
}
