package lsp

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
)

// loopNumber is the 1-based number of a cluster among the loops (externals are not loops).
func loopNumber(cl *cluster.Clustering, index int) int {
	n := 0
	for _, c := range cl.Clusters[:index+1] {
		if !c.External() {
			n++
		}
	}
	return n
}

// whyNot explains, for each other loop, why node n is not in it: a fusion-preventing path
// (its edges and their reasons), sizes with no common transducer ancestor, an external, or cost
// (moving n there would be valid but raise the objective, by how much).
func whyNot(b *strings.Builder, fl *funcLoops, n int) {
	g := fl.report.Graph
	cl := fl.report.Ours.Clustering
	mine := cl.Of[n]
	var lines []string
	for _, c := range cl.Clusters {
		if c.Index == mine || c.External() {
			continue
		}
		reason := ""
		for _, m := range c.Nodes {
			if path := fpPath(g, n, m.ID); path != "" {
				reason = path
				break
			}
			if path := fpPath(g, m.ID, n); path != "" {
				reason = path
				break
			}
		}
		if reason == "" && g.Nodes[n].External() {
			reason = "it is an external: a host call between loops"
		}
		if reason == "" {
			for _, m := range c.Nodes {
				a, bb := g.Nodes[n].Binding, m.Binding
				if !g.Sizes.SameIter(a, bb) {
					if _, _, _, ok := g.Sizes.Concestors(a, bb); !ok {
						reason = fmt.Sprintf("its iteration size and %s's are unrelated: no common transducer ancestor (a filter, take, drop, slice or tail both descend from)", m.Name)
						break
					}
				}
			}
		}
		if reason == "" {
			if fs, ok := fl.forcedResult(n, c.Index); ok {
				if fs.ok {
					reason = fmt.Sprintf("cost: the best clustering that puts it with %s has objective %d, against %d (+%d; re-solved with the two forced together)",
						c.Nodes[0].Name, fs.objective, fl.report.Ours.Objective, fs.objective-fl.report.Ours.Objective)
				} else {
					reason = fmt.Sprintf("no valid clustering puts it with %s", c.Nodes[0].Name)
				}
			}
		}
		if reason == "" {
			labels := append([]int(nil), cl.Of...)
			labels[n] = c.Index
			if problems := cluster.Validate(g, labels, false); len(problems) > 0 {
				reason = "moving it there alone is invalid: " + problems[0]
			} else if moved, err := cluster.NewClustering(g, labels); err == nil {
				reason = fmt.Sprintf("cost: moving it there alone is valid but raises the objective from %d to %d (+%d)", cl.Cost(), moved.Cost(), moved.Cost()-cl.Cost())
			}
		}
		lines = append(lines, fmt.Sprintf("- not in loop %d (%s): %s", loopNumber(cl, c.Index), joinNames(c.Names()), reason))
	}
	if len(lines) > 0 {
		fmt.Fprintf(b, "\n\n**Why not in another loop?**\n%s", strings.Join(lines, "\n"))
	}
}

// fpPath describes a path from a to b that contains a fusion-preventing edge, or returns "".
func fpPath(g *cluster.Graph, a, b int) string {
	if g.Possible(a, b) {
		return ""
	}
	// Breadth-first over edges, tracking whether a fusion-preventing edge was crossed.
	type state struct {
		node int
		fp   bool
	}
	prev := map[state]*cluster.Edge{}
	from := map[state]state{}
	start := state{a, false}
	queue := []state{start}
	seen := map[state]bool{start: true}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur.node == b && cur.fp {
			var steps []string
			for st := cur; st != start; st = from[st] {
				e := prev[st]
				step := fmt.Sprintf("%s → %s", e.From.Name, e.To.Name)
				if e.Preventing {
					step += " (" + e.Reasons[0] + ")"
				}
				steps = append([]string{step}, steps...)
			}
			return "a fusion-preventing path: " + strings.Join(steps, ", ")
		}
		for _, e := range g.Out(cur.node) {
			next := state{e.To.ID, cur.fp || e.Preventing}
			if !seen[next] {
				seen[next] = true
				prev[next] = e
				from[next] = cur
				queue = append(queue, next)
			}
		}
	}
	return ""
}
