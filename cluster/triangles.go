package cluster

import (
	"container/heap"
	"math"
	"slices"
)

// Triangle inequalities: the path inequalities (paths.go) of two steps, separated over every
// triple of nodes rather than over the partners that Formulate's transitivity cuts (cuts.go)
// cover. For nodes i, j, k with x columns for ij and jk, every clustering satisfies
//
//	x_ik ≤ x_ij + x_jk   (i and k both in j's loop share it), and
//	x_ij + x_jk ≥ 1      when i and k can never share a loop (no column, or x_ik fixed at 1).
//
// A violated path inequality s - v1 - ... - t whose chords s-v(i) all have columns is the sum
// of triangle inequalities along its chords, at least one of them violated; so the root loop
// separates triangles first and paths only when no triangle is violated (for the chains whose
// chords are missing). Why: a path inequality states one chain, and on programs with many
// pairs of weight 1 (every pair of same-size bindings that read nothing in common, the `fans`
// shape) the relaxation answered each round's chains with others just as cheap: rounds of
// thousands of path inequalities raised the bound by tens. A triangle bounds every chain
// through its three pairs at once, and the loop proved such programs several times faster
// (docs/performance.md, "Behind the code", T1).
//
// Separation is exact and takes time cubic in the nodes at worst: for every pair ik with
// x_ik > 0 (or that can never share a loop), every j with columns to both.
//
// Which of those violated as much come first matters: early relaxations violate tens of
// thousands by 1 (30,000 on fans 100 seed 4), and a round takes a few thousand. The
// triangles of one node i all together hold better than as many spread over the graph (one
// per pair first: fans 100 seeds 1, 2, 4 1.4-2.1 times slower), and which nodes come first changes
// the loop's path: in program order (roots first, as programs are written) or from the
// nodes with the fewest pairs (sparseFirst), each was up to 1.8 times faster than the other
// on some fans programs, so the race's two loops take one each (LPOrderSolver).

// separateTriangles returns at most limit of the triangle inequalities that values violate,
// the most violated first; among those violated as much, the triangles of one node i (each
// pair ik from its earlier end) together, nodes in program order, or from the nodes with the
// fewest pairs when sparseFirst.
func (m *Model) separateTriangles(values []float64, limit int, sparseFirst bool) []Row {
	const eps = 1e-4
	n := m.N
	// col is the free x column of each ordered pair (-1: none, or fixed at 1: apart in every
	// clustering), x its value (1 for a pair apart), nbr each node's nodes with a column.
	col := make([]int, n*n)
	x := make([]float64, n*n)
	for k := range col {
		col[k], x[k] = -1, 1
	}
	nbr := make([][]int, n)
	m.x.each(func(i, k, c int) {
		if m.Vars[c].Lo >= 1 {
			return
		}
		v := math.Min(1, math.Max(0, values[c]))
		col[i*n+k], col[k*n+i], x[i*n+k], x[k*n+i] = c, c, v, v
		nbr[i], nbr[k] = append(nbr[i], k), append(nbr[k], i)
	})
	for _, a := range nbr {
		slices.Sort(a) // ties break alike in every run
	}
	order := make([]int, n) // the nodes i in the order their triangles are taken
	for i := range order {
		order[i] = i
	}
	if sparseFirst {
		slices.SortStableFunc(order, func(a, b int) int { return len(nbr[a]) - len(nbr[b]) })
	}
	pos := make([]int, n) // where each node is in order
	for p, i := range order {
		pos[i] = p
	}
	// The best limit triangles so far, the least violated (the latest found among equals) on
	// top: a relaxation may violate millions (n³ triples), too many to hold as rows.
	worse := func(a, b triangle) bool { return a.v < b.v || a.v == b.v && a.seq > b.seq }
	kept := &funcHeap[triangle]{less: worse}
	seq := 0
	for _, i := range order {
		for _, j := range nbr[i] {
			xij := x[i*n+j]
			if xij >= 1-eps {
				continue // x_ik ≤ 1 + x_jk always holds
			}
			for _, k := range nbr[j] {
				if pos[k] <= pos[i] || k == j {
					continue // each pair ik once, from its earlier end
				}
				v := x[i*n+k] - xij - x[j*n+k]
				if v <= eps {
					continue
				}
				t := triangle{i: i, j: j, k: k, v: v, seq: seq}
				seq++
				switch {
				case kept.Len() < limit:
					heap.Push(kept, t)
				case worse(kept.items[0], t):
					kept.items[0] = t
					heap.Fix(kept, 0)
				}
			}
		}
	}
	// Most violated first, in the order found among equals (as mostViolated orders paths).
	slices.SortFunc(kept.items, func(a, b triangle) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	rows := make([]Row, len(kept.items))
	for r, t := range kept.items {
		i, j, k := t.i, t.j, t.k
		rows[r] = Row{Name: "tri", Terms: []Term{{col[i*n+j], 1}, {col[j*n+k], 1}}, Lo: 1, Hi: math.Inf(1)}
		if c := col[i*n+k]; c >= 0 {
			rows[r].Terms, rows[r].Lo = append(rows[r].Terms, Term{c, -1}), 0
		}
	}
	return rows
}

// triangle is a violated triangle inequality of separateTriangles: the pair ik and the node j
// between, violated by v, the seq-th found.
type triangle struct {
	i, j, k, seq int
	v            float64
}
