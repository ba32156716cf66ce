package cluster

import (
	"github.com/cnf-tools/cnf/syntax"
)

// The objective's weights (Fig 1.14, section 1.4.4): a split pair of nodes that an edge joins
// or that read a common array costs an array's traffic, N²; a materialised array N; any
// other split pair 1.
//
// Fig 1.14 prices every array's traffic alike, a filter's output as its input. That made the
// optimum write a map's whole output to read it in a second loop rather than split the loop
// after a filter of it whose output is small (the filter's consumers then read the filter's
// output): the two cost one array each and the first splits fewer pairs, but it moves several
// times the bytes (docs/performance.md, "Filtered arrays weigh less"). cnf prices the traffic
// of an array behind d filters at N² / 2^d (at least N): a filter is assumed to keep half of
// what it reads, as a query planner without statistics assumes a selectivity. Arrays of their
// own size (parameters, generate, cross, append, external outputs) and every array of a
// program without filters weigh N², as in the figure; `cnf ilp --paper` prints the figure's
// weights.
//
// A filter whose test is the same for every element, decided by its text (`\x -> x > x`),
// keeps nothing or everything: it weighs so (uniform.go). Where the guess is wrong otherwise (a
// filter that keeps nearly everything weighs half of what it moves), measured rates replace it: Rates gives a filter's kept fraction by its binding's
// name (`cnf run --profile` measures them on real inputs), and an array behind filters weighs
// N² times the product of their rates (at least N). A filter without a rate keeps the guess.

// Rates are the fractions of their input that filters keep, by the filter's binding name, each
// in [0, 1]; the weights guess ½ for a filter without one.
type Rates map[string]float64

// guessedRate is what a filter is assumed to keep without a measured rate.
const guessedRate = 0.5

// SetRates weighs the graph's pairs with measured filter rates instead of the guess (nil: the
// guess for every filter). Only the rates of the graph's filters, each in [0, 1], are kept:
// the others say nothing about this graph. A graph's Key says which rates it was weighed with.
func (g *Graph) SetRates(r Rates) {
	g.rates = nil
	for _, nd := range g.Nodes {
		if f, ok := r[nd.Name]; ok && f >= 0 && f <= 1 {
			if _, filter := nd.Binding.Rhs.(*syntax.Filter); filter {
				if g.rates == nil {
					g.rates = Rates{}
				}
				g.rates[nd.Name] = f
			}
		}
	}
	g.weigh()
}

// MeasuredRates are the measured rates the weights use (SetRates), by filter name; nil when
// there are none. The caller must not change them.
func (g *Graph) MeasuredRates() Rates { return g.rates }

// KnownRates are the rates of the filters without a measured one whose test is the same for
// every element (0: it keeps nothing, 1: everything; uniform.go), by filter name; nil when
// there are none. The weights use them instead of the guess; the caller must not change them.
func (g *Graph) KnownRates() Rates { return g.known }

// knownRates finds the filters of KnownRates (weigh keeps them).
func (g *Graph) knownRates() Rates {
	var known Rates
	for _, nd := range g.Nodes {
		f, ok := nd.Binding.Rhs.(*syntax.Filter)
		if !ok {
			continue
		}
		if _, measured := g.rates[nd.Name]; measured {
			continue
		}
		if r, ok := knownRate(f); ok {
			if known == nil {
				known = Rates{}
			}
			known[nd.Name] = r
		}
	}
	return known
}

// weigh computes heavy (the pairs joined by an edge or reading a common array) and, for the
// heavy pairs whose every such array is behind filters, the largest share of N² that such an
// array weighs (shallow).
func (g *Graph) weigh() {
	n := len(g.Nodes)
	g.heavy = make([]bitset, n)
	for i := range g.heavy {
		g.heavy[i] = newBitset(n)
	}
	g.known = g.knownRates()
	share := g.filterShares()
	g.shallow = map[[2]int]float64{}
	// mark records that i and j share an array weighing f of N²: the pair weighs by its
	// largest such share.
	mark := func(i, j int, f float64) {
		p := [2]int{min(i, j), max(i, j)}
		if !g.heavy[i].has(j) {
			g.heavy[i].set(j)
			g.heavy[j].set(i)
			if f < 1 {
				g.shallow[p] = f
			}
			return
		}
		if old, ok := g.shallow[p]; ok && f > old {
			if f >= 1 {
				delete(g.shallow, p)
			} else {
				g.shallow[p] = f
			}
		}
	}
	readers := map[string][]int{}
	var names []string // in the order first read, so that the marks are reproducible
	for _, nd := range g.Nodes {
		for _, a := range nd.Reads {
			if _, ok := readers[a]; !ok {
				names = append(names, a)
			}
			readers[a] = append(readers[a], nd.ID)
		}
	}
	for _, a := range names {
		rs := readers[a]
		for x, i := range rs { // a node reads an array once: i != j
			for _, j := range rs[x+1:] {
				f, ok := share[a]
				if !ok {
					f = 1 // a parameter
				}
				mark(i, j, f)
			}
		}
	}
	for _, e := range g.Edges {
		// The arrays of one node all weigh alike (filterShares); a scalar has no share, and
		// an edge of scalars alone weighs N².
		f := 1.0
		for _, v := range e.Vars {
			if sh, ok := share[v]; ok {
				f = min(f, sh)
			}
		}
		mark(e.From.ID, e.To.ID, f)
	}
}

// filterShares gives each array of the definition (parameters and nodes' outputs) the share
// of N² it weighs: 1 for a parameter and for the arrays of a size of their own (generate,
// cross, append, external); a filter's output its rate times the share of the array it walks;
// every other combinator's output that of the array it walks (maps, scans, zips, reversals,
// slices; a gather's, its indices'). With the guessed rate an array behind d filters weighs
// 2^-d, exactly.
func (g *Graph) filterShares() map[string]float64 {
	share := map[string]float64{}
	of := func(a string) float64 {
		if f, ok := share[a]; ok {
			return f
		}
		return 1 // a parameter
	}
	for _, nd := range g.Nodes { // in source order: an array's producer comes before its readers
		f := 1.0
		if w := syntax.Walked(nd.Binding.Rhs); w != nil {
			f = of(w.Name)
			if _, ok := nd.Binding.Rhs.(*syntax.Filter); ok {
				r, ok := g.rates[nd.Name]
				if !ok {
					r, ok = g.known[nd.Name]
				}
				if !ok {
					r = guessedRate
				}
				f *= r
			}
		}
		for _, a := range nd.Arrays {
			share[a] = f
		}
	}
	return share
}

// pairWeight is the weight of a possible pair in the objective: for a pair joined by an edge or
// reading a common array, N² for an array of a size of its own and N² times its share (at
// least N) for one behind filters (N² / 2^d behind d filters of guessed rates); 1 for any other
// pair.
func (g *Graph) pairWeight(i, j int) int {
	if !g.heavy[i].has(j) {
		return 1
	}
	n := len(g.Nodes)
	w := n * n
	if f, ok := g.shallow[[2]int{min(i, j), max(i, j)}]; ok {
		// float64(n*n) and a power of two multiply exactly: the guess's weights are n*n >> d.
		w = max(n, int(float64(w)*f))
	}
	return w
}
