package cluster

import "sort"

// Greedy is a clustering found without the ILP: starting from stream fusion's, it repeatedly
// merges the two clusters whose merge lowers Cost the most while the clustering stays valid,
// until no merge helps. It is the ILP's starting solution (so a solve stopped by its time
// limit returns at least this), and is O(n³) at worst.
func Greedy(g *Graph) *Clustering {
	n := len(g.Nodes)
	cl := Stream(g)
	labels := append([]int(nil), cl.Of...)
	for {
		groups := map[int][]int{}
		for i, l := range labels {
			groups[l] = append(groups[l], i)
		}
		keys := make([]int, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		type merge struct{ a, b, gain int }
		var merges []merge
		for x := 0; x < len(keys); x++ {
			for y := x + 1; y < len(keys); y++ {
				if gain := mergeGain(g, labels, groups[keys[x]], groups[keys[y]]); gain > 0 {
					merges = append(merges, merge{keys[x], keys[y], gain})
				}
			}
		}
		sort.SliceStable(merges, func(i, j int) bool { return merges[i].gain > merges[j].gain })
		merged := false
		for _, mg := range merges {
			trial := append([]int(nil), labels...)
			for i := range trial {
				if trial[i] == mg.b {
					trial[i] = mg.a
				}
			}
			if mergeValid(g, trial, groups[mg.a], groups[mg.b]) {
				labels = trial
				merged = true
				break
			}
		}
		if !merged || n == 0 {
			break
		}
	}
	out, err := NewClustering(g, labels)
	if err != nil {
		return cl
	}
	return out
}

// mergeGain is how much Cost falls if clusters A and B merge (not checking validity): the
// weights of possible pairs across them, and N for each array whose last outside consumers
// were in the other cluster.
func mergeGain(g *Graph, labels, A, B []int) int {
	n := len(g.Nodes)
	gain := 0
	for _, a := range A {
		for _, b := range B {
			if !g.Possible(a, b) {
				return 0 // a fusion-preventing path: never valid
			}
			if g.Nodes[a].External() || g.Nodes[b].External() {
				return 0
			}
			if g.Connected(a, b) || g.SharesInput(a, b) {
				gain += n * n
			} else {
				gain++
			}
		}
	}
	la, lb := labels[A[0]], labels[B[0]]
	for _, grp := range [][]int{A, B} {
		for _, i := range grp {
			if len(g.Nodes[i].Arrays) == 0 {
				continue
			}
			outside, stays := false, false
			for _, e := range g.Out(i) {
				l := labels[e.To.ID]
				if l != labels[i] {
					outside = true
					if l != la && l != lb {
						stays = true
					}
				}
			}
			if outside && !stays {
				gain += n
			}
		}
	}
	return gain
}

// mergeValid checks the merged clustering: the pairs across A and B, then acyclicity.
func mergeValid(g *Graph, labels, A, B []int) bool {
	for _, a := range A {
		for _, b := range B {
			if !g.sameIter(a, b) {
				ca, cb, _, ok := g.Sizes.Concestors(g.Nodes[a].Binding, g.Nodes[b].Binding)
				if !ok || labels[g.nodeOf(ca)] != labels[a] || labels[g.nodeOf(cb)] != labels[a] {
					return false
				}
			}
		}
	}
	_, err := NewClustering(g, labels)
	return err == nil
}

// StartValues turns a clustering into values for the model's columns: x from the clusters,
// π the cluster's position in execution order, c from the edges that leave a cluster.
func (m *Model) StartValues(cl *Clustering) []float64 {
	v := make([]float64, len(m.Vars))
	for p, col := range m.x {
		if cl.Of[p[0]] != cl.Of[p[1]] {
			v[col] = 1
		}
	}
	for i, col := range m.pi {
		v[col] = float64(cl.Of[i])
	}
	for i, col := range m.c {
		if col < 0 {
			continue
		}
		for _, e := range m.Graph.Out(i) {
			if cl.Of[e.To.ID] != cl.Of[i] {
				v[col] = 1
			}
		}
	}
	return v
}
