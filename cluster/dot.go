package cluster

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// DOTOptions are the choices of a diagram.
type DOTOptions struct {
	// Title names the graph.
	Title string
	// Legend adds a line under the diagram that says what its shapes mean (a page that shows
	// its own legend leaves it out).
	Legend bool
}

// Legend is what the diagram's shapes mean, in one line.
const Legend = "box = array in memory · ellipse = binding · frame = loop · red ⊣ = cannot share a loop"

// WriteDOT prints a cluster diagram in Graphviz DOT, in the style of the thesis's figures:
// each loop a frame filled with its colour (LoopColor), numbered 1..L as everywhere else;
// externals in dashed frames; bindings as ellipses in source order; arrays in memory
// (parameters, and arrays read across clusters) as boxes; fusion-preventing edges red, with a
// bar at the producer and the reason as the edge's tooltip and class "preventing" (so a page
// can style them); scalar edges with open arrowheads. An edge is labelled only with what its
// source does not already say (a binding of several names read by one of them).
func WriteDOT(w io.Writer, cl *Clustering, opt DOTOptions) error {
	g := cl.Graph
	fn := g.Sizes.Func
	bw := bufio.NewWriter(w)
	q := dotQuote
	fmt.Fprintf(bw, "digraph %s {\n", q(opt.Title))
	bw.WriteString("  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	if opt.Legend {
		fmt.Fprintf(bw, "  label=%s; labelloc=b; fontname=\"Helvetica\"; fontsize=9;\n", q(Legend))
	}
	// Input arrays and scalars: boxes (in memory) and plain text.
	for _, p := range fn.Params {
		shape := "plaintext"
		if g.Sizes.Size(p.Name) != nil {
			shape = "box"
		}
		fmt.Fprintf(bw, "  %s [shape=%s, label=%s];\n", q("in:"+p.Name), shape, q(p.Name))
	}
	// Lengths known before any loop are inputs too.
	for _, b := range g.Known {
		l, _ := g.Sizes.LengthOf(b)
		fmt.Fprintf(bw, "  %s [shape=plaintext, label=%s];\n", q("in:"+b.Name()), q(b.Name()+" = "+syntax.FormatExpr(l.Known)))
	}
	// Clusters in the order of their first binding in the source, so that the layout starts
	// from the order the user reads.
	colors := cl.Colors()
	order := slices.Clone(cl.Clusters)
	slices.SortStableFunc(order, func(a, b *Cluster) int { return firstID(a) - firstID(b) })
	for _, c := range order {
		k := cl.LoopNumber(c.Index)
		if c.External() {
			fmt.Fprintf(bw, "  subgraph %s {\n    label=\"external\"; style=dashed; fontsize=10;\n", q(fmt.Sprintf("cluster_%d", c.Index)))
		} else {
			col := colors[k]
			fmt.Fprintf(bw, "  subgraph %s {\n    label=%s; style=\"rounded,filled\"; color=%s; fillcolor=%s; penwidth=1.5; fontsize=10; class=%s;\n",
				q(fmt.Sprintf("cluster_%d", c.Index)), q(fmt.Sprintf("loop %d", k)), q(col), q(col+"33"), q(fmt.Sprintf("loop loop%d", k)))
		}
		for _, nd := range c.Nodes {
			fmt.Fprintf(bw, "    %s [shape=ellipse, label=%s, id=%s];\n", q("n:"+nd.Name), q(nodeNames(nd)+" = "+nd.Combinator()), q("binding:"+nd.Name))
		}
		bw.WriteString("  }\n")
	}
	// Arrays in memory as boxes between their producer and consumers.
	materialised := map[string]bool{}
	for _, c := range order {
		for _, a := range c.Writes {
			materialised[a] = true
			fmt.Fprintf(bw, "  %s [shape=box, label=%s];\n", q("arr:"+a), q(a))
		}
	}
	producer := map[string]*Node{}
	for _, nd := range g.Nodes {
		for _, id := range nd.Binding.Names {
			producer[id.Name] = nd
		}
		for _, a := range nd.Arrays {
			if materialised[a] {
				fmt.Fprintf(bw, "  %s -> %s;\n", q("n:"+nd.Name), q("arr:"+a))
			}
		}
	}
	for _, nd := range g.Nodes {
		for _, v := range nd.Reads {
			src, label := "in:"+v, ""
			if p := producer[v]; p != nil {
				src = "n:" + p.Name
				if materialised[v] {
					src = "arr:" + v
				} else if p.Name != v {
					label = v
				}
			}
			bw.WriteString(edgeLine(g, producer[v], nd, src, label, false))
		}
		for _, v := range nd.ReadsScalars {
			src, label := "in:"+v, ""
			if p := producer[v]; p != nil {
				src = "n:" + p.Name
				if p.Name != v {
					label = v
				}
			}
			bw.WriteString(edgeLine(g, producer[v], nd, src, label, true))
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// dotQuote is a DOT string.
func dotQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// firstID is the source position of a cluster's first binding.
func firstID(c *Cluster) int {
	id := c.Nodes[0].ID
	for _, nd := range c.Nodes {
		id = min(id, nd.ID)
	}
	return id
}

// nodeNames is what a binding binds: "x", or "a, b" for a binding of several names.
func nodeNames(nd *Node) string {
	names := make([]string, len(nd.Binding.Names))
	for i, id := range nd.Binding.Names {
		names[i] = id.Name
	}
	return strings.Join(names, ", ")
}

func edgeLine(g *Graph, from, to *Node, src, label string, scalar bool) string {
	var attrs []string
	if label != "" {
		attrs = append(attrs, "label="+dotQuote(label))
	}
	if scalar {
		attrs = append(attrs, "arrowhead=empty")
	}
	if from != nil {
		if e := g.Edge(from.ID, to.ID); e != nil && e.Preventing {
			reason := strings.Join(e.Reasons, "; ")
			attrs = append(attrs, "color=red", "arrowtail=tee", "dir=both", `class="preventing"`, "tooltip="+dotQuote(reason), "labeltooltip="+dotQuote(reason))
		}
	}
	if len(attrs) == 0 {
		return fmt.Sprintf("  %s -> %s;\n", dotQuote(src), dotQuote("n:"+to.Name))
	}
	return fmt.Sprintf("  %s -> %s [%s];\n", dotQuote(src), dotQuote("n:"+to.Name), strings.Join(attrs, ", "))
}
