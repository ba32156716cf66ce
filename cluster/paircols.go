package cluster

import "slices"

// pairCols maps the pairs of nodes {i, j} to the columns of their x variables. Up to
// denseNodes nodes it is a triangular array (formulating fans 800, 320,000 pairs, spent 40%
// of its time in a map's lookups); beyond, where most pairs can have no column, a map.
type pairCols struct {
	n      int
	dense  []int32 // column+1 of {i, j}, i < j, at j(j-1)/2 + i; 0: none
	sparse map[[2]int]int
}

// denseNodes is the most nodes pairCols keeps in a triangular array (8 million entries).
const denseNodes = 4096

func newPairCols(n int) pairCols {
	if n <= denseNodes {
		return pairCols{n: n, dense: make([]int32, n*(n-1)/2)}
	}
	return pairCols{n: n, sparse: map[[2]int]int{}}
}

// get returns the column of {i, j}, if the pair has one.
func (p *pairCols) get(i, j int) (int, bool) {
	if i > j {
		i, j = j, i
	}
	if i == j || i < 0 || j >= p.n {
		return -1, false
	}
	if p.dense != nil {
		c := p.dense[j*(j-1)/2+i]
		return int(c) - 1, c != 0
	}
	c, ok := p.sparse[[2]int{i, j}]
	return c, ok
}

// set gives {i, j} the column col.
func (p *pairCols) set(i, j, col int) {
	if i > j {
		i, j = j, i
	}
	if p.dense != nil {
		p.dense[j*(j-1)/2+i] = int32(col + 1)
		return
	}
	p.sparse[[2]int{i, j}] = col
}

// each calls f for every pair with a column, i < j, in order of j and then i.
func (p *pairCols) each(f func(i, j, col int)) {
	if p.dense != nil {
		k := 0
		for j := 1; j < p.n; j++ {
			for i := 0; i < j; i++ {
				if c := p.dense[k]; c != 0 {
					f(i, j, int(c)-1)
				}
				k++
			}
		}
		return
	}
	keys := make([][2]int, 0, len(p.sparse))
	for k := range p.sparse {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	for _, k := range keys {
		f(k[0], k[1], p.sparse[k])
	}
}
