package cluster

// Stream is the clustering that pull-based stream fusion achieves (Table 1.1's "Stream"): a
// producer fuses into its consumer only when the consumer is the only reader of its output,
// the edge between them is fusible, and the output is not also a result of the definition
// (a pull stream can be consumed once). Like every clustering, it must be valid: a merge whose
// loop would mix unrelated iteration sizes (a filter feeding a cross) is not made.
func Stream(g *Graph) *Clustering {
	fn := g.Sizes.Func
	results := map[string]bool{}
	for _, r := range fn.Def.Results {
		results[r.Name] = true
	}
	labels := make([]int, len(g.Nodes))
	for i := range labels {
		labels[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for labels[i] != i {
			i = labels[i]
		}
		return i
	}
	for i, nd := range g.Nodes {
		if len(nd.Arrays) == 0 || nd.External() || len(g.Out(i)) != 1 {
			continue
		}
		e := g.Out(i)[0]
		returned := false
		for _, a := range nd.Arrays {
			returned = returned || results[a]
		}
		if e.Preventing || returned || e.To.External() {
			continue
		}
		a, b := find(i), find(e.To.ID)
		trial := make([]int, len(labels))
		for k := range labels {
			trial[k] = find(k)
			if trial[k] == a {
				trial[k] = b
			}
		}
		if len(Validate(g, trial, false)) == 0 {
			labels[a] = b
		}
	}
	for i := range labels {
		labels[i] = find(i)
	}
	cl, err := NewClustering(g, labels)
	if err != nil {
		return Unfused(g) // not reachable: single-consumer chains cannot form a cycle
	}
	return cl
}
