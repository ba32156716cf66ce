package infer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Size is a size type (Fig 1.3): a size variable, the cross product of two sizes, or the sum
// of two sizes (append's output, an extension of section 1.7; not commutative, because the two
// halves are produced by different loops in order).
type Size interface {
	isSize()
}

// Var is a size variable. A rigid variable (∃) stands for a size known only at run time: the
// output size of one filter, generate or external. It never unifies with a different variable.
// A flexible variable is a unification variable: parameters' sizes and the sizes map_n, gather
// and cross relate.
type Var struct {
	id     int
	Rigid  bool
	Origin *syntax.Binding // for a rigid variable: the binding whose output has this size
	Output string          // for a rigid variable: the name of that output (externals bind several)
}

// Cross is the size of a cross product, L × R.
type Cross struct {
	L, R Size
}

// Sum is the size of an append, L + R. Two sums are equal only componentwise: k1 + k2 is not
// k2 + k1.
type Sum struct {
	L, R Size
}

func (*Var) isSize()   {}
func (*Cross) isSize() {}
func (*Sum) isSize()   {}

// Iter is an iteration size (Fig 1.6): a size, or ⊥ (nil) for an external, whose loop is unknown.
type Iter = Size

// subst is the solved substitution: flexible variables bound to sizes. It is the only mutable
// state of a solve and belongs to one inference.
//
// Sizes are hash-consed: every cross and sum is made by mkCross or mkSum, which return the one
// node for a pair of components, so a size is a DAG whose equal parts are shared. A chain
// `c1 = append c0 c0; c2 = append c1 c1; ...` has a size of 2^n terms as a tree but n nodes as
// a DAG; every traversal below visits each node once (memo tables keyed by node), so inference
// stays polynomial where copying trees was exponential (28 such lines exhausted memory).
type subst struct {
	bound map[*Var]Size
	next  int
	// gen counts bindings: a memoised resolution is valid while gen is unchanged.
	gen   int
	memo  map[Size]resolution
	cross map[[2]Size]*Cross
	sum   map[[2]Size]*Sum
}

// resolution is a resolved size and the generation of the substitution it was resolved in.
type resolution struct {
	gen int
	t   Size
}

func newSubst() *subst {
	return &subst{bound: map[*Var]Size{}, memo: map[Size]resolution{}, cross: map[[2]Size]*Cross{}, sum: map[[2]Size]*Sum{}}
}

func (s *subst) fresh(rigid bool, origin *syntax.Binding, output string) *Var {
	s.next++
	return &Var{id: s.next, Rigid: rigid, Origin: origin, Output: output}
}

// mkCross returns the cross size l × r, the same node for the same components.
func (s *subst) mkCross(l, r Size) *Cross {
	k := [2]Size{l, r}
	if c, ok := s.cross[k]; ok {
		return c
	}
	c := &Cross{L: l, R: r}
	s.cross[k] = c
	return c
}

// mkSum returns the sum size l + r, the same node for the same components.
func (s *subst) mkSum(l, r Size) *Sum {
	k := [2]Size{l, r}
	if c, ok := s.sum[k]; ok {
		return c
	}
	c := &Sum{L: l, R: r}
	s.sum[k] = c
	return c
}

// resolve applies the substitution to a size, fully. A compound size whose components do not
// change is returned as it is; each node is resolved once per generation.
func (s *subst) resolve(t Size) Size {
	switch t := t.(type) {
	case *Var:
		if b, ok := s.bound[t]; ok {
			r := s.resolve(b)
			s.bound[t] = r // path compression: the same meaning, so gen stays
			return r
		}
		return t
	case *Cross, *Sum:
		if m, ok := s.memo[t]; ok && m.gen == s.gen {
			return m.t
		}
		l, r, sum := parts(t)
		rl, rr := s.resolve(l), s.resolve(r)
		var out Size = t
		switch {
		case rl == l && rr == r:
		case sum:
			out = s.mkSum(rl, rr)
		default:
			out = s.mkCross(rl, rr)
		}
		s.memo[t] = resolution{s.gen, out}
		return out
	}
	return t
}

// bind binds a flexible variable.
func (s *subst) bind(v *Var, t Size) {
	s.bound[v] = t
	s.gen++
}

// clash describes why two sizes cannot be unified: the two innermost parts that disagree.
type clash struct {
	a, b   Size
	occurs bool // a variable would have to contain itself
}

// unify makes two sizes equal, binding flexible variables. Rigid variables only equal
// themselves; cross sizes unify componentwise. Hash-consing makes equal resolved sizes the
// same node, so shared parts are unified once: the second visit finds them identical.
func (s *subst) unify(a, b Size) *clash {
	a, b = s.resolve(a), s.resolve(b)
	if a == b {
		return nil
	}
	va, aIsVar := a.(*Var)
	vb, bIsVar := b.(*Var)
	switch {
	case aIsVar && !va.Rigid:
		if occurs(va, b) {
			return &clash{a: a, b: b, occurs: true}
		}
		s.bind(va, b)
		return nil
	case bIsVar && !vb.Rigid:
		if occurs(vb, a) {
			return &clash{a: b, b: a, occurs: true}
		}
		s.bind(vb, a)
		return nil
	case aIsVar || bIsVar:
		return &clash{a: a, b: b}
	}
	al, ar, aSum := parts(a)
	bl, br, bSum := parts(b)
	if aSum != bSum {
		return &clash{a: a, b: b}
	}
	if c := s.unify(al, bl); c != nil {
		return c
	}
	return s.unify(ar, br)
}

