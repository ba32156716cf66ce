package cluster

import (
	"context"
	"slices"
	"testing"
)

// filteredProgram has a map read by a fold and a filter, the filter's output read by three
// maps, and a second filter behind the first (the weights' cases; the e2e's and lsp's
// rates.cnf is the same program).
const filteredProgram = `p :: Array Int -> Int -> (Array Int, Int, Array Int, Array Int, Array Int)
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

// A pair that shares an array behind d filters weighs N²/2^d (at least N), one that shares a
// parameter or an array of its own size N² (weights.go); and with those weights the optimum
// writes the filter's output rather than the map the filter reads, where Fig 1.14's weights
// (the literal form) write the map.
func TestFilteredArraysWeighLess(t *testing.T) {
	g := NewGraph(sizesOf(t, filteredProgram))
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

// Measured rates replace the guess (SetRates): an array behind a filter that kept everything
// weighs N², as if unfiltered; behind one that kept nothing, N; a rate of ½ weighs as the
// guess. The graph's key says which rates it was weighed with.
func TestMeasuredRatesReplaceTheGuess(t *testing.T) {
	sizes := sizesOf(t, filteredProgram)
	guess := NewGraph(sizes)
	n := len(guess.Nodes)
	pairs := [][2]string{{"m", "s"}, {"f", "a"}, {"a", "b"}, {"g", "h"}, {"b", "h"}}
	weights := func(g *Graph) []int {
		var w []int
		for _, p := range pairs {
			w = append(w, g.pairWeight(g.Node(p[0]).ID, g.Node(p[1]).ID))
		}
		return w
	}
	half := NewGraph(sizes)
	half.SetRates(Rates{"f": 0.5, "g": 0.5})
	if got, want := weights(half), weights(guess); !slices.Equal(got, want) {
		t.Errorf("rates of ½: weights %v, want the guess's %v", got, want)
	}
	if half.Key() == guess.Key() {
		t.Errorf("the key does not say the graph was weighed with measured rates")
	}
	measured := NewGraph(sizes)
	measured.SetRates(Rates{"f": 1, "g": 0, "m": 0.1}) // m is not a filter: its rate is not read
	want := []int{n * n, n * n, n * n, n, 1}
	if got := weights(measured); !slices.Equal(got, want) {
		t.Errorf("f kept all, g nothing: weights of %v = %v, want %v", pairs, got, want)
	}
	measured.SetRates(nil)
	if got, want := weights(measured), weights(guess); !slices.Equal(got, want) || measured.Key() != guess.Key() {
		t.Errorf("SetRates(nil): weights %v and key differ from the guess's %v", got, want)
	}
}
