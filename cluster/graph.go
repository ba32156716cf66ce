package cluster

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// Graph is the dependency graph of a definition (Fig 1.10): a node per binding (an external
// or unzip with several outputs is one node) and an edge from each producer to each consumer,
// fusible or fusion-preventing.
//
// A `length xs` whose value the sizes determine before any loop runs (infer.Length.Known) is
// not a node: like a parameter, it exists before every loop, and its readers wait for nothing.
// Nor is a binding that is never computed (an array used only by lengths).
type Graph struct {
	Sizes *infer.Result
	Nodes []*Node // in source order
	// Known lists the length bindings computed before any loop, in source order.
	Known []*syntax.Binding
	// Dead lists the bindings whose values nothing needs (infer.Result.Live): never computed.
	Dead  []*syntax.Binding
	Edges []*Edge // at most one per ordered pair; fusion-preventing if any reason prevents fusion
	out   [][]*Edge
	in    [][]*Edge
	// fpReach[i] holds the nodes reachable from i along a path with a fusion-preventing edge;
	// apart[i] those joined to i by such a path in either direction (Possible's complement,
	// a row per node, so that a scan of one node's pairs reads one bitset in order).
	fpReach, apart []bitset
	// heavy[i] holds the nodes joined to i by an edge or reading an array i reads: the pairs
	// that weigh N² in the objective.
	heavy []bitset
	// shallow holds, for the heavy pairs whose every common array is behind filters, the
	// share of N² they weigh (weights.go); the other heavy pairs weigh N².
	shallow map[[2]int]float64
	rates   Rates                     // measured filter rates (SetRates); nil: the guess
	known   Rates                     // rates of the other filters known from their text (uniform.go); nil: none
	byBind  map[*syntax.Binding]*Node // every node by its binding
	// concestors[a*n+b] memoises PossibleConcestors(a, b) (see concestorEntry): the model's
	// pair loops, the budget and the explanations all ask, for every pair, and each question
	// to the sizes costs a map lookup under a lock. Made on the first question, for graphs of
	// at most maxMemoNodes nodes (8 bytes a pair: 8 MB at most).
	concestorsOnce sync.Once
	concestors     []atomic.Uint64
	// base is what every merger of the graph starts from (mergerBase), made on the first.
	baseOnce sync.Once
	base     *mergerBase
	// flow is who produces and reads each variable (dataflow), made on the first question.
	flowOnce sync.Once
	flow     *dataflow
}

// maxMemoNodes bounds the graphs whose concestor answers are memoised.
const maxMemoNodes = 1000

// Node is a binding of the definition.
type Node struct {
	ID      int
	Binding *syntax.Binding
	Name    string     // the binding's first name
	Iter    infer.Size // nil is ⊥ (external)
	// Arrays lists the array variables the binding produces; empty for fold.
	Arrays []string
	// Reads lists the array variables the binding reads, each once (parameters included); a
	// length reads the array it counts (infer.Length.Source).
	Reads []string
	// ReadsScalars lists the scalar variables it reads, each once.
	ReadsScalars []string
}

// External reports whether the node is an external call.
func (n *Node) External() bool {
	_, ok := n.Binding.Rhs.(*syntax.External)
	return ok
}

// Combinator returns the node's combinator keyword: "fold", "map2", "external", ...
func (n *Node) Combinator() string { return syntax.CallOf(n.Binding.Rhs).Keyword.Name }

// Edge is a dependency: To reads a value that From produces.
type Edge struct {
	From, To   *Node
	Preventing bool
	Vars       []string // the variables the edge carries
	// Reasons says, for a fusion-preventing edge, why: one sentence per cause.
	Reasons []string
	// At is where To uses the value (the argument), for diagnostics.
	At syntax.Range
}

// Out returns the edges leaving node i; In those entering it.
func (g *Graph) Out(i int) []*Edge { return g.out[i] }

// In returns the edges entering node i.
func (g *Graph) In(i int) []*Edge { return g.in[i] }

// Edge returns the edge from i to j, or nil.
func (g *Graph) Edge(i, j int) *Edge {
	for _, e := range g.out[i] {
		if e.To.ID == j {
			return e
		}
	}
	return nil
}

// Node returns the node of a binding name (any of an external's names), or nil.
func (g *Graph) Node(name string) *Node {
	b := g.Sizes.Func.Binding(name)
	if b == nil {
		return nil
	}
	return g.byBind[b]
}

