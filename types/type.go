package types

import (
	"fmt"
	"strings"
)

// kind is the head of a type.
type kind uint8

const (
	kVar   kind = iota // a type variable, possibly bound (ref)
	kInt               // Int (64-bit), also the type of Nat sizes
	kFloat             // Float (double)
	kBool              // Bool
	kTuple             // (T1, ..., Tn)
	kArray             // Array T
	kFunc              // T1 -> T2 (curried)
	kHost              // a capitalised type the host defines (Point); Args for applied ones
)

// Type is an element, scalar, array or function type. Variables are resolved through ref
// (union-find); use prune before looking at a type.
type Type struct {
	kind  kind
	name  string  // kHost: the name
	elems []*Type // kTuple: components; kArray: [elem]; kFunc: [param, result]; kHost: args
	ref   *Type   // kVar: what it is bound to, or nil
	id    int     // kVar: for printing
	num   bool    // kVar: only Int or Float (a numeric literal, an arithmetic operand)
}

var (
	intType   = &Type{kind: kInt}
	floatType = &Type{kind: kFloat}
	boolType  = &Type{kind: kBool}
)

func tuple(elems ...*Type) *Type { return &Type{kind: kTuple, elems: elems} }
func array(elem *Type) *Type     { return &Type{kind: kArray, elems: []*Type{elem}} }
func fn(param, result *Type) *Type {
	return &Type{kind: kFunc, elems: []*Type{param, result}}
}

// fns is the curried function type p1 -> ... -> pn -> result.
func fns(result *Type, params ...*Type) *Type {
	for i := len(params) - 1; i >= 0; i-- {
		result = fn(params[i], result)
	}
	return result
}

// prune follows bound variables to the type they stand for.
func prune(t *Type) *Type {
	for t.kind == kVar && t.ref != nil {
		t = t.ref
	}
	return t
}

// IsArray reports whether t is an array type.
func (t *Type) IsArray() bool { return prune(t).kind == kArray }

// Elem is the element type of an array type (nil otherwise).
func (t *Type) Elem() *Type {
	if t = prune(t); t.kind == kArray {
		return t.elems[0]
	}
	return nil
}

// String prints the type as signatures write it: Int, Array (Int, Float), Int -> Bool.
// Unresolved variables print as a, b, ...; numeric ones that were never fixed are Int (the
// default, as Haskell's).
func (t *Type) String() string {
	p := &printer{names: map[*Type]string{}}
	p.print(t, false)
	return p.b.String()
}

// maxPrinted bounds a printed type: the element type of a chain of crosses doubles at every
// line, and a message or a hover shows its start.
const maxPrinted = 200

type printer struct {
	b     strings.Builder
	names map[*Type]string
}

func (p *printer) write(s string) { p.b.WriteString(s) }

func (p *printer) print(t *Type, inner bool) {
	if p.b.Len() > maxPrinted {
		if !strings.HasSuffix(p.b.String(), "…") {
			p.write("…")
		}
		return
	}
	t = prune(t)
	switch t.kind {
	case kInt:
		p.write("Int")
	case kFloat:
		p.write("Float")
	case kBool:
		p.write("Bool")
	case kVar:
		if t.num {
			p.write("Int")
			return
		}
		n, ok := p.names[t]
		if !ok {
			n = string(rune('a' + len(p.names)%26))
			if len(p.names) >= 26 {
				n += fmt.Sprint(len(p.names) / 26)
			}
			p.names[t] = n
		}
		p.write(n)
	case kTuple:
		p.write("(")
		for i, e := range t.elems {
			if i > 0 {
				p.write(", ")
			}
			p.print(e, false)
		}
		p.write(")")
	case kArray, kFunc, kHost:
		if inner && (t.kind != kHost || len(t.elems) > 0) {
			p.write("(")
			defer p.write(")")
		}
		switch t.kind {
		case kArray:
			p.write("Array ")
			p.print(t.elems[0], true)
		case kFunc:
			p.print(t.elems[0], true)
			p.write(" -> ")
			p.print(t.elems[1], false)
		default:
			p.write(t.name)
			for _, a := range t.elems {
				p.write(" ")
				p.print(a, true)
			}
		}
	}
}

// occurs reports whether the variable v occurs in t. Types are DAGs that can be exponentially
// larger as trees (each line of a cross chain doubles its element type), so every node is
// visited once.
func occurs(v, t *Type) bool {
	seen := map[*Type]bool{}
	var walk func(t *Type) bool
	walk = func(t *Type) bool {
		t = prune(t)
		if t == v {
			return true
		}
		if seen[t] {
			return false
		}
		seen[t] = true
		for _, e := range t.elems {
			if walk(e) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// mismatch is a failed unification: the two types that differ, as found.
type mismatch struct {
	want, got *Type
	why       string // "" or what made them differ: "Bool is not a number"
}

// unify makes a and b the same type, binding variables, or says where they differ. Pairs
// already unified are remembered, so that two shared DAGs unify in time linear in their nodes.
func unify(a, b *Type) *mismatch {
	return (&unifier{}).unify(a, b)
}

type unifier struct{ done map[[2]*Type]bool } // made on the first composite pair

func (u *unifier) unify(a, b *Type) *mismatch {
	a, b = prune(a), prune(b)
	if a == b || u.done[[2]*Type{a, b}] {
		return nil
	}
	if b.kind == kVar && a.kind != kVar {
		a, b = b, a
	}
	if a.kind == kVar {
		if occurs(a, b) {
			return &mismatch{want: a, got: b, why: "a type that contains itself"}
		}
		if a.num {
			switch b.kind {
			case kVar:
				b.num = true
			case kInt, kFloat:
			default:
				return &mismatch{want: a, got: b, why: b.String() + " is not a number"}
			}
		}
		a.ref = b
		return nil
	}
	if a.kind != b.kind || a.name != b.name || len(a.elems) != len(b.elems) {
		return &mismatch{want: a, got: b}
	}
	if len(a.elems) > 0 {
		if u.done == nil {
			u.done = map[[2]*Type]bool{}
		}
		u.done[[2]*Type{a, b}] = true
	}
	for i := range a.elems {
		if m := u.unify(a.elems[i], b.elems[i]); m != nil {
			return &mismatch{want: a, got: b, why: m.reason()}
		}
	}
	return nil
}

// reason says what differs, for a message.
func (m *mismatch) reason() string {
	if m.why != "" {
		return m.why
	}
	return m.got.String() + " is not " + m.want.String()
}

// Kind names the head of the type: "Int", "Float", "Bool", "Tuple", "Array", "Func", "Host",
// or "Var" for a type nothing fixed (any type fits; a numeric one is Int).
func (t *Type) Kind() string {
	t = prune(t)
	if t.kind == kVar && t.num {
		return "Int"
	}
	return [...]string{"Var", "Int", "Float", "Bool", "Tuple", "Array", "Func", "Host"}[t.kind]
}

// Name is a host type's name (Point), or "".
func (t *Type) Name() string { return prune(t).name }

// Elems are the component types: a tuple's components, an array's element, a function's
// parameter and result, a host type's arguments.
func (t *Type) Elems() []*Type { return prune(t).elems }
