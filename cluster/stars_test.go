package cluster

import (
	"slices"
	"testing"
)

// A node read alongside three nodes that can never share a loop with one another, half in the
// loop of each: every path inequality holds (each pair of the three is a chain of two at
// x = 1/2 + 1/2), and only the star inequality over the three cuts it.
func TestStarCutsAFan(t *testing.T) {
	m := &Model{N: 4, Vars: []Var{{Name: "x01", Kind: Binary, Hi: 1}, {Name: "x02", Kind: Binary, Hi: 1}, {Name: "x03", Kind: Binary, Hi: 1}},
		x: newPairCols(4)}
	m.x.set(0, 1, 0)
	m.x.set(0, 2, 1)
	m.x.set(0, 3, 2)
	half := []float64{0.5, 0.5, 0.5}
	if cuts := m.separatePaths(half, 100); len(cuts) != 0 {
		t.Fatalf("path inequalities cut the half fan: %v", cuts)
	}
	cuts := m.separateStars(half, 100, starStarts)
	if len(cuts) != 1 {
		t.Fatalf("%d star inequalities, want 1: %v", len(cuts), cuts)
	}
	c := cuts[0]
	cols := []int{}
	for _, term := range c.Terms {
		if term.Coef != 1 {
			t.Fatalf("a term %v in a star over nodes that never share a loop", term)
		}
		cols = append(cols, term.Var)
	}
	slices.Sort(cols)
	// s shares a loop with one of the three at most: x01 + x02 + x03 >= 2.
	if !slices.Equal(cols, []int{0, 1, 2}) || c.Lo != 2 {
		t.Fatalf("the cut is %v >= %v, want x01 + x02 + x03 >= 2", c.Terms, c.Lo)
	}
	// With the three free to share a loop (pairs with columns at 1/2), the star holds: all four
	// in one loop is a clustering.
	m.Vars = append(m.Vars, Var{Name: "x12", Kind: Binary, Hi: 1}, Var{Name: "x13", Kind: Binary, Hi: 1}, Var{Name: "x23", Kind: Binary, Hi: 1})
	m.x.set(1, 2, 3)
	m.x.set(1, 3, 4)
	m.x.set(2, 3, 5)
	if cuts := m.separateStars([]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 100, starStarts); len(cuts) != 0 {
		t.Fatalf("a star inequality cuts values within the clusterings' hull: %v", cuts)
	}
}

// The fan of fans 100 seed 2 that the stars missed: s (node 0) wholly in one loop with two
// nodes (1 and 2: y = 1 among the three), and half in the loop of each of three nodes that
// never share one with one another (3, 4, 5; and 1 and 2 half with them too). Every path
// inequality holds; the star of s over 3, 4 and 5 is violated by 1/2, and must be found from
// one start (the root loop's rounds grow one): the nodes at y = 1, taken first, added nothing
// and kept the three out.
func TestStarPastTwins(t *testing.T) {
	m := &Model{N: 6, x: newPairCols(6)}
	var values []float64
	pair := func(i, j int, x float64) {
		m.x.set(i, j, len(m.Vars))
		m.Vars = append(m.Vars, Var{Name: "x", Kind: Binary, Hi: 1})
		values = append(values, x)
	}
	pair(0, 1, 0)
	pair(0, 2, 0)
	pair(1, 2, 0)
	for i := 0; i < 3; i++ {
		for k := 3; k < 6; k++ {
			pair(i, k, 0.5)
		}
	}
	if cuts := m.separatePaths(values, 100); len(cuts) != 0 {
		t.Fatalf("path inequalities cut the values: %v", cuts)
	}
	cuts := m.separateStars(values, 100, 1)
	if len(cuts) == 0 {
		t.Fatal("no star inequality found")
	}
	for _, c := range cuts {
		if lhs := activity(c, values); lhs >= c.Lo-1e-9 {
			t.Errorf("the cut %v >= %v is not violated (%v)", c.Terms, c.Lo, lhs)
		}
		if len(c.Terms) != 3 || c.Lo != 2 {
			t.Errorf("the cut is %v >= %v, want a star over the three (3 terms >= 2)", c.Terms, c.Lo)
		}
	}
}
