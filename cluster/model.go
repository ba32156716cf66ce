package cluster

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// VarKind is the kind of an ILP variable.
type VarKind int

const (
	Binary VarKind = iota
	Continuous
)

// Var is a column of the ILP: x_i_j, pi_i or c_i.
type Var struct {
	Name   string
	Kind   VarKind
	Lo, Hi float64
	Cost   float64 // objective coefficient
}

// Term is a coefficient times a variable.
type Term struct {
	Var  int
	Coef float64
}

// Row is a constraint Lo <= Σ terms <= Hi (either bound may be infinite).
type Row struct {
	Name   string
	Terms  []Term
	Lo, Hi float64
}

// Model is the integer linear program of Fig 1.14 for one definition, kept apart from any
// solver: HiGHS solves it, WriteLP prints it for glpsol, cbc or highs.
type Model struct {
	Graph *Graph
	N     int // |V|
	Vars  []Var
	Rows  []Row
	Cuts  int // how many of Rows, the last ones, are transitivity cuts (not in Fig 1.14)
	// Lighter counts the pairs weighed below N² because the arrays they share are behind
	// filters (weights.go); 0 in the literal form.
	Lighter int
	// conc is the range [conc[0], conc[1]) of Rows that are concestor rows (section 1.4.3):
	// the root loop checks them lazily (lazyrows.go).
	conc [2]int
	x    pairCols // pair -> column of x_i_j
	pi   []int    // node -> column of pi_i
	c    []int    // node -> column of c_i, or -1 for a node without an array output
	// variant is what the model was formulated with: the heuristics that look for clusterings
	// of the model (rootcuts.go) must keep to it.
	variant FormulateOptions
}

// X returns the column of x for the pair {i, j}, if the pair has one (possible(i, j)).
func (m *Model) X(i, j int) (int, bool) {
	if i > j {
		i, j = j, i
	}
	return m.x.get(i, j)
}

// FormulateOptions selects variants of the formulation.
type FormulateOptions struct {
	// SameSizeOnly forbids bindings of different iteration sizes from sharing a cluster: the
	// formulation of Megiddo and Sarkar, a baseline.
	SameSizeOnly bool
	// Together lists pairs of nodes that must share a cluster (to measure what that would cost).
	Together [][2]int
	// Paper gives Fig 1.14 literally: π unbounded and N as every big-M coefficient. Otherwise π_i
	// is bounded by the fusion-preventing paths through i and each big-M by the π bounds of its
	// pair, which gives the solver a tighter relaxation and the same optimum.
	Paper bool
	// NoCuts leaves out the transitivity cuts (addTransitivityCuts), to measure what they gain.
	// Paper implies it.
	NoCuts bool
	// NoTwins leaves twins (twins.go) free, to measure what fixing them gains. Paper implies it.
	NoTwins bool
}

