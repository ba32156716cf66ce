package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Key is a canonical description of everything the clustering of a graph depends on, hashed:
// the nodes in order with their names, whether each is an external or makes arrays, its
// iteration size's class, its parent transducer and what it reads; which arrays are results;
// the edges with their kinds; and the filters' measured rates, if any. Worker expressions,
// literals, comments and positions are not part of it, so an edit inside a worker leaves the
// key unchanged and the clustering can be reused without a solve. Two graphs with the same key have the same model, baselines and
// greedy clustering.
func (g *Graph) Key() string {
	var b strings.Builder
	results := map[string]bool{}
	for _, r := range g.Sizes.Func.Def.Results {
		results[r.Name] = true
	}
	class := make([]int, len(g.Nodes))
	for i, nd := range g.Nodes {
		class[i] = -1
		if nd.Iter == nil {
			continue
		}
		for j := range i + 1 {
			if g.sameIter(i, j) {
				class[i] = j
				break
			}
		}
	}
	for i, nd := range g.Nodes {
		trans := "-"
		if t := g.Sizes.Trans(nd.Binding); t != nil {
			trans = t.Name()
		}
		reads := slices.Clone(nd.Reads)
		slices.Sort(reads)
		var res []string
		for _, a := range nd.Arrays {
			if results[a] {
				res = append(res, a)
			}
		}
		fmt.Fprintf(&b, "n %s ext=%v arrays=%d iter=%d trans=%s reads=%s results=%s\n",
			nd.Name, nd.External(), len(nd.Arrays), class[i], trans, strings.Join(reads, ","), strings.Join(res, ","))
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "e %d %d %v\n", e.From.ID, e.To.ID, e.Preventing)
	}
	// Measured filter rates change the weights (SetRates keeps only the filters'): in node
	// order.
	for _, nd := range g.Nodes {
		if r, ok := g.rates[nd.Name]; ok {
			fmt.Fprintf(&b, "r %d %v\n", nd.ID, r)
		}
	}
	// So do the rates of filters whose test is the same for every element (the text, not the
	// graph's shape, decides them).
	known := g.KnownRates()
	for _, nd := range g.Nodes {
		if r, ok := known[nd.Name]; ok {
			fmt.Fprintf(&b, "k %d %v\n", nd.ID, r)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Decision is a Result without its graph: the cluster of each binding by name, and how the
// clustering was found. It can be applied to another graph with the same Key (a later version
// of the same definition), or, mapped by name, start the solve of a changed one.
type Decision struct {
	Labels    map[string]int // node name -> cluster index
	Objective int
	Optimal   bool
	Note      string
	Bound     int
	Fallback  string
}

// Decision records the result's clustering and status.
func (r *Result) Decision() Decision {
	d := Decision{Labels: make(map[string]int, len(r.Of)), Objective: r.Objective, Optimal: r.Optimal, Note: r.Note, Bound: r.Bound, Fallback: r.Fallback}
	for i, nd := range r.Graph.Nodes {
		d.Labels[nd.Name] = r.Of[i]
	}
	return d
}

// Apply rebuilds the result on a graph with the same key as the decision's own.
func (d Decision) Apply(g *Graph) (*Result, error) {
	labels := make([]int, len(g.Nodes))
	for i, nd := range g.Nodes {
		l, ok := d.Labels[nd.Name]
		if !ok {
			return nil, fmt.Errorf("the decision has no cluster for %s", nd.Name)
		}
		labels[i] = l
	}
	cl, err := NewClustering(g, labels)
	if err != nil {
		return nil, err
	}
	if cost := cl.Cost(); cost != d.Objective {
		return nil, fmt.Errorf("the decision's objective %d is %d on this graph", d.Objective, cost)
	}
	return &Result{Clustering: cl, Objective: d.Objective, Optimal: d.Optimal, Note: d.Note, Bound: d.Bound, Fallback: d.Fallback}, nil
}

// LabelsFor maps the decision onto another graph by binding names, for a starting solution: a
// node the decision does not know gets a cluster of its own. The caller checks validity.
func (d Decision) LabelsFor(g *Graph) []int {
	labels := make([]int, len(g.Nodes))
	next := 0
	for _, l := range d.Labels {
		next = max(next, l+1)
	}
	for i, nd := range g.Nodes {
		if l, ok := d.Labels[nd.Name]; ok {
			labels[i] = l
		} else {
			labels[i] = next
			next++
		}
	}
	return labels
}