// NewGraph builds the dependency graph of a definition that size inference accepted.
func NewGraph(sizes *infer.Result) *Graph {
	fn := sizes.Func
	g := &Graph{Sizes: sizes}
	byBinding := map[*syntax.Binding]*Node{}
	nodeUses := [][]use{} // per node, computed once
	for _, b := range fn.Def.Bindings {
		if !sizes.Live(b) {
			g.Dead = append(g.Dead, b)
			continue
		}
		if l, ok := sizes.LengthOf(b); ok && l.Known != nil {
			g.Known = append(g.Known, b)
			continue
		}
		n := &Node{ID: len(g.Nodes), Binding: b, Name: b.Name(), Iter: sizes.Iter(b)}
		for _, id := range b.Names {
			if s := fn.Symbols[id.Name]; s != nil && s.Kind == syntax.Array {
				n.Arrays = append(n.Arrays, id.Name)
			}
		}
		us := uses(sizes, b)
		nodeUses = append(nodeUses, us)
		for _, u := range us {
			if u.sym.Kind == syntax.Array {
				addUnique(&n.Reads, u.sym.Name)
			} else {
				addUnique(&n.ReadsScalars, u.sym.Name)
			}
		}
		g.Nodes = append(g.Nodes, n)
		byBinding[b] = n
	}
	g.out = make([][]*Edge, len(g.Nodes))
	g.in = make([][]*Edge, len(g.Nodes))
	for _, to := range g.Nodes {
		for _, u := range nodeUses[to.ID] {
			from := byBinding[u.sym.Binding]
			if from == nil {
				continue // a parameter or a known length: not a node
			}
			g.addEdge(from, to, u)
		}
	}
	g.byBind = byBinding
	g.reach()
	g.weigh()
	return g
}

// use is one value a binding reads, and what that read requires.
type use struct {
	sym    *syntax.Symbol
	at     syntax.Range
	reason string // non-empty: this use prevents fusion, and why
}

// uses lists what a binding reads, with the rules of Fig 1.10: a fold's value exists only after
// its whole loop; gather reads its data at random; cross re-reads its second array; externals
// are host calls between loops. generate (which Fig 1.10 omits) reads only scalars. Of the
// combinators added after the thesis, reverse reads its input from the end (so all of it must
// exist first), and length reads the array it counts; the others stream their inputs in order.
func uses(sizes *infer.Result, b *syntax.Binding) []use {
	fn := sizes.Func
	var out []use
	add := func(id *syntax.Ident, reason string) {
		if s := fn.Refs[id]; s != nil {
			out = append(out, use{sym: s, at: id.Range, reason: reason})
		}
	}
	for _, s := range fn.Inputs[b].Scalars {
		for _, id := range s.Uses {
			if id.Start >= b.Start && id.End <= b.End {
				add(id, "")
				break
			}
		}
	}
	switch c := b.Rhs.(type) {
	case *syntax.Fold:
		add(c.Array, "")
	case *syntax.Map:
		for _, a := range c.Arrays {
			add(a, "")
		}
	case *syntax.Filter:
		add(c.Array, "")
	case *syntax.Gather:
		add(c.Data, fmt.Sprintf("gather reads %s at random positions: all of %s must exist before the gather starts", c.Data.Name, c.Data.Name))
		add(c.Indices, "")
	case *syntax.Cross:
		add(c.A, "")
		add(c.B, fmt.Sprintf("cross reads %s once for every element of %s: all of %s must exist before the cross starts", c.B.Name, c.A.Name, c.B.Name))
	case *syntax.External:
		for _, a := range c.Args {
			add(a, fmt.Sprintf("external %s is a host call: it needs all of %s before it runs", c.Func.Name, a.Name))
		}
	case *syntax.Scan:
		add(c.Array, "")
	case *syntax.Indexed:
		add(c.Array, "")
	case *syntax.Unzip:
		add(c.Array, "")
	case *syntax.Slice:
		add(c.Array, "")
	case *syntax.Zip:
		add(c.A, "")
		add(c.B, "")
	case *syntax.Append:
		add(c.A, "")
		add(c.B, "")
	case *syntax.Reverse:
		add(c.Array, fmt.Sprintf("reverse reads %s from its last element: all of %s must exist before the reverse starts", c.Array.Name, c.Array.Name))
	case *syntax.Length:
		// What a length reads is decided by the sizes (nothing, or the array it counts).
		for _, s := range sizes.Reads(b) {
			out = append(out, use{sym: s, at: c.Array.Range})
		}
	}
	return out
}

func (g *Graph) addEdge(from, to *Node, u use) {
	reason := u.reason
	if reason == "" {
		switch from.Binding.Rhs.(type) {
		case *syntax.Fold:
			reason = fmt.Sprintf("%s is a fold: its value exists only after its whole loop", u.sym.Name)
		case *syntax.Length:
			reason = fmt.Sprintf("%s is a length that must be counted: its value exists only after its whole loop", u.sym.Name)
		case *syntax.External:
			reason = fmt.Sprintf("%s comes from the external %s, a host call that runs between loops", u.sym.Name, syntax.CallOf(from.Binding.Rhs).Args[0].(*syntax.Ident).Name)
		}
	}
	e := g.Edge(from.ID, to.ID)
	if e == nil {
		e = &Edge{From: from, To: to, At: u.at}
		g.Edges = append(g.Edges, e)
		g.out[from.ID] = append(g.out[from.ID], e)
		g.in[to.ID] = append(g.in[to.ID], e)
	}
	if !slices.Contains(e.Vars, u.sym.Name) {
		e.Vars = append(e.Vars, u.sym.Name)
	}
	if reason != "" {
		if !e.Preventing {
			e.At = u.at
		}
		e.Preventing = true
		if !slices.Contains(e.Reasons, reason) {
			e.Reasons = append(e.Reasons, reason)
		}
	}
}

