package present

import (
	"github.com/cnf-tools/cnf/cluster"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// Neighbouring loops (an edge between them, or bindings next to each other in the text) never
// share a colour, on clusterings of many loops; a clustering of at most eight loops has each
// in its own colour, in order. (Loop k in colour k mod 8 gave loops 2 and 10, next to each
// other in the text, one orange.)
func TestNeighbouringLoopsDiffer(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, shape := range []string{"", "fans", "glued", "chains"} {
			src := gen.Program(rand.New(rand.NewPCG(seed, 0x636e66)), gen.Options{Bindings: 60, Shape: shape})
			g := cluster.NewGraph(sizesOf(t, src))
			cl := cluster.Unfused(g) // a loop per binding: many loops, many neighbours
			colors := Colors(cl)
			loops := 0
			for i := range cl.Clusters {
				loops = max(loops, cl.LoopNumber(i))
			}
			if len(colors) != loops {
				t.Fatalf("%d colours for %d loops", len(colors), loops)
			}
			check := func(a, b *cluster.Node, why string) {
				ka, kb := cl.LoopNumber(cl.Of[a.ID]), cl.LoopNumber(cl.Of[b.ID])
				if ka == 0 || kb == 0 || ka == kb {
					return
				}
				if colors[ka] == colors[kb] {
					t.Fatalf("seed %d %s: loops %d and %d (%s) are both %s", seed, shape, ka, kb, why, colors[ka])
				}
			}
			for _, e := range g.Edges {
				check(e.From, e.To, "an edge")
			}
			byText := slices.Clone(g.Nodes)
			slices.SortFunc(byText, func(a, b *cluster.Node) int { return int(a.Binding.Range.Start - b.Binding.Range.Start) })
			for i := 1; i < len(byText); i++ {
				check(byText[i-1], byText[i], "next to each other in the text")
			}
		}
	}
	small := cluster.Unfused(cluster.NewGraph(sizesOf(t, "f xs =\n  let a = map (+ 1) xs\n      b = map (+ 2) a\n      c = fold (+) 0 b\n  in  (b, c)\n")))
	colors := Colors(small)
	for k := 1; k <= 3; k++ {
		if colors[k] != LoopColors[k-1] {
			t.Fatalf("loop %d of 3: %s, want %s", k, colors[k], LoopColors[k-1])
		}
	}
}
