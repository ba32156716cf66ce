package codegen

import (
	"errors"
	"fmt"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

// Loops whose processes do not fuse. Process fusion may fail on a cluster the clustering
// allows (a static deadlock, thesis §4.3.1: two processes pull a common stream in orders that
// one fused schedule cannot serve). Such a loop then runs its processes one after another
// through arrays in memory. When the loop has a blocked form (blocked.go) it needs no fused
// process and runs blocked (a cross or an append of arrays in memory drives a blocked loop);
// when it has none because it holds a cross or an append of an array made in the loop, each of
// those runs as a loop of its own and the bindings between them as loops of theirs, in source
// order (a dependency order, so the parts depend on each other without a cycle): each part
// blocked, or fused, where it can be. That moves no more bytes than one process a binding,
// the form it replaces, and runs vectorised loops instead of a state machine a binding.

// splitUnfused returns the clustering with such loops split into their parts, and for the
// first binding of each part a note for its comment; nil when no loop splits.
func (d *definition) splitUnfused(fused []*fuse.Fused) (*cluster.Clustering, map[string]string, error) {
	g := d.cl.Graph
	labels := make([]int, len(g.Nodes))
	stride := len(g.Nodes) + 1
	for i := range g.Nodes {
		labels[i] = d.cl.Of[i] * stride
	}
	notes := map[string]string{}
	loop := 0
	for _, f := range fused {
		if f.Cluster.External() {
			continue
		}
		loop++
		var fe *fuse.FusionError
		if f.Process != nil && f.Err == nil {
			// blockable is asked only of the rare loop with two drivers: plan asks it of
			// every loop again.
			if drivers(f.Cluster) < 2 {
				continue
			}
			if plan, why := d.blockable(f.Cluster); plan == nil && why == twoDrivers {
				d.splitApart(f.Cluster, loop, labels, stride, notes)
			}
			continue
		}
		if f.Process != nil || !errors.As(f.Err, &fe) {
			continue
		}
		if plan, _ := d.blockable(f.Cluster); plan != nil {
			continue
		}
		nodes := d.inOrder(f.Cluster.Nodes)
		var parts [][]*cluster.Node
		var cur []*cluster.Node
		for _, nd := range nodes {
			switch nd.Binding.Rhs.(type) {
			case *syntax.Cross, *syntax.Append:
				if len(cur) > 0 {
					parts = append(parts, cur)
				}
				parts = append(parts, []*cluster.Node{nd})
				cur = nil
			default:
				cur = append(cur, nd)
			}
		}
		if len(cur) > 0 {
			parts = append(parts, cur)
		}
		if len(parts) < 2 {
			continue
		}
		for k, part := range parts {
			for _, nd := range part {
				labels[nd.ID] = d.cl.Of[nd.ID]*stride + 1 + k
			}
			notes[part[0].Name] = fmt.Sprintf("part %d of %d of the clustering's loop %d: its processes do not fuse (%s with %s, a static deadlock; cnf fuse says more) and its %s is not blocked",
				k+1, len(parts), loop, fe.P, fe.Q, firstUnblocked(nodes))
		}
	}
	if len(notes) == 0 {
		return nil, nil, nil
	}
	cl, err := cluster.NewClustering(g, labels)
	if err != nil {
		return nil, nil, fmt.Errorf("splitting the loops whose processes do not fuse: %w", err)
	}
	return cl, notes, nil
}

// splitApart labels the parts of a loop that has no blocked form because two generates,
// appends or crosses would drive it, where its bindings fall into groups that pass nothing to
// each other (no binding of one reads what a binding of another makes). Its fused process runs
// such groups one after another, each an element at a time (classic 204: `cross b2 b2` and
// `cross b1 b3` in one loop, 1.2-1.4 times unfused's time, where each cross is a blocked loop
// of its own: docs/performance.md, "Independent parts apart"); as loops of their own, in
// source order, each is blocked where it can be. Parts that read the same array read it once
// each: an array a cross reads is a root of its pairs' count, and what an append or generate
// reads is read at the rate a scalar state machine moves, several times slower than a loop.
func (d *definition) splitApart(c *cluster.Cluster, loop int, labels []int, stride int, notes map[string]string) {
	nodes := d.inOrder(c.Nodes)
	group := make([]int, len(nodes))
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	maker := map[string]int{} // an array (or a fold's value) the loop makes, and its binding
	for i, nd := range nodes {
		for _, id := range nd.Binding.Names {
			maker[id.Name] = i
		}
	}
	for i, nd := range nodes {
		for _, a := range nd.Reads {
			if j, ok := maker[a]; ok {
				group[find(i)] = find(j)
			}
		}
	}
	var parts [][]*cluster.Node
	index := map[int]int{}
	for i, nd := range nodes {
		r := find(i)
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, nil)
		}
		parts[k] = append(parts[k], nd)
	}
	if len(parts) < 2 {
		return
	}
	for k, part := range parts {
		for _, nd := range part {
			labels[nd.ID] = d.cl.Of[nd.ID]*stride + 1 + k
		}
		notes[part[0].Name] = fmt.Sprintf("part %d of %d of the clustering's loop %d: its parts pass no array to each other, and two generates, appends or crosses would drive it, which no blocked loop does", k+1, len(parts), loop)
	}
}

// drivers counts a loop's generates, appends and crosses: the bindings that drive a blocked
// loop's blocks, at most one of which it has.
func drivers(c *cluster.Cluster) int {
	k := 0
	for _, nd := range c.Nodes {
		switch nd.Binding.Rhs.(type) {
		case *syntax.Generate, *syntax.Append, *syntax.Cross:
			k++
		}
	}
	return k
}

// firstUnblocked names the first cross or append of a loop's bindings.
func firstUnblocked(nodes []*cluster.Node) string {
	for _, nd := range nodes {
		switch nd.Binding.Rhs.(type) {
		case *syntax.Cross, *syntax.Append:
			return syntax.FormatCombinator(nd.Binding.Rhs)
		}
	}
	return "loop"
}
