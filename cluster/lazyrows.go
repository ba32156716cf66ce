package cluster

import "math"

// Concestor rows checked lazily: the root loop's relaxation (rootcuts.go) starts without the rows
// of section 1.4.3 that bound a pair of different iteration sizes by its concestors (x_AB ≤ x_ij
// and the like), and adds those its solution violates, each round, beside the cuts; like a cut,
// one the relaxation leaves slack leaves the LP again. They are most of the model's rows on
// programs with many sizes (three quarters of them on fans programs) and almost all slack, and
// with the triangle inequalities (triangles.go) every round's LP grew by thousands of rows, so
// carrying them all slowed every round (docs/performance.md, "Behind the code", L1). The loop
// ends only when none is violated, so what it settles (settle) keeps to them; its bound is a
// bound all the same (a relaxation with fewer rows), and the search gets the whole model.

// atLeast is r, a row with one finite bound, as a row with a lower bound only (Lo ≤ Σ), as
// the loop's cuts are: a row Σ ≤ Hi becomes -Σ ≥ -Hi.
func atLeast(r Row) Row {
	if !math.IsInf(r.Lo, -1) {
		return r
	}
	neg := Row{Name: r.Name, Terms: make([]Term, len(r.Terms)), Lo: -r.Hi, Hi: math.Inf(1)}
	for k, t := range r.Terms {
		neg.Terms[k] = Term{t.Var, -t.Coef}
	}
	return neg
}

// violatedRows returns the rows of rows (each a row with a lower bound only) that values
// violate by more than a tolerance.
func violatedRows(rows []Row, values []float64) []Row {
	var out []Row
	for _, r := range rows {
		if activity(r, values) < r.Lo-1e-6 {
			out = append(out, r)
		}
	}
	return out
}
