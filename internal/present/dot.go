package present

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
)

// DOTOptions are the choices of a diagram.
type DOTOptions struct {
	// Title names the graph.
	Title string
	// Legend adds a line under the diagram that says what its shapes mean (a page that shows
	// its own legend leaves it out).
	Legend bool
	// Collapse draws each loop as one box that lists its bindings, except the loops in
	// Expanded (numbers 1..L); edges between two boxes are bundled into one, as wide as the
	// edges it stands for and red if any of them prevents fusion. A 35-binding clustering is
	// then readable in an editor's side group.
	Collapse bool
	Expanded map[int]bool
}

// CollapseAbove is the number of bindings above which a diagram starts collapsed in the
// editor: a clustering this large drawn whole is a thumbnail in a side group.
const CollapseAbove = 20

// Legend is what the diagram's shapes mean, in one line.
const Legend = "box = array in memory · ellipse = binding · frame = loop · red ⊣ = cannot share a loop"

// WriteDOT prints a cluster diagram in Graphviz DOT, in the style of the thesis's figures:
// each loop a frame filled with its colour (Colors), numbered 1..L as everywhere else;
// externals in dashed frames; bindings as ellipses in source order; arrays in memory
// (parameters, and arrays read across clusters) as boxes; fusion-preventing edges red, with a
// bar at the producer and the reason as the edge's tooltip and class "preventing" (so a page
// can style them); scalar edges with open arrowheads. An edge is labelled only with what its
// source does not already say (a binding of several names read by one of them).
func WriteDOT(w io.Writer, cl *cluster.Clustering, opt DOTOptions) error {
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
	colors := Colors(cl)
	order := slices.Clone(cl.Clusters)
	slices.SortStableFunc(order, func(a, b *cluster.Cluster) int { return firstID(a) - firstID(b) })
	// where is the DOT node that stands for a binding: its own, or its collapsed loop's box.
	where := map[string]string{}
	for _, c := range order {
		k := cl.LoopNumber(c.Index)
		for _, nd := range c.Nodes {
			where[nd.Name] = "n:" + nd.Name
		}
		if !opt.Collapse || c.External() || opt.Expanded[k] {
			continue
		}
		box := fmt.Sprintf("loop:%d", k)
		for _, nd := range c.Nodes {
			where[nd.Name] = box
		}
		col := colors[k]
		fmt.Fprintf(bw, "  %s [shape=box, style=\"rounded,filled\", color=%s, fillcolor=%s, penwidth=1.5, label=%s, id=%s, class=%s, tooltip=%s];\n",
			q(box), q(col), q(col+"55"), q(loopBoxLabel(k, c)), q(box), q(fmt.Sprintf("loopbox loop%d", k)), q(loopBoxTooltip(k, c)))
	}
	for _, c := range order {
		k := cl.LoopNumber(c.Index)
		if where[c.Nodes[0].Name] != "n:"+c.Nodes[0].Name {
			continue // drawn as its box
		}
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
	// Arrays in memory as boxes between their producer and consumers; a collapsed loop's arrays
	// are in its box's tooltip instead, and its edges go straight to their readers.
	materialised := map[string]bool{}
	for _, c := range order {
		if where[c.Nodes[0].Name] != "n:"+c.Nodes[0].Name {
			continue
		}
		for _, a := range c.Writes {
			materialised[a] = true
			fmt.Fprintf(bw, "  %s [shape=box, label=%s];\n", q("arr:"+a), q(a))
		}
	}
	producer := map[string]*cluster.Node{}
	edges := &edgeSet{index: map[[2]string]int{}}
	for _, nd := range g.Nodes {
		for _, id := range nd.Binding.Names {
			producer[id.Name] = nd
		}
		for _, a := range nd.Arrays {
			if materialised[a] {
				edges.add(g, nil, nd, where[nd.Name], "arr:"+a, "", false)
			}
		}
	}
	for _, nd := range g.Nodes {
		for _, v := range nd.Reads {
			src, label := "in:"+v, ""
			if p := producer[v]; p != nil {
				src = where[p.Name]
				if materialised[v] {
					src = "arr:" + v
				} else if p.Name != v {
					label = v
				}
			}
			edges.add(g, producer[v], nd, src, where[nd.Name], label, false)
		}
		for _, v := range nd.ReadsScalars {
			src, label := "in:"+v, ""
			if p := producer[v]; p != nil {
				src = where[p.Name]
				if p.Name != v {
					label = v
				}
			}
			edges.add(g, producer[v], nd, src, where[nd.Name], label, true)
		}
	}
	for _, e := range edges.list {
		bw.WriteString(e.line())
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// loopBoxLabel is a collapsed loop's label: its number and its bindings, a few to a line, at
// most four lines.
func loopBoxLabel(k int, c *cluster.Cluster) string {
	names := c.Names()
	var lines []string
	for i := 0; i < len(names); i += 4 {
		if len(lines) == 4 {
			lines[3] += fmt.Sprintf(" … +%d", len(names)-i)
			break
		}
		lines = append(lines, strings.Join(names[i:min(i+4, len(names))], ", "))
	}
	return fmt.Sprintf(`loop %d\n%s`, k, strings.Join(lines, `\n`)) // DOT's line breaks
}

// loopBoxTooltip says what a collapsed loop runs and writes to memory.
func loopBoxTooltip(k int, c *cluster.Cluster) string {
	tip := fmt.Sprintf("loop %d: %s", k, strings.Join(c.Names(), ", "))
	if len(c.Writes) > 0 {
		tip += "; writes " + strings.Join(c.Writes, ", ")
	}
	return tip + " (click to open)"
}

// dotEdge is an edge of the diagram: one edge of the graph, or a bundle of the edges between
// two collapsed loops (or a collapsed loop and another node).
type dotEdge struct {
	src, dst string
	label    string
	scalar   bool
	count    int
	reasons  []string // of the fusion-preventing edges among them
}

// edgeSet bundles edges by their two ends, in the order first seen.
type edgeSet struct {
	index map[[2]string]int
	list  []*dotEdge
}

func (s *edgeSet) add(g *cluster.Graph, from, to *cluster.Node, src, dst, label string, scalar bool) {
	if src == dst {
		return // inside a collapsed loop
	}
	var reasons []string
	if from != nil {
		if e := g.Edge(from.ID, to.ID); e != nil && e.Preventing {
			reasons = e.Reasons
		}
	}
	key := [2]string{src, dst}
	if i, ok := s.index[key]; ok {
		e := s.list[i]
		e.count++
		if e.label != label {
			e.label = ""
		}
		e.scalar = e.scalar && scalar
		for _, r := range reasons {
			e.reasons = append(e.reasons, from.Name+" → "+to.Name+": "+r)
		}
		return
	}
	e := &dotEdge{src: src, dst: dst, label: label, scalar: scalar, count: 1}
	if strings.HasPrefix(src, "loop:") || strings.HasPrefix(dst, "loop:") {
		for _, r := range reasons {
			e.reasons = append(e.reasons, from.Name+" → "+to.Name+": "+r)
		}
	} else {
		e.reasons = reasons
	}
	s.index[key] = len(s.list)
	s.list = append(s.list, e)
}

func (e *dotEdge) line() string {
	var attrs []string
	if e.label != "" && e.count == 1 {
		attrs = append(attrs, "label="+dotQuote(e.label))
	}
	if e.scalar {
		attrs = append(attrs, "arrowhead=empty")
	}
	if e.count > 1 {
		attrs = append(attrs, fmt.Sprintf("penwidth=%.1f", 1+math.Log2(float64(e.count))))
	}
	if len(e.reasons) > 0 {
		reason := strings.Join(e.reasons, "; ")
		attrs = append(attrs, "color=red", "arrowtail=tee", "dir=both", `class="preventing"`, "tooltip="+dotQuote(reason), "labeltooltip="+dotQuote(reason))
	}
	if len(attrs) == 0 {
		return fmt.Sprintf("  %s -> %s;\n", dotQuote(e.src), dotQuote(e.dst))
	}
	return fmt.Sprintf("  %s -> %s [%s];\n", dotQuote(e.src), dotQuote(e.dst), strings.Join(attrs, ", "))
}

// dotQuote is a DOT string.
func dotQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// firstID is the source position of a cluster's first binding.
func firstID(c *cluster.Cluster) int {
	id := c.Nodes[0].ID
	for _, nd := range c.Nodes {
		id = min(id, nd.ID)
	}
	return id
}

// nodeNames is what a binding binds: "x", or "a, b" for a binding of several names.
func nodeNames(nd *cluster.Node) string {
	names := make([]string, len(nd.Binding.Names))
	for i, id := range nd.Binding.Names {
		names[i] = id.Name
	}
	return strings.Join(names, ", ")
}