// lpSafe is p with every character that LP files do not allow in a name replaced by '_'. It
// returns p itself when p is already safe (binding names usually are): formulate names tens of
// thousands of columns and rows, and a regular expression per name was most of its time.
func lpSafe(p string) string {
	safe := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for i := 0; i < len(p); i++ {
		if safe(p[i]) {
			continue
		}
		// Replace each unsafe rune (not byte) by one '_', as a name is read by runes.
		var b strings.Builder
		b.WriteString(p[:i])
		for _, r := range p[i:] {
			if r < 0x80 && safe(byte(r)) {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		return b.String()
	}
	return p
}

// Formulate builds the ILP of Fig 1.14 with the corrections that ../shared/papers/README.md
// lists: the objective runs over every possible pair (pairs reading a common array, parameters
// included, weigh N²); concestor constraints that would compare a node or a pair with itself are
// not emitted; a fusible edge whose pair cannot be fused still forces the producer's c to 1;
// strict precedence is π_j - π_i >= 1; externals never share a cluster.
//
// Variables fixed by the figure (x = 1 for pairs that can never be fused, c = 1 for arrays that
// must be materialised) are kept as columns with equal bounds, so the objective value is exactly
// Fig 1.14's. Solvers' presolve removes them at no cost.
//
// Tightening (unless opts.Paper): any feasible clustering can be given π_i = the length of the
// longest chain of clusters ending at i's cluster. That satisfies every constraint, has π_i at
// least the number of fusion-preventing edges on any path into i (each crosses clusters) and at
// most N-1 minus those on any path out of i. So π_i ∈ [depth_i, N-1-height_i] loses no optimum,
// and each big-M can be the largest difference these bounds allow. Transitivity cuts (see
// addTransitivityCuts) tighten the relaxation further, again removing no clustering.
func Formulate(g *Graph, opts FormulateOptions) *Model {
	m, _ := formulate(context.Background(), g, opts) // never cancelled
	return m
}

// formulate is Formulate, abandoned with ctx's error when ctx ends (it checks between rows of
// its pair loops, which are where a large model spends its time).
func formulate(ctx context.Context, g *Graph, opts FormulateOptions) (*Model, error) {
	n := len(g.Nodes)
	// Maps sized for every pair: growing them was a tenth of the time of formulating.
	pairs := n * (n - 1) / 2
	m := &Model{Graph: g, N: n, x: newPairCols(n), pi: make([]int, n), c: make([]int, n), variant: opts,
		Vars: make([]Var, 0, 2*n+pairs)}
	N := float64(n)
	// Names are made unique by a numeric suffix. When the bindings' names are unique in the LP
	// format and hold no '_', a name's parts can be read back from it, so only the families
	// that can make a name twice from the same parts (a pair's concestor rows; an edge's rows,
	// should two edges join one pair) need the check: checking every name was most of
	// formulating a large model (0.3 s of 0.38 for fans 800).
	names := map[string]bool{}
	plain := plainNames(g)
	name := func(parts ...string) string {
		for i, p := range parts {
			parts[i] = lpSafe(p)
		}
		s := strings.Join(parts, "_")
		if plain && onceEach(parts[0]) {
			return s
		}
		for k := 2; names[s]; k++ {
			s = fmt.Sprintf("%s_%d", strings.Join(parts, "_"), k)
		}
		names[s] = true
		return s
	}
	addVar := func(v Var) int {
		m.Vars = append(m.Vars, v)
		return len(m.Vars) - 1
	}
	addRow := func(r Row) { m.Rows = append(m.Rows, r) }
	inf := math.Inf(1)

	depth, height := g.fpDepths()
	for i, nd := range g.Nodes {
		v := Var{Name: name("pi", nd.Name), Kind: Continuous, Lo: float64(depth[i]), Hi: N - 1 - float64(height[i])}
		if opts.Paper {
			v.Lo, v.Hi = math.Inf(-1), inf
		}
		m.pi[i] = addVar(v)
	}
	// bigM bounds π_b - π_a from above.
	bigM := func(a, b int) float64 {
		if opts.Paper {
			return N
		}
		return math.Max(1, m.Vars[m.pi[b]].Hi-m.Vars[m.pi[a]].Lo)
	}
	for i, nd := range g.Nodes {
		m.c[i] = -1
		if len(nd.Arrays) > 0 {
			m.c[i] = addVar(Var{Name: name("c", nd.Name), Kind: Binary, Lo: 0, Hi: 1, Cost: N})
		}
	}
	together := map[[2]int]bool{}
	for _, p := range opts.Together {
		i, j := min(p[0], p[1]), max(p[0], p[1])
		together[[2]int{i, j}] = true
	}
	if !opts.Paper && !opts.NoTwins && len(opts.Together) == 0 {
		// Twins share a loop in every optimum (twins.go).
		for _, group := range g.twins() {
			for a, i := range group {
				for _, j := range group[a+1:] {
					together[[2]int{min(i, j), max(i, j)}] = true
				}
			}
		}
	}
	// x for every possible pair, with its weight; the pairs joined by an edge or a common array
	// are partners (cuts.go).
	partners := make([][]int, n)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i + 1; j < n; j++ {
			if !g.Possible(i, j) {
				continue
			}
			w := float64(g.pairWeight(i, j))
			if g.Partners(i, j) {
				if opts.Paper {
					w = N * N // Fig 1.14's weights, every array alike (weights.go)
				} else if w < N*N {
					m.Lighter++
				}
				partners[i] = append(partners[i], j)
				partners[j] = append(partners[j], i)
			}
			v := Var{Name: name("x", g.Nodes[i].Name, g.Nodes[j].Name), Kind: Binary, Lo: 0, Hi: 1, Cost: w}
			if m.neverFused(i, j, opts) {
				v.Lo = 1
			}
			if together[[2]int{i, j}] {
				v.Hi = 0
			}
			m.x.set(i, j, addVar(v))
		}
	}
	// A pair forced together that a fusion-preventing path separates: the model is infeasible.
	for _, q := range opts.Together {
		p := [2]int{min(q[0], q[1]), max(q[0], q[1])}
		if _, ok := m.X(p[0], p[1]); !ok {
			addRow(Row{Name: name("impossible", g.Nodes[p[0]].Name, g.Nodes[p[1]].Name), Terms: []Term{{m.pi[p[0]], 0}}, Lo: 1, Hi: inf})
		}
	}
	// Precedence: the form depends on whether an edge joins the pair (section 1.4.3).
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i + 1; j < n; j++ {
			x, ok := m.X(i, j)
			if !ok {
				continue
			}
			from, to := i, j
			edge := g.Edge(i, j)
			if edge == nil {
				if edge = g.Edge(j, i); edge != nil {
					from, to = j, i
				}
			}
			pf, pt := m.pi[from], m.pi[to]
			if edge != nil {
				// x <= π_to - π_from <= N x
				addRow(Row{Name: name("prec", g.Nodes[from].Name, g.Nodes[to].Name), Terms: []Term{{pt, 1}, {pf, -1}, {x, -1}}, Lo: 0, Hi: inf})
				addRow(Row{Name: name("fuse", g.Nodes[from].Name, g.Nodes[to].Name), Terms: []Term{{pt, 1}, {pf, -1}, {x, -bigM(from, to)}}, Lo: -inf, Hi: 0})
				continue
			}
			if m.Vars[x].Lo == 1 {
				continue // with x = 1 the pair's π are unconstrained: the rows would be redundant
			}
			// -N x <= π_j - π_i <= N x
			addRow(Row{Name: name("same", g.Nodes[i].Name, g.Nodes[j].Name, "lo"), Terms: []Term{{pt, 1}, {pf, -1}, {x, bigM(to, from)}}, Lo: 0, Hi: inf})
			addRow(Row{Name: name("same", g.Nodes[i].Name, g.Nodes[j].Name, "hi"), Terms: []Term{{pt, 1}, {pf, -1}, {x, -bigM(from, to)}}, Lo: -inf, Hi: 0})
		}
	}
	for _, e := range g.Edges {
		i, j := e.From.ID, e.To.ID
		if e.Preventing {
			// π_i < π_j, as π_j - π_i >= 1.
			addRow(Row{Name: name("fp", e.From.Name, e.To.Name), Terms: []Term{{m.pi[j], 1}, {m.pi[i], -1}}, Lo: 1, Hi: inf})
		}
		if m.c[i] < 0 {
			continue
		}
		if x, ok := m.X(i, j); ok && !e.Preventing {
			// x_ij <= c_i: an array is contracted only if every consumer shares its loop.
			addRow(Row{Name: name("contract", e.From.Name, e.To.Name), Terms: []Term{{x, 1}, {m.c[i], -1}}, Lo: -inf, Hi: 0})
		} else {
			// A fusion-preventing edge, or a fusible one whose pair can never be fused.
			m.Vars[m.c[i]].Lo = 1
		}
	}
	// Different iteration sizes: no more fused than with the concestors (section 1.4.3).
	m.conc[0] = len(m.Rows)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i + 1; j < n; j++ {
			x, ok := m.X(i, j)
			if !ok || m.Vars[x].Lo == 1 || g.sameIter(i, j) {
				continue
			}
			A, B, _ := g.PossibleConcestors(i, j)
			for _, p := range [][2]int{{A, i}, {B, j}, {A, B}} {
				if p[0] == p[1] || p == [2]int{i, j} || p == [2]int{j, i} {
					continue // trivially true
				}
				y, ok := m.X(p[0], p[1])
				if !ok {
					continue // not expected: possible' checked these pairs
				}
				addRow(Row{Name: name("conc", g.Nodes[i].Name, g.Nodes[j].Name), Terms: []Term{{y, 1}, {x, -1}}, Lo: -inf, Hi: 0})
			}
		}
	}
	m.conc[1] = len(m.Rows)
	if !opts.Paper && !opts.NoCuts {
		m.addTransitivityCuts(name, partners)
	}
	return m, ctx.Err()
}

