package cluster

import "context"

// Stream is the clustering that pull-based stream fusion achieves (Table 1.1's "Stream"): a
// producer fuses into its consumer only when the consumer is the only reader of its output,
// the edge between them is fusible, and the output is not also a result of the definition
// (a pull stream can be consumed once). Like every clustering, it must be valid: a merge whose
// loop would mix unrelated iteration sizes (a filter feeding a cross) is not made.
func Stream(g *Graph) *Clustering {
	m := newMerger(g, false)
	m.stream(unlimited(context.Background()))
	return m.clustering()
}
