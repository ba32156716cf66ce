package cluster

import (
	"fmt"
	"slices"
)

// Validate checks a clustering without the ILP: the clusters can be run in some order (no
// cycle), no fusion-preventing edge lies inside a cluster, externals are alone, and every two
// bindings of a cluster have the same iteration size or compatible concestors that are in the
// cluster too (section 1.3.6). sameSizeOnly checks the Megiddo-Sarkar variant, where bindings of
// different iteration sizes never share a cluster. It returns every problem found.
func Validate(g *Graph, of []int, sameSizeOnly bool) []string {
	var problems []string
	if _, err := NewClustering(g, of); err != nil {
		problems = append(problems, err.Error())
	}
	for _, e := range g.Edges {
		if e.Preventing && of[e.From.ID] == of[e.To.ID] {
			problems = append(problems, fmt.Sprintf("%s and %s share a cluster across a fusion-preventing edge", e.From.Name, e.To.Name))
		}
	}
	byCluster := map[int][]int{}
	for i := range g.Nodes {
		byCluster[of[i]] = append(byCluster[of[i]], i)
	}
	labels := make([]int, 0, len(byCluster))
	for l := range byCluster {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for _, l := range labels {
		members := byCluster[l]
		for x, i := range members {
			for _, j := range members[x+1:] {
				a, b := g.Nodes[i], g.Nodes[j]
				switch {
				case a.External() || b.External():
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster, but externals must be alone", a.Name, b.Name))
				case g.sameIter(i, j):
				case sameSizeOnly:
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster with different iteration sizes", a.Name, b.Name))
				default:
					ca, cb, _, ok := g.Sizes.Concestors(a.Binding, b.Binding)
					if !ok {
						problems = append(problems, fmt.Sprintf("%s and %s share a cluster with unrelated iteration sizes", a.Name, b.Name))
					} else if A, B := g.nodeOf(ca), g.nodeOf(cb); of[A] != of[i] || of[B] != of[i] {
						problems = append(problems, fmt.Sprintf("%s and %s share a cluster without their concestors %s and %s", a.Name, b.Name, ca.Name(), cb.Name()))
					}
				}
			}
		}
	}
	return problems
}
