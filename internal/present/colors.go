package present

import (
	"slices"

	"github.com/cnf-tools/cnf/cluster"
)

// LoopColors is the palette of loops, one table for every place a loop has a colour (the
// diagram's frames, the editor's gutter), so a loop is the same colour everywhere. The first
// eight are Tableau's qualitative ten without its red and pink, which the diagram keeps for
// fusion-preventing edges; the next eight are their light partners (Tableau 20), for loops
// whose neighbours have taken the first eight. Each reads on light and dark backgrounds.
var LoopColors = [...]string{
	"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac",
	"#a0cbe8", "#ffbe7d", "#8cd17d", "#d4a6c8", "#86bcb6", "#f1ce63", "#d7b5a6", "#79706e",
}

// distinct is how many loops get a colour each, in order, without looking at neighbours.
const distinct = 8

// Colors gives each loop of the clustering (by loop number) a colour of LoopColors such that
// neighbouring loops never share one while the palette lasts: two loops are neighbours when
// an edge of the graph joins them (the diagram draws it) or when two bindings next to each
// other in the text belong to them. Loops take colours in order, each the first its coloured
// neighbours have not taken; a clustering of at most eight loops has each in its own colour,
// 1 to 8, as before. (Loop k in colour k mod 8 gave loops 2 and 10, next to each other in the
// text, the same orange.) Externals have none.
func Colors(cl *cluster.Clustering) map[int]string {
	loops := len(cl.Clusters)
	number := make([]int, loops) // cluster index -> loop number (0: an external)
	for i := range cl.Clusters {
		number[i] = cl.LoopNumber(i)
	}
	near := make([]map[int]bool, loops+1) // loop number -> its neighbours
	link := func(a, b int) {
		a, b = number[a], number[b]
		if a == 0 || b == 0 || a == b {
			return
		}
		if near[a] == nil {
			near[a] = map[int]bool{}
		}
		if near[b] == nil {
			near[b] = map[int]bool{}
		}
		near[a][b], near[b][a] = true, true
	}
	g := cl.Graph
	for _, e := range g.Edges {
		link(cl.Of[e.From.ID], cl.Of[e.To.ID])
	}
	byText := slices.Clone(g.Nodes)
	slices.SortStableFunc(byText, func(a, b *cluster.Node) int { return int(a.Binding.Range.Start - b.Binding.Range.Start) })
	for i := 1; i < len(byText); i++ {
		link(cl.Of[byText[i-1].ID], cl.Of[byText[i].ID])
	}
	colors := map[int]string{}
	n := 0 // loops
	for _, k := range number {
		n = max(n, k)
	}
	for k := 1; k <= n; k++ {
		if n <= distinct {
			colors[k] = LoopColors[k-1] // few loops: each its own colour, as always
			continue
		}
		taken := map[string]bool{}
		for m := range near[k] {
			taken[colors[m]] = true
		}
		colors[k] = LoopColors[(k-1)%len(LoopColors)] // when every colour is taken
		for _, c := range LoopColors {
			if !taken[c] {
				colors[k] = c
				break
			}
		}
	}
	return colors
}
