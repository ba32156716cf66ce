package cluster

import (
	"cmp"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// separateTriangles finds every violated triangle inequality, each once, and with a limit
// returns the first limit of them in the same order (the most violated first). The count is
// checked against every triple of nodes enumerated by brute force; the values are arbitrary
// points of the unit cube, rounded to quarters so that many triangles are violated by equal
// amounts and the order among equals is tested too.
func TestTrianglesAreEveryViolatedOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 16)
		m := Formulate(g, FormulateOptions{SameSizeOnly: sameSize})
		quarters := rapid.Map(rapid.IntRange(0, 4), func(q int) float64 { return float64(q) / 4 })
		values := randomPoint(t, m, quarters)
		sparseFirst := rapid.Bool().Draw(t, "sparseFirst")
		all := m.separateTriangles(values, math.MaxInt, sparseFirst)
		if want := bruteTriangles(m, values); len(all) != want {
			t.Fatalf("%d violated triangles found, %d violated", len(all), want)
		}
		if !slices.IsSortedFunc(all, func(a, b Row) int { return cmp.Compare(violation(b, values), violation(a, values)) }) {
			t.Fatalf("not the most violated first")
		}
		limit := rapid.IntRange(1, max(1, len(all))).Draw(t, "limit")
		if diff := gocmp.Diff(all[:min(limit, len(all))], m.separateTriangles(values, limit, sparseFirst)); diff != "" {
			t.Fatalf("limit %d is not a prefix of all %d (-all +limited):\n%s", limit, len(all), diff)
		}
	})
}

// bruteTriangles counts the violated triangle inequalities over every triple: a pair ik (once)
// with x_ik (1 when it can never share a loop) above x_ij + x_jk for a j with free columns to
// both.
func bruteTriangles(m *Model, values []float64) int {
	const eps = 1e-4
	x := func(a, b int) (float64, bool) {
		c, ok := m.X(a, b)
		if !ok || m.Vars[c].Lo >= 1 {
			return 1, false
		}
		return values[c], true
	}
	count := 0
	for i := 0; i < m.N; i++ {
		for k := i + 1; k < m.N; k++ {
			xik, _ := x(i, k)
			for j := 0; j < m.N; j++ {
				xij, ok1 := x(i, j)
				xjk, ok2 := x(j, k)
				if j != i && j != k && ok1 && ok2 && xik-xij-xjk > eps {
					count++
				}
			}
		}
	}
	return count
}

// violation is how far values fall short of the row's lower bound.
func violation(r Row, values []float64) float64 { return r.Lo - activity(r, values) }
