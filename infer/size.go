package infer

import (
	"fmt"
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
type subst struct {
	bound map[*Var]Size
	next  int
}

func newSubst() *subst { return &subst{bound: map[*Var]Size{}} }

func (s *subst) fresh(rigid bool, origin *syntax.Binding, output string) *Var {
	s.next++
	return &Var{id: s.next, Rigid: rigid, Origin: origin, Output: output}
}

// resolve applies the substitution to a size, fully.
func (s *subst) resolve(t Size) Size {
	switch t := t.(type) {
	case *Var:
		if b, ok := s.bound[t]; ok {
			r := s.resolve(b)
			s.bound[t] = r // path compression
			return r
		}
		return t
	case *Cross:
		return &Cross{L: s.resolve(t.L), R: s.resolve(t.R)}
	case *Sum:
		return &Sum{L: s.resolve(t.L), R: s.resolve(t.R)}
	}
	return t
}

// clash describes why two sizes cannot be unified: the two innermost parts that disagree.
type clash struct {
	a, b   Size
	occurs bool // a variable would have to contain itself
}

// unify makes two sizes equal, binding flexible variables. Rigid variables only equal
// themselves; cross sizes unify componentwise.
func (s *subst) unify(a, b Size) *clash {
	a, b = s.resolve(a), s.resolve(b)
	va, aIsVar := a.(*Var)
	vb, bIsVar := b.(*Var)
	switch {
	case aIsVar && bIsVar && va == vb:
		return nil
	case aIsVar && !va.Rigid:
		if occurs(va, b) {
			return &clash{a: a, b: b, occurs: true}
		}
		s.bound[va] = b
		return nil
	case bIsVar && !vb.Rigid:
		if occurs(vb, a) {
			return &clash{a: b, b: a, occurs: true}
		}
		s.bound[vb] = a
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

func occurs(v *Var, t Size) bool {
	switch t := t.(type) {
	case *Var:
		return t == v
	case *Cross:
		return occurs(v, t.L) || occurs(v, t.R)
	case *Sum:
		return occurs(v, t.L) || occurs(v, t.R)
	}
	return false
}

// Equal reports whether two resolved sizes are the same size. Two ⊥ iteration sizes are not
// equal: externals never share a loop.
func Equal(a, b Size) bool {
	switch a := a.(type) {
	case *Var:
		bv, ok := b.(*Var)
		return ok && a == bv
	case *Cross:
		bc, ok := b.(*Cross)
		return ok && Equal(a.L, bc.L) && Equal(a.R, bc.R)
	case *Sum:
		bs, ok := b.(*Sum)
		return ok && Equal(a.L, bs.L) && Equal(a.R, bs.R)
	}
	return false
}

// vars lists the variables of a size, left to right, each once.
func vars(t Size, into []*Var) []*Var {
	switch t := t.(type) {
	case *Var:
		for _, v := range into {
			if v == t {
				return into
			}
		}
		return append(into, t)
	case *Cross:
		return vars(t.R, vars(t.L, into))
	case *Sum:
		return vars(t.R, vars(t.L, into))
	}
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
}

func (n *naming) add(t Size) {
	for _, v := range vars(t, nil) {
		if _, ok := n.index[v]; !ok {
			n.index[v] = len(n.index) + 1
		}
	}
}

// format prints a size: "k1", "k1 × k2" (unicode) or "k1 * k2" (ASCII), "k1 + k2"; nested
// compound sizes are parenthesised.
func (n *naming) format(t Size, unicode bool) string {
	var b strings.Builder
	n.write(&b, t, unicode, false)
	return b.String()
}

func (n *naming) write(b *strings.Builder, t Size, unicode, nested bool) {
	switch t := t.(type) {
	case nil:
		if unicode {
			b.WriteString("⊥")
		} else {
			b.WriteString("unknown")
		}
	case *Var:
		i, ok := n.index[t]
		if !ok {
			n.index[t] = len(n.index) + 1
			i = n.index[t]
		}
		fmt.Fprintf(b, "k%d", i)
	case *Cross:
		if nested {
			b.WriteString("(")
		}
		n.write(b, t.L, unicode, true)
		if unicode {
			b.WriteString(" × ")
		} else {
			b.WriteString(" * ")
		}
		n.write(b, t.R, unicode, true)
		if nested {
			b.WriteString(")")
		}
	case *Sum:
		if nested {
			b.WriteString("(")
		}
		n.write(b, t.L, unicode, true)
		b.WriteString(" + ")
		n.write(b, t.R, unicode, true)
		if nested {
			b.WriteString(")")
		}
	}
}
