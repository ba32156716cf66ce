package cluster

// Budget bounds the ILP model of one definition. A definition whose model would be larger gets
// the greedy clustering, marked not proven optimal, instead of a model that could take
// gigabytes and minutes to build (a chain of 2,000 maps ran out of memory; 1,000 took 3.6 GB).
type Budget struct {
	Columns int // variables
	Rows    int // constraints
}

// DefaultBudget admits models of up to about 750 bindings: the memory HiGHS takes grows with the
// model, and a model past the budget took gigabytes before the budget existed
// (docs/performance.md, "Behind the code", B1).
var DefaultBudget = Budget{Columns: 300_000, Rows: 1_500_000}

func (b Budget) orDefault() Budget {
	if b.Columns <= 0 || b.Rows <= 0 {
		return DefaultBudget
	}
	return b
}

// Size is the size of an ILP model: its columns, a bound on its rows, and whether any of its
// pair variables is free (a pair that could share a loop; the others are fixed by Fig 1.14).
type Size struct {
	Columns, Rows int
	AnyFree       bool
}

// EstimateModel counts, without building it, the columns Formulate would make for a variant (one
// x per possible pair, π and c per node) and bounds its rows (precedence rows per pair, concestor
// rows per pair of different sizes, fusion-preventing rows per edge, and the transitivity cuts
// over partners). It takes O(n²) pair tests, cheap ones (the concestors of a pair, which cost
// more, are sought only until one pair is found free: counting all the free pairs of a long chain
// took far longer than solving it; docs/performance.md, "Behind the code", B2).
func EstimateModel(g *Graph, sameSizeOnly bool) Size {
	n := len(g.Nodes)
	sz := Size{Columns: 2 * n, Rows: 2 * len(g.Edges)}
	partners := make([]int, n)
	m := &Model{Graph: g}
	variant := FormulateOptions{SameSizeOnly: sameSizeOnly}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !g.Possible(i, j) {
				continue
			}
			sz.Columns++
			sz.Rows += 2
			if !g.sameIter(i, j) {
				sz.Rows += 3
			}
			if !sz.AnyFree && !m.neverFused(i, j, variant) {
				sz.AnyFree = true
			}
			if g.Partners(i, j) {
				partners[i]++
				partners[j]++
			}
		}
	}
	for _, p := range partners {
		sz.Rows += p * (p - 1) / 2
	}
	return sz
}
