package cluster

import (
	"math"
	"slices"

	"github.com/cnf-tools/cnf/cluster/internal/highs"
)

// The root loop's relaxation without Fig 1.14's π rows (rootcuts.go): the directed cycle
// inequalities (cycles.go) state the order of loops in x instead. What leaving π out takes:
// the rows to leave out, when an integral solution of it is a clustering, and the one solve
// with π again when the loop stops before the cuts have stated the order.

// splitOrder divides m's rows into those of Fig 1.14's ordering (prec, fuse, same and fp: a π
// column with a non-zero coefficient), the concestor rows (as lazyRows gives them), and the
// others. A row of π with zero coefficients, which says that pairs forced together cannot be
// (formulate's "impossible"), is among the others.
func (m *Model) splitOrder() (others, order, conc []Row) {
	isPi := make([]bool, len(m.Vars))
	for _, c := range m.pi {
		isPi[c] = true
	}
	others = make([]Row, 0, len(m.Rows))
	for k, r := range m.Rows {
		switch {
		case m.conc[0] <= k && k < m.conc[1]:
			conc = append(conc, atLeast(r))
		case slices.ContainsFunc(r.Terms, func(t Term) bool { return isPi[t.Var] && t.Coef != 0 }):
			order = append(order, r)
		default:
			others = append(others, r)
		}
	}
	return others, order, conc
}

// settle records an integral solution of the order-free relaxation that no inequality cuts
// off as the loop's answer. Its x are then a clustering: the path inequalities make them an
// equivalence that never joins a pair that cannot share a loop, the directed cycle
// inequalities make its loops acyclic, and the relaxation kept the concestor and contraction
// rows. It is checked all the same, and given π from the order of its loops.
func (r *rootResult) settle(m *Model, values []float64) {
	cl, err := readback(m, values)
	if err != nil || len(Validate(m.Graph, cl.Of, m.variant.SameSizeOnly)) > 0 {
		return // not expected; the search goes on from the relaxation
	}
	r.values = m.StartValues(cl)
	r.last, r.reduced = nil, nil
}

// ordered re-solves the loop's LP once with the π rows added, when the loop stopped before the
// cuts had stated the order (out of time, or stalled): the clustering read from a relaxation
// without π is then poor, worse than the greedy one, where the relaxation with π leads to the
// optimum (docs/performance.md, "Behind the code", O1). Its solution and reduced costs replace
// the loop's last (the bound only rises). It may take the solve's work (w's); if it cannot be
// solved, the loop's last stands.
func (r *rootResult) ordered(lp *highs.LP, order []Row, cols int, w *meter) {
	if w.out() || len(order) == 0 || lp.AddRows(highsRows(order)) != nil {
		return
	}
	// An iteration of this LP costs more than one of the loop's: the π rows are dense.
	rows := orderedFactor * lp.Rows()
	sol, err := lp.Solve(w.net, 0, w.iterations(rows, cols))
	if err == nil {
		w.spend(lpWork(sol, rows, cols))
	}
	if err != nil || sol.Status != highs.Optimal {
		return
	}
	r.last, r.reduced, r.readLast = sol.Values, sol.ReducedCosts, false
	r.bound = max(r.bound, sol.Objective)
}

// searchFollows reports whether HiGHS's search could begin after a loop whose solve has left
// work left, for a model of rows rows: whether what is left once the relaxation with π has
// had its share (orderedShare) covers the search's set-up (searchSetup), as rootStage asks
// after the loop.
func (r *rootResult) searchFollows(left float64, rows int) bool {
	return left*(1-orderedShare) >= r.searchSetup(rows)
}

// searchSetup estimates how long HiGHS's search of a model of rows rows takes before it heeds its
// time limit (presolve, its own set-up, which neither the clock nor the interrupt callback stops,
// and the first relaxation from scratch): the loop's first relaxation's time, scaled by how many
// more rows the search has (π's and the cuts') to the power 1.5, and by 1.5 for the noise of a
// busy machine. The power 1.5 skips a search that would overrun its limit; the square, used
// before, over-estimated small first LPs and skipped searches that prove the optimum in time
// (docs/performance.md, "Behind the code", O2). Zero when the loop solved no relaxation.
func (r *rootResult) searchSetup(rows int) float64 {
	if r.firstRows == 0 || r.firstLP <= 0 {
		return 0
	}
	f := max(float64(rows)/float64(r.firstRows), 1)
	return 1.5 * r.firstLP * f * math.Sqrt(f)
}
