package cluster

// Between clusterings and the model's column values: the values of a clustering (a start for
// the solver) and the clustering that values describe (read back from a solution).

// StartValues turns a clustering into values for the model's columns: x from the clusters,
// π the cluster's position in execution order, c from the edges that leave a cluster.
func (m *Model) StartValues(cl *Clustering) []float64 {
	v := make([]float64, len(m.Vars))
	m.x.each(func(i, j, col int) {
		if cl.Of[i] != cl.Of[j] {
			v[col] = 1
		}
	})
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

// readback turns an ILP solution into a clustering: nodes i and j share a cluster when x_ij is 0
// (closed transitively). The checker and the tests confirm that the closure adds nothing the
// ILP did not decide.
func readback(m *Model, values []float64) (*Clustering, error) {
	g := m.Graph
	sets := newUnionFind(len(g.Nodes))
	for i := range g.Nodes {
		for j := i + 1; j < len(g.Nodes); j++ {
			if col, ok := m.X(i, j); ok && values[col] < 0.5 {
				sets.union(i, j)
			}
		}
	}
	labels := make([]int, len(g.Nodes))
	for i := range labels {
		labels[i] = sets.find(i)
	}
	return NewClustering(g, labels)
}