// reach computes, for every node, the nodes reachable along a path that contains a
// fusion-preventing edge. Nodes are processed consumers first (reverse dependency order).
func (g *Graph) reach() {
	n := len(g.Nodes)
	all := make([]bitset, n)
	g.fpReach = make([]bitset, n)
	order := g.topo()
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		all[i] = newBitset(n)
		g.fpReach[i] = newBitset(n)
		for _, e := range g.out[i] {
			j := e.To.ID
			all[i].set(j)
			all[i].or(all[j])
			if e.Preventing {
				g.fpReach[i].set(j)
				g.fpReach[i].or(all[j])
			} else {
				g.fpReach[i].or(g.fpReach[j])
			}
		}
	}
	g.apart = make([]bitset, n)
	for i := range n {
		g.apart[i] = slices.Clone(g.fpReach[i])
	}
	for i := range n {
		g.fpReach[i].each(func(j int) { g.apart[j].set(i) })
	}
}

// topo returns the node IDs in dependency order (producers first, source order on ties).
func (g *Graph) topo() []int {
	succ := func(i int) []int {
		out := make([]int, len(g.out[i]))
		for k, e := range g.out[i] {
			out[k] = e.To.ID
		}
		return out
	}
	order, _ := topological(len(g.Nodes), succ, func(a, b int) bool { return a < b }) // a dependency graph has no cycle
	return order
}

// Possible is Fig 1.13's possible(a, b): no path between a and b, in either direction, contains
// a fusion-preventing edge. (The authors' implementation looked in one direction only.)
func (g *Graph) Possible(a, b int) bool {
	return !g.apart[a].has(b)
}

// PossibleConcestors is Fig 1.13's possible'(a, b): a and b have compatible concestors (A, B),
// and none of a, b, A, B is separated from the others by a fusion-preventing path.
func (g *Graph) PossibleConcestors(a, b int) (A, B int, ok bool) {
	g.concestorsOnce.Do(func() {
		if n := len(g.Nodes); n <= maxMemoNodes {
			g.concestors = make([]atomic.Uint64, n*n)
		}
	})
	if g.concestors == nil {
		return g.possibleConcestors(a, b)
	}
	slot := &g.concestors[a*len(g.Nodes)+b]
	if e := concestorEntry(slot.Load()); e.known() {
		return e.unpack()
	}
	A, B, ok = g.possibleConcestors(a, b)
	// Solves racing on one graph may both compute an entry: they store the same value.
	slot.Store(uint64(packConcestors(A, B, ok)))
	return A, B, ok
}

func (g *Graph) possibleConcestors(a, b int) (A, B int, ok bool) {
	ca, cb, _, found := g.Sizes.Concestors(g.Nodes[a].Binding, g.Nodes[b].Binding)
	if !found {
		return 0, 0, false
	}
	A, B = g.nodeOf(ca), g.nodeOf(cb)
	ok = g.Possible(a, b) && g.Possible(A, a) && g.Possible(B, b) && g.Possible(A, B)
	return A, B, ok
}

// concestorEntry is a memoised answer of PossibleConcestors: bit 0 set once known, bit 1 ok,
// bits 2-31 A and 32-63 B (node indices, far below 2^30).
type concestorEntry uint64

func packConcestors(A, B int, ok bool) concestorEntry {
	e := concestorEntry(1) | concestorEntry(A)<<2 | concestorEntry(B)<<32
	if ok {
		e |= 2
	}
	return e
}

func (e concestorEntry) known() bool { return e&1 != 0 }

func (e concestorEntry) unpack() (A, B int, ok bool) {
	return int(e>>2) & (1<<30 - 1), int(e >> 32), e&2 != 0
}

func (g *Graph) nodeOf(b *syntax.Binding) int {
	if n := g.byBind[b]; n != nil {
		return n.ID
	}
	panic("cluster: concestor is not a node")
}

// Partners reports whether two nodes are joined by an edge (in either direction) or read a
// common array (a parameter or a binding's): the pairs that weigh N² in the objective.
func (g *Graph) Partners(a, b int) bool { return g.heavy[a].has(b) }

type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }
func (s bitset) set(i int)   { s[i/64] |= 1 << (uint(i) % 64) }
func (s bitset) has(i int) bool {
	return s[i/64]&(1<<(uint(i)%64)) != 0
}
func (s bitset) or(t bitset) {
	for i := range s {
		s[i] |= t[i]
	}
}

// each calls f with each member of s, in increasing order.
func (s bitset) each(f func(int)) {
	for k, word := range s {
		for word != 0 {
			f(k*64 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}

// meets reports whether s and t have a member in common.
func (s bitset) meets(t bitset) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

// sameIter is infer.Result.SameIter of the nodes' bindings, from the sizes the nodes hold (the
// pair loops ask it for every pair; the sizes' map lookups were a tenth of their time).
func (g *Graph) sameIter(i, j int) bool {
	return infer.Equal(g.Nodes[i].Iter, g.Nodes[j].Iter)
}
