package cluster

import (
	"math"
	"slices"
)

// Star inequalities: cutting planes for the root loop (rootcuts.go) beside the path, convexity
// and directed cycle inequalities. They are the 2-partition inequalities of clique
// partitioning (Grötschel and Wakabayashi) whose one side is a single node.
//
// Write y = 1 - x for "shares a loop" (y = 0 for a pair that never does: no x column, or x
// fixed at 1). For a node s and a set T of other nodes, in every clustering
//
//	Σ_{t∈T} y_st - Σ_{t<t' in T} y_tt' ≤ 1:
//
// if k nodes of T share s's loop, the first sum is k and the second at least k(k-1)/2, and
// k - k(k-1)/2 ≤ 1 for every k. The path inequalities are the case |T| = 2. Where they are
// weak is a fan: s read alongside many nodes that cannot share a loop with one another (other
// sizes, fusion-preventing paths between them). Every pair of the fan then satisfies its path
// inequality at y_st = 1/2, so the relaxation puts s half in each of their loops and charges half
// of every separation; the star over them says that s shares a loop with one of them at most.
//
// In x, with P the pairs of T that have an x column:
//
//	Σ_{t∈T} x_st - Σ_{t<t' in T, with a column} x_tt' ≥ |T| - P - 1.
//
// Separation is heuristic (exact separation is NP-hard): for each s, the candidates are the
// nodes t with 0 < y_st < 1. A node the relaxation puts wholly in s's loop is left out: where
// the path inequalities hold it is s's twin in the relaxation (y_tu = y_su for every u), so it
// adds nothing to a violated set, and taken first it kept out the nodes that do (on `fans` 100
// seed 2 the star of a filter over three half-joined loops, 0.5 each and 0 between them,
// violated by 1/2, was missed because two nodes at y = 1 came first). From a start, the set
// grows by the candidate that adds the most to the left-hand side, y_st - Σ y_tu over those
// kept, while one adds anything, and is a cut when the sum passes 1 (the order of y alone,
// used before, let an early pick of the order block better ones). The set is grown from each of
// the starts candidates nearest s in turn. The root loop grows one a round, and starStarts
// when nothing else is violated (four a round from the start made each round slower, and
// under the default limit the loop got fewer rounds and read worse clusterings).

// starStarts is how many sets are grown from each node when one finds nothing.
const starStarts = 4

// separateStars returns at most limit of the star inequalities that values violate, the most
// violated first, growing starts sets from each node.
func (m *Model) separateStars(values []float64, limit, starts int) []Row {
	const eps = 1e-4
	n := m.N
	col := make([]int, n*n) // pair -> its x column, or -1
	for i := range col {
		col[i] = -1
	}
	near := make([][]int, n) // s -> the nodes t with y_st > 0
	m.x.each(func(i, j, c int) {
		col[i*n+j], col[j*n+i] = c, c
		if m.Vars[c].Lo < 1 && values[c] < 1-eps {
			near[i] = append(near[i], j)
			near[j] = append(near[j], i)
		}
	})
	y := func(i, j int) float64 {
		if c := col[i*n+j]; c >= 0 {
			return 1 - math.Min(1, math.Max(0, values[c]))
		}
		return 0
	}
	var cuts []pathCut
	seen := map[string]bool{}
	var set []int
	var gain []float64
	for s := 0; s < n; s++ {
		cand := slices.DeleteFunc(near[s], func(t int) bool { return y(s, t) >= 1-eps })
		if len(cand) < 2 {
			continue
		}
		slices.SortFunc(cand, func(a, b int) int {
			if ya, yb := y(s, a), y(s, b); ya != yb {
				if ya > yb {
					return -1
				}
				return 1
			}
			return a - b
		})
		for first := 0; first < min(starts, len(cand)); first++ {
			set = append(set[:0], cand[first])
			lhs := y(s, cand[first])
			// gain[k]: what candidate k would add to the left-hand side (-Inf once taken).
			gain = gain[:0]
			for k, t := range cand {
				if k == first {
					gain = append(gain, math.Inf(-1))
				} else {
					gain = append(gain, y(s, t)-y(t, cand[first]))
				}
			}
			for {
				at := -1
				for k := range cand {
					if gain[k] > eps && (at < 0 || gain[k] > gain[at]) {
						at = k
					}
				}
				if at < 0 {
					break
				}
				set = append(set, cand[at])
				lhs += gain[at]
				gain[at] = math.Inf(-1)
				for k, t := range cand {
					gain[k] -= y(t, cand[at])
				}
			}
			if len(set) < 3 || lhs <= 1+eps { // two nodes: a path inequality
				continue
			}
			row := m.starRow(s, set, col)
			if k := cutKey(row); !seen[k] {
				seen[k] = true
				cuts = append(cuts, pathCut{row: row, violation: lhs - 1})
			}
		}
	}
	return mostViolated(cuts, limit)
}

// starRow is the star inequality of s over set, in x (col: pair -> column, or -1).
func (m *Model) starRow(s int, set []int, col []int) Row {
	n := m.N
	set = slices.Sorted(slices.Values(set))
	row := Row{Name: "star", Hi: math.Inf(1)}
	pairs := 0
	for k, t := range set {
		row.Terms = append(row.Terms, Term{col[s*n+t], 1})
		for _, u := range set[k+1:] {
			if c := col[t*n+u]; c >= 0 {
				row.Terms = append(row.Terms, Term{c, -1})
				pairs++
			}
		}
	}
	row.Lo = float64(len(set) - pairs - 1)
	return row
}
