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
		x: map[[2]int]int{{0, 1}: 0, {0, 2}: 1, {0, 3}: 2}}
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
	m.x[[2]int{1, 2}], m.x[[2]int{1, 3}], m.x[[2]int{2, 3}] = 3, 4, 5
	if cuts := m.separateStars([]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 100, starStarts); len(cuts) != 0 {
		t.Fatalf("a star inequality cuts values within the clusterings' hull: %v", cuts)
	}
}
