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
// Separation is heuristic (exact separation is NP-hard): for each s, the nodes t with y_st > 0
// are taken in decreasing y_st, each kept if it adds more to the left-hand side than it takes
// away (y_st > Σ y_tt' over those kept), and the set is a cut when the sum passes 1. The set
// is grown from each of the starts nodes nearest s in turn: the one grown from the nearest
// misses the fans whose nodes share a loop with it less than with one another. The root loop
// grows one a round, and starStarts when nothing else is violated (on `fans` 100 seed 2 the
// converged bound 569,770 -> 575,092; four a round from the start made each round slower, and
// under the 2 s default the loop got fewer rounds and read worse clusterings).

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
	for p, c := range m.x {
		col[p[0]*n+p[1]], col[p[1]*n+p[0]] = c, c
		if m.Vars[c].Lo < 1 && values[c] < 1-eps {
			near[p[0]] = append(near[p[0]], p[1])
			near[p[1]] = append(near[p[1]], p[0])
		}
	}
	y := func(i, j int) float64 {
		if c := col[i*n+j]; c >= 0 {
			return 1 - math.Min(1, math.Max(0, values[c]))
		}
		return 0
	}
	var cuts []pathCut
	seen := map[string]bool{}
	var set []int
	for s := 0; s < n; s++ {
		cand := near[s]
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
			for _, t := range cand {
				if t == cand[first] {
					continue
				}
				add := y(s, t)
				for _, u := range set {
					add -= y(t, u)
				}
				if add > eps {
					set = append(set, t)
					lhs += add
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
