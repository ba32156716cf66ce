package cluster

import "context"

// Greedy is a clustering found without the ILP: starting from stream fusion's merges, it
// repeatedly makes the valid merge of two clusters that lowers Cost the most, until no merge
// helps (or ctx ends: it then returns the clustering so far, which is valid). It is the ILP's
// starting solution, so a solve stopped by its time limit returns at least this, and the
// answer for definitions too large for the ILP. sameSizeOnly gives a clustering valid for
// Megiddo and Sarkar's variant, where only bindings of one iteration size share a loop.
func Greedy(ctx context.Context, g *Graph, sameSizeOnly bool) *Clustering {
	return greedyWithin(unlimited(ctx), g, sameSizeOnly)
}

// greedyWithin is Greedy within the work of w (it then returns the clustering so far).
func greedyWithin(w *meter, g *Graph, sameSizeOnly bool) *Clustering {
	m := newMerger(g, sameSizeOnly)
	m.stream(w)
	// Twins share a loop in every optimum (twins.go), and the model says so: start with them
	// together, so that the start is a solution of the model.
	for _, group := range g.twins() {
		for _, j := range group[1:] {
			if a, b := m.label[group[0]], m.label[j]; a != b && m.canMerge(a, b) {
				m.merge(a, b)
			}
		}
	}
	m.greedy(w, nil)
	return m.clustering()
}
