package cluster

import (
	"context"
	"testing"
)

// A pair that shares an array behind d filters weighs N²/2^d (at least N), one that shares a
// parameter or an array of its own size N² (weights.go); and with those weights the optimum
// writes the filter's output rather than the map the filter reads, where Fig 1.14's weights
// (the literal form) write the map.
func TestFilteredArraysWeighLess(t *testing.T) {
	const src = `p :: Array Int -> Int -> (Array Int, Int, Array Int, Array Int, Array Int)
p xs n =
  let m = map (\x -> x + n) xs
      s = fold (+) 0 m
      f = filter (\x -> x > 3) m
      a = map (\x -> x + s) f
      b = map (\x -> x * s) f
      c = map (\x -> x - s) f
      g = filter (\x -> x > 5) a
      h = map (\x -> x + 1) g
  in  (a, s, b, c, h)
`
	g := NewGraph(sizesOf(t, src))
	n := len(g.Nodes)
	id := func(name string) int { return g.Node(name).ID }
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"m", "s", n * n},     // an edge carrying m, which is xs's size
		{"m", "f", n * n},     // the same
		{"s", "f", n * n},     // both read m
		{"f", "a", n * n / 2}, // an edge carrying f, behind one filter
		{"a", "b", n * n / 2}, // both read f
		{"g", "h", n * n / 4}, // behind two filters
		{"b", "h", 1},         // no edge, no common array
	} {
		if got := g.pairWeight(id(c.a), id(c.b)); got != c.want {
			t.Errorf("weight of (%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	res, err := Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	of := res.Clustering.Of
	if of[id("m")] != of[id("f")] || of[id("f")] == of[id("a")] {
		t.Errorf("the optimum %s does not write f: it should share m's loop and not a's", res.Clustering)
	}
	paper, err := SolveModel(context.Background(), Formulate(g, FormulateOptions{Paper: true}), SolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lit, err := readback(Formulate(g, FormulateOptions{Paper: true}), paper.Values)
	if err != nil {
		t.Fatal(err)
	}
	if lit.Of[id("m")] == lit.Of[id("f")] || lit.Of[id("f")] != lit.Of[id("a")] {
		t.Errorf("the literal form's optimum %s does not write m (Fig 1.14's weights)", lit)
	}
}
