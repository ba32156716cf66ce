package cluster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Clustering is an assignment of the nodes of a graph to clusters (loops), numbered in an
// execution order: every cluster comes after the clusters it reads from.
type Clustering struct {
	Graph    *Graph
	Of       []int // node -> cluster
	Clusters []*Cluster
}

// Cluster is one loop (or one external call).
type Cluster struct {
	Index int
	Nodes []*Node // source order
	// Reads are the arrays the cluster reads that exist before it runs (parameters, or arrays
	// materialised by earlier clusters); ReadsScalars likewise for scalars.
	Reads, ReadsScalars []string
	// Writes are the arrays it materialises: results of the definition, arrays read by later
	// clusters, and every output of an external. Contracted are the arrays it produces that are
	// never materialised: every consumer is in the cluster.
	Writes, Contracted []string
	// Scalars are the scalars it produces (fold results, scalar outputs of externals).
	Scalars []string
}

// External reports whether the cluster is an external call (externals are always alone).
func (c *Cluster) External() bool { return len(c.Nodes) == 1 && c.Nodes[0].External() }

// Names returns the names of the cluster's bindings, in source order.
func (c *Cluster) Names() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Name
	}
	return out
}

// Loops counts the clusters that are loops (externals are host calls, not loops).
func (cl *Clustering) Loops() int {
	n := 0
	for _, c := range cl.Clusters {
		if !c.External() {
			n++
		}
	}
	return n
}

// LoopNumber is the 1-based number of cluster index among the loops, externals not counted (the
// numbering every view uses: text, JSON, diagram, lenses, hovers); 0 for an external.
func (cl *Clustering) LoopNumber(index int) int {
	if cl.Clusters[index].External() {
		return 0
	}
	n := 0
	for _, c := range cl.Clusters[:index+1] {
		if !c.External() {
			n++
		}
	}
	return n
}

// Loop returns the cluster that is loop number k (1-based, externals not counted), or nil.
func (cl *Clustering) Loop(k int) *Cluster {
	for _, c := range cl.Clusters {
		if !c.External() {
			if k--; k == 0 {
				return c
			}
		}
	}
	return nil
}

// String prints the clusters as {a, b} {c}.
func (cl *Clustering) String() string {
	var parts []string
	for _, c := range cl.Clusters {
		parts = append(parts, "{"+strings.Join(c.Names(), ", ")+"}")
	}
	return strings.Join(parts, " ")
}

// NewClustering builds a clustering from any labelling of the nodes (labels need not be dense
// or ordered). It fails if the clusters depend on each other in a cycle.
func NewClustering(g *Graph, labels []int) (*Clustering, error) {
	n := len(g.Nodes)
	dense := map[int]int{}
	of := make([]int, n)
	for i := range g.Nodes {
		l := labels[i]
		if _, ok := dense[l]; !ok {
			dense[l] = len(dense)
		}
		of[i] = dense[l]
	}
	k := len(dense)
	// Order clusters topologically by their dependencies; among ready clusters, the one whose
	// first binding comes first in the source.
	succ := make([][]int, k)
	for _, e := range g.Edges {
		if a, b := of[e.From.ID], of[e.To.ID]; a != b {
			succ[a] = append(succ[a], b)
		}
	}
	first := make([]int, k)
	for i := range first {
		first[i] = n
	}
	for i := range g.Nodes {
		first[of[i]] = min(first[of[i]], i)
	}
	order, ok := topological(k, func(c int) []int { return succ[c] }, func(a, b int) bool { return first[a] < first[b] })
	if !ok {
		return nil, fmt.Errorf("the clusters depend on each other in a cycle")
	}
	rank := make([]int, k)
	for r, c := range order {
		rank[c] = r
	}
	cl := &Clustering{Graph: g, Of: make([]int, n), Clusters: make([]*Cluster, k)}
	for r := range cl.Clusters {
		cl.Clusters[r] = &Cluster{Index: r}
	}
	for i, nd := range g.Nodes {
		cl.Of[i] = rank[of[i]]
		c := cl.Clusters[cl.Of[i]]
		c.Nodes = append(c.Nodes, nd)
	}
	cl.describe()
	return cl, nil
}

// describe fills in what each cluster reads, writes and contracts.
func (cl *Clustering) describe() {
	g := cl.Graph
	fn := g.Sizes.Func
	d := g.dataflow()
	results, producer, consumers := d.results, d.producer, d.consumers
	for _, c := range cl.Clusters {
		for _, nd := range c.Nodes {
			for _, v := range nd.Reads {
				if p := producer[v]; p == nil || cl.Of[p.ID] != c.Index {
					addUnique(&c.Reads, v)
				}
			}
			for _, v := range nd.ReadsScalars {
				if p := producer[v]; p == nil || cl.Of[p.ID] != c.Index {
					addUnique(&c.ReadsScalars, v)
				}
			}
			for _, id := range nd.Binding.Names {
				s := fn.Symbols[id.Name]
				if s == nil || s.Kind != syntax.Array {
					addUnique(&c.Scalars, id.Name)
					continue
				}
				materialised := results[id.Name] || nd.External()
				for _, user := range consumers[id.Name] {
					if cl.Of[user.ID] != c.Index {
						materialised = true
					}
				}
				if materialised {
					c.Writes = append(c.Writes, id.Name)
				} else {
					c.Contracted = append(c.Contracted, id.Name)
				}
			}
		}
	}
}

// dataflow is who produces and who reads each variable of the graph's definition, and its
// results: what describe asks of every clustering, made once a graph.
type dataflow struct {
	results   map[string]bool
	producer  map[string]*Node
	consumers map[string][]*Node // the nodes that read each variable
}

func (g *Graph) dataflow() *dataflow {
	g.flowOnce.Do(func() {
		d := &dataflow{results: map[string]bool{}, producer: map[string]*Node{}, consumers: map[string][]*Node{}}
		for _, r := range g.Sizes.Func.Def.Results {
			d.results[r.Name] = true
		}
		for _, nd := range g.Nodes {
			for _, id := range nd.Binding.Names {
				d.producer[id.Name] = nd
			}
			for _, v := range append(append([]string{}, nd.Reads...), nd.ReadsScalars...) {
				d.consumers[v] = append(d.consumers[v], nd)
			}
		}
		g.flow = d
	})
	return g.flow
}

func addUnique(xs *[]string, x string) {
	if !slices.Contains(*xs, x) {
		*xs = append(*xs, x)
	}
}

// Cost is the objective of Fig 1.14 for this clustering: for each possible pair that reads a
// common array or is joined by an edge and is split, the array's weight (N², less behind
// filters: weights.go), 1 for any other possible pair split, and N for each array-producing
// binding whose array some consumer reads from another cluster.
func (cl *Clustering) Cost() int {
	g := cl.Graph
	n := len(g.Nodes)
	cost := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if cl.Of[i] != cl.Of[j] && g.Possible(i, j) {
				cost += g.pairWeight(i, j)
			}
		}
	}
	for i, nd := range g.Nodes {
		if len(nd.Arrays) == 0 {
			continue
		}
		for _, e := range g.Out(i) {
			if cl.Of[e.To.ID] != cl.Of[i] {
				cost += n
				break
			}
		}
	}
	return cost
}

// Unfused is the clustering with one cluster per binding.
func Unfused(g *Graph) *Clustering {
	labels := make([]int, len(g.Nodes))
	for i := range labels {
		labels[i] = i
	}
	cl, err := NewClustering(g, labels)
	if err != nil {
		panic("cluster: the dependency graph has a cycle: " + err.Error())
	}
	return cl
}
