package cluster

import (
	"context"
	"fmt"
)

// MaxExhaustive is the largest graph Exhaustive accepts: Bell(10) = 115,975 partitions.
const MaxExhaustive = 10

// Exhaustive finds an optimal clustering without the ILP, by enumerating the set partitions
// of the nodes (pruned by pairwise compatibility), keeping those Validate accepts, and
// minimising Cost, the same objective. It is the reference the ILP is tested against.
func Exhaustive(g *Graph, sameSizeOnly bool) (*Clustering, error) {
	return exhaustive(context.Background(), g, sameSizeOnly, nil)
}

// exhaustive is Exhaustive with pairs of nodes forced into one cluster, stopping with the
// context's error when it ends.
func exhaustive(ctx context.Context, g *Graph, sameSizeOnly bool, together [][2]int) (*Clustering, error) {
	n := len(g.Nodes)
	if n > MaxExhaustive {
		return nil, fmt.Errorf("exhaustive search handles at most %d bindings, not %d", MaxExhaustive, n)
	}
	compatible := make([][]bool, n)
	for i := range compatible {
		compatible[i] = make([]bool, n)
		for j := range compatible[i] {
			a, b := g.Nodes[i], g.Nodes[j]
			ok := i == j || g.Possible(i, j) && !a.External() && !b.External()
			if ok && i != j && !g.sameIter(i, j) {
				_, _, _, related := g.Sizes.Concestors(a.Binding, b.Binding)
				ok = !sameSizeOnly && related
			}
			compatible[i][j] = ok
		}
	}
	labels := make([]int, n)
	var best *Clustering
	bestCost := -1
	var rec func(k, blocks int)
	rec = func(k, blocks int) {
		if k == n {
			for _, p := range together {
				if labels[p[0]] != labels[p[1]] {
					return
				}
			}
			if ctx.Err() != nil || len(Validate(g, labels, sameSizeOnly)) > 0 {
				return
			}
			cl, err := NewClustering(g, labels)
			if err != nil {
				return
			}
			if c := cl.Cost(); bestCost < 0 || c < bestCost {
				best, bestCost = cl, c
			}
			return
		}
		for b := 0; b <= blocks && b < n; b++ {
			ok := true
			for j := 0; j < k && ok; j++ {
				if labels[j] == b && !compatible[j][k] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			labels[k] = b
			next := blocks
			if b == blocks {
				next++
			}
			rec(k+1, next)
		}
	}
	rec(0, 0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if best == nil {
		return nil, fmt.Errorf("no valid clustering: not even the unfused one")
	}
	return best, nil
}