// onceEach are the families of formulate's names made once for each set of parts: a node's
// (pi, c), a pair's (x, prec, fuse, same), a triangle's (tri).
func onceEach(family string) bool {
	switch family {
	case "pi", "c", "x", "prec", "fuse", "same", "tri":
		return true
	}
	return false
}

// plainNames reports whether the nodes' names are unique in the LP format (lpSafe) and hold no
// '_', so that formulate's names, the parts joined by '_', are unique for unique parts.
func plainNames(g *Graph) bool {
	seen := make(map[string]bool, len(g.Nodes))
	for _, nd := range g.Nodes {
		s := lpSafe(nd.Name)
		if s == "" || strings.Contains(s, "_") || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// LowerBound is the objective no clustering can beat: the cost of the variables whose bounds
// fix them (every cost is non-negative, so the free ones add at least 0). A clustering that
// costs this much is optimal without a solve.
func (m *Model) LowerBound() int {
	lb := 0.0
	for _, v := range m.Vars {
		if v.Lo > 0 {
			lb += v.Cost * v.Lo
		}
	}
	return int(math.Round(lb))
}

// neverFused reports whether Fig 1.14 fixes x_ij = 1: an external is involved, or the sizes
// differ and the pair has no possible compatible concestors (or the variant forbids differing
// sizes altogether).
func (m *Model) neverFused(i, j int, opts FormulateOptions) bool {
	g := m.Graph
	if g.Nodes[i].Iter == nil || g.Nodes[j].Iter == nil {
		return true
	}
	if g.sameIter(i, j) {
		return false
	}
	if opts.SameSizeOnly {
		return true
	}
	_, _, ok := g.PossibleConcestors(i, j)
	return !ok
}

// fpDepths returns, for each node, the largest number of fusion-preventing edges on a path
// into it (depth) and out of it (height).
func (g *Graph) fpDepths() (depth, height []int) {
	n := len(g.Nodes)
	depth, height = make([]int, n), make([]int, n)
	order := g.topo()
	for _, i := range order {
		for _, e := range g.in[i] {
			d := depth[e.From.ID]
			if e.Preventing {
				d++
			}
			depth[i] = max(depth[i], d)
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		for _, e := range g.out[i] {
			h := height[e.To.ID]
			if e.Preventing {
				h++
			}
			height[i] = max(height[i], h)
		}
	}
	return depth, height
}

func objective(m *Model, values []float64) float64 {
	total := 0.0
	for i, v := range m.Vars {
		total += v.Cost * values[i]
	}
	return total
}
