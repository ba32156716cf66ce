package cluster

import (
	"bytes"
	"context"
	"fmt"
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
		g := NewGraph(genSizes(t, 12))
		res, err := Solve(context.Background(), g, Options{})
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
		colors := res.Clustering.Colors()
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
