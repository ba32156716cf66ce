package present

import (
	"bytes"
	"context"
	"fmt"
	"github.com/cnf-tools/cnf/cluster"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The diagram of any clustering numbers its loops 1..L, as LoopNumber does everywhere else
// (externals are not loops), fills each with its colour (Clustering.Colors), marks every fusion-preventing
// edge (and only those) red with class "preventing" and the reasons as its tooltip, and
// labels no edge with the name its source already shows.
func TestDOTLoopsAndEdges(t *testing.T) {
	frame := regexp.MustCompile(`label="loop (\d+)"; style="rounded,filled"; color="([^"]+)"; fillcolor="([^"]+)"`)
	edge := regexp.MustCompile(`(?m)^  "(in|arr|n):([^"]+)" -> "n:([^"]+)"(?: \[(.*)\])?;$`)
	rapid.Check(t, func(t *rapid.T) {
		g := cluster.NewGraph(genSizes(t, 12))
		res, err := cluster.Solve(context.Background(), g, cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteDOT(&b, res.Clustering, DOTOptions{Title: "t", Legend: true}); err != nil {
			t.Fatal(err)
		}
		dot := b.String()
		frames := frame.FindAllStringSubmatch(dot, -1)
		if len(frames) != res.Loops() {
			t.Fatalf("%d loop frames for %d loops:\n%s", len(frames), res.Loops(), dot)
		}
		seen := map[string]bool{}
		colors := Colors(res.Clustering)
		for _, f := range frames {
			var k int
			fmt.Sscan(f[1], &k)
			if k < 1 || k > res.Loops() || seen[f[1]] {
				t.Fatalf("loop frame %q (of %d loops):\n%s", f[1], res.Loops(), dot)
			}
			seen[f[1]] = true
			if f[2] != colors[k] || f[3] != colors[k]+"33" {
				t.Fatalf("loop %d drawn in %s/%s, its colour is %s", k, f[2], f[3], colors[k])
			}
		}
		if !strings.Contains(dot, Legend) {
			t.Fatalf("no legend:\n%s", dot)
		}
		preventing := 0
		for _, e := range g.Edges {
			if e.Preventing {
				preventing++
			}
		}
		red := 0
		for _, m := range edge.FindAllStringSubmatch(dot, -1) {
			kind, src, attrs := m[1], m[2], m[4]
			if strings.Contains(attrs, "color=red") {
				red++
				if !strings.Contains(attrs, `class="preventing"`) || !strings.Contains(attrs, "tooltip=") {
					t.Fatalf("red edge without class or reason: %s", m[0])
				}
			}
			if l := regexp.MustCompile(`label="([^"]+)"`).FindStringSubmatch(attrs); l != nil && (kind != "n" || l[1] == src) {
				t.Fatalf("edge labelled with what its source shows: %s", m[0])
			}
		}
		// Each preventing edge is drawn once per value it carries: at least once.
		if (preventing == 0) != (red == 0) || red < preventing {
			t.Fatalf("%d preventing edges, %d red:\n%s", preventing, red, dot)
		}
	})
}

// A collapsed diagram draws each loop not expanded as one box (and none of its bindings), each
// expanded loop as a frame; every edge between two drawn nodes appears once (bundles, as wide as
// the edges they stand for), red exactly when a fusion-preventing edge of the graph runs
// between the two, and no edge runs from a box to itself.
func TestDOTCollapsed(t *testing.T) {
	box := regexp.MustCompile(`(?m)^  "loop:(\d+)" \[shape=box`)
	frame := regexp.MustCompile(`label="loop (\d+)"; style="rounded,filled"`)
	edge := regexp.MustCompile(`(?m)^  "([^"]+)" -> "([^"]+)"(?: \[(.*)\])?;$`)
	rapid.Check(t, func(t *rapid.T) {
		g := cluster.NewGraph(genSizes(t, 14))
		res, err := cluster.Solve(context.Background(), g, cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cl := res.Clustering
		expanded := map[int]bool{}
		for k := 1; k <= cl.Loops(); k++ {
			expanded[k] = rapid.Bool().Draw(t, fmt.Sprintf("expand%d", k))
		}
		var b bytes.Buffer
		if err := WriteDOT(&b, cl, DOTOptions{Title: "t", Collapse: true, Expanded: expanded}); err != nil {
			t.Fatal(err)
		}
		dot := b.String()
		boxes, frames := map[int]bool{}, map[int]bool{}
		for _, m := range box.FindAllStringSubmatch(dot, -1) {
			var k int
			fmt.Sscan(m[1], &k)
			boxes[k] = true
		}
		for _, m := range frame.FindAllStringSubmatch(dot, -1) {
			var k int
			fmt.Sscan(m[1], &k)
			frames[k] = true
		}
		at := map[string]string{} // binding -> the node that stands for it
		for _, c := range cl.Clusters {
			k := cl.LoopNumber(c.Index)
			collapsed := !c.External() && !expanded[k]
			if !c.External() && (boxes[k] != collapsed || frames[k] == collapsed) {
				t.Fatalf("loop %d (expanded %v): box %v, frame %v:\n%s", k, expanded[k], boxes[k], frames[k], dot)
			}
			for _, nd := range c.Nodes {
				drawn := strings.Contains(dot, fmt.Sprintf("%q [shape=ellipse", "n:"+nd.Name))
				if drawn == collapsed {
					t.Fatalf("binding %s of loop %d (collapsed %v) drawn %v:\n%s", nd.Name, k, collapsed, drawn, dot)
				}
				at[nd.Name] = "n:" + nd.Name
				if collapsed {
					at[nd.Name] = fmt.Sprintf("loop:%d", k)
				}
			}
		}
		red := map[[2]string]bool{}
		for _, e := range g.Edges {
			if e.Preventing {
				red[[2]string{at[e.From.Name], at[e.To.Name]}] = true
			}
		}
		seen := map[[2]string]bool{}
		for _, m := range edge.FindAllStringSubmatch(dot, -1) {
			key := [2]string{m[1], m[2]}
			if seen[key] || m[1] == m[2] {
				t.Fatalf("edge %s twice, or to itself:\n%s", m[0], dot)
			}
			seen[key] = true
			if strings.Contains(m[3], "color=red") && !strings.HasPrefix(m[1], "arr:") && !red[key] {
				t.Fatalf("red edge %s without a preventing edge between its ends:\n%s", m[0], dot)
			}
		}
		for key := range red {
			if !strings.HasPrefix(key[0], "loop:") && !strings.HasPrefix(key[1], "loop:") {
				continue // drawn through an array box when materialised: the first test's case
			}
			found := false
			for k := range seen {
				if k[1] == key[1] && (k[0] == key[0] || strings.HasPrefix(k[0], "arr:")) {
					found = true
				}
			}
			if !found {
				t.Fatalf("no edge into %s for the preventing edge from %s:\n%s", key[1], key[0], dot)
			}
		}
	})
}
