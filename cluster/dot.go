package cluster

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// WriteDOT prints a cluster diagram in Graphviz DOT, in the style of the thesis's figures:
// each cluster a dotted box, bindings as nodes, materialised arrays (parameters, results and
// arrays read across clusters) as boxes, fusion-preventing edges marked with a bar and red,
// scalar edges with open arrowheads.
func WriteDOT(w io.Writer, cl *Clustering, title string) error {
	g := cl.Graph
	fn := g.Sizes.Func
	bw := bufio.NewWriter(w)
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
	fmt.Fprintf(bw, "digraph %s {\n", q(title))
	bw.WriteString("  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	// Input arrays and scalars: boxes (materialised) and plain text.
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
	for _, c := range cl.Clusters {
		label := fmt.Sprintf("loop %d", cl.LoopNumber(c.Index))
		if c.External() {
			label = "external"
		}
		fmt.Fprintf(bw, "  subgraph %s {\n    label=%s; style=dotted; fontsize=10;\n", q(fmt.Sprintf("cluster_%d", c.Index)), q(label))
		for _, nd := range c.Nodes {
			fmt.Fprintf(bw, "    %s [shape=ellipse, label=%s];\n", q("n:"+nd.Name), q(nd.Name+" = "+nd.Combinator()))
		}
		bw.WriteString("  }\n")
	}
	// Materialised arrays as boxes between their producer and consumers.
	materialised := map[string]bool{}
	for _, c := range cl.Clusters {
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
			src := "in:" + v
			if p := producer[v]; p != nil {
				src = "n:" + p.Name
				if materialised[v] {
					src = "arr:" + v
				}
			}
			bw.WriteString(edgeLine(g, q, producer[v], nd, src, v, false))
		}
		for _, v := range nd.ReadsScalars {
			src := "in:" + v
			if p := producer[v]; p != nil {
				src = "n:" + p.Name
			}
			bw.WriteString(edgeLine(g, q, producer[v], nd, src, v, true))
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func edgeLine(g *Graph, q func(string) string, from, to *Node, src, label string, scalar bool) string {
	attrs := []string{"label=" + q(label)}
	if scalar {
		attrs = append(attrs, "arrowhead=empty")
	}
	if from != nil {
		if e := g.Edge(from.ID, to.ID); e != nil && e.Preventing {
			attrs = append(attrs, "color=red", "arrowtail=tee", "dir=both", "tooltip="+q(strings.Join(e.Reasons, "; ")))
		}
	}
	return fmt.Sprintf("  %s -> %s [%s];\n", q(src), q("n:"+to.Name), strings.Join(attrs, ", "))
}