// parts splits a cross or a sum into its two components.
func parts(t Size) (l, r Size, sum bool) {
	switch t := t.(type) {
	case *Cross:
		return t.L, t.R, false
	case *Sum:
		return t.L, t.R, true
	}
	panic("infer: parts of a size variable")
}

// walk calls visit on every node of a size once, depth first, left to right; visit returns
// false to skip a node's components.
func walk(t Size, visit func(Size) bool) {
	seen := map[Size]bool{}
	var rec func(Size)
	rec = func(t Size) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		if _, isVar := t.(*Var); !isVar {
			l, r, _ := parts(t)
			rec(l)
			rec(r)
		}
	}
	rec(t)
}

// contains reports whether part occurs in t (by identity; sizes are hash-consed).
func contains(t, part Size) bool {
	found := false
	walk(t, func(n Size) bool {
		found = found || n == part
		return !found
	})
	return found
}

func occurs(v *Var, t Size) bool { return contains(t, v) }

// Equal reports whether two resolved sizes of one definition are the same size. Two ⊥
// iteration sizes are not equal: externals never share a loop. Resolved sizes are hash-consed
// (see subst), so equal sizes are the same node and the comparison is by identity, in constant
// time (the structural comparison it replaced took a second on a chain of 1,000 appends);
// TestEqualIsStructural checks the two agree on random programs.
func Equal(a, b Size) bool { return a != nil && a == b }

// equalTrees compares two sizes structurally, for TestEqualIsStructural.
func equalTrees(a, b Size) bool {
	if a == nil || b == nil {
		return false
	}
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *Cross:
		bc, ok := b.(*Cross)
		return ok && equalTrees(a.L, bc.L) && equalTrees(a.R, bc.R)
	case *Sum:
		bs, ok := b.(*Sum)
		return ok && equalTrees(a.L, bs.L) && equalTrees(a.R, bs.R)
	}
	return false
}

// vars lists the variables of a size, left to right, each once, after those already in into.
func vars(t Size, into []*Var) []*Var {
	walk(t, func(n Size) bool {
		if v, ok := n.(*Var); ok && !slices.Contains(into, v) {
			into = append(into, v)
		}
		return true
	})
	return into
}

// rigidVars lists the rigid variables of a size.
func rigidVars(t Size) []*Var {
	var out []*Var
	for _, v := range vars(t, nil) {
		if v.Rigid {
			out = append(out, v)
		}
	}
	return out
}

// naming gives variables canonical names k1, k2, ... in order of first appearance.
type naming struct {
	index map[*Var]int
	// frozen: every variable of the definition has its name, and the table is only read
	// (from several goroutines). A variable without a name then prints as k?.
	frozen bool
}

func (n *naming) add(t Size) {
	for _, v := range vars(t, nil) {
		if _, ok := n.index[v]; !ok {
			n.index[v] = len(n.index) + 1
		}
	}
}

// maxFormat bounds the length of a printed size. A size is a DAG (see subst) whose tree can be
// exponentially large; past this many bytes the printout ends with "…".
const maxFormat = 200

// format prints a size: "k1", "k1 × k2" (unicode) or "k1 * k2" (ASCII), "k1 + k2"; nested
// compound sizes are parenthesised. Sizes longer than maxFormat are cut short with "…".
func (n *naming) format(t Size, unicode bool) string {
	var b strings.Builder
	if !n.write(&b, t, unicode, false) {
		b.WriteString(" …")
	}
	return b.String()
}

// write prints t into b; it returns false when it stopped at maxFormat.
func (n *naming) write(b *strings.Builder, t Size, unicode, nested bool) bool {
	if b.Len() > maxFormat {
		return false
	}
	switch t := t.(type) {
	case nil:
		if unicode {
			b.WriteString("⊥")
		} else {
			b.WriteString("unknown")
		}
	case *Var:
		i, ok := n.index[t]
		switch {
		case ok:
		case n.frozen:
			b.WriteString("k?")
			return true
		default:
			i = len(n.index) + 1
			n.index[t] = i
		}
		fmt.Fprintf(b, "k%d", i)
	case *Cross, *Sum:
		l, r, sum := parts(t)
		op := " + "
		switch {
		case sum:
		case unicode:
			op = " × "
		default:
			op = " * "
		}
		if nested {
			b.WriteString("(")
		}
		if !n.write(b, l, unicode, true) {
			return false
		}
		b.WriteString(op)
		if !n.write(b, r, unicode, true) {
			return false
		}
		if nested {
			b.WriteString(")")
		}
	}
	return true
}
