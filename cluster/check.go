package cluster

import (
	"fmt"
	"slices"

	"github.com/cnf-tools/cnf/syntax"
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
				switch fault, ca, cb := g.pairFault(of, i, j, sameSizeOnly); fault {
				case faultExternal:
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster, but externals must be alone", a.Name, b.Name))
				case faultSizes:
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster with different iteration sizes", a.Name, b.Name))
				case faultUnrelated:
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster with unrelated iteration sizes", a.Name, b.Name))
				case faultConcestors:
					problems = append(problems, fmt.Sprintf("%s and %s share a cluster without their concestors %s and %s", a.Name, b.Name, ca.Name(), cb.Name()))
				}
			}
		}
	}
	return problems
}

// pairFault is why nodes i and j, in one cluster under of, cannot share it (section 1.3.6), or
// faultNone. ca and cb are their concestors when they have them.
type pairFault int

const (
	faultNone       pairFault = iota
	faultExternal             // externals are alone
	faultSizes                // different iteration sizes, in Megiddo and Sarkar's variant
	faultUnrelated            // iteration sizes without concestors
	faultConcestors           // the concestors are not in the cluster
)

func (g *Graph) pairFault(of []int, i, j int, sameSizeOnly bool) (fault pairFault, ca, cb *syntax.Binding) {
	a, b := g.Nodes[i], g.Nodes[j]
	switch {
	case a.External() || b.External():
		return faultExternal, nil, nil
	case g.sameIter(i, j):
		return faultNone, nil, nil
	case sameSizeOnly:
		return faultSizes, nil, nil
	}
	ca, cb, _, ok := g.Sizes.Concestors(a.Binding, b.Binding)
	switch {
	case !ok:
		return faultUnrelated, nil, nil
	case of[g.nodeOf(ca)] != of[i] || of[g.nodeOf(cb)] != of[i]:
		return faultConcestors, ca, cb
	}
	return faultNone, ca, cb
}
