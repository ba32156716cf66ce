package infer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Length says how the value of a `length xs` binding is found. The length of an array is the
// length of every array of the same size (section 1.7: "it does not require the array to be
// manifest, but does require some array with the same rate to be manifest"), so the sizes
// decide:
//   - when the size of xs is built from the sizes of parameters and from generate sizes that
//     are parameters or literals, the length is known before any loop runs: Known is an
//     expression of the parameters (length p, n, ×, +) that computes it;
//   - otherwise the size is chosen at run time by a transducer, generate or external, and the
//     length must be counted. Source is the array to count: the output of the binding that
//     chose the size, which exists no later than xs (every array of that size descends from it
//     by data flow), or xs itself when its size is a cross or sum with run-time parts.
type Length struct {
	Known  syntax.Expr
	Source string
}

// Describe says how the length is found, for people: "known before any loop: length xs + 3" or
// "counted over ys, whose size is chosen at run time".
func (l Length) Describe() string {
	if l.Known != nil {
		return "known before any loop: " + syntax.FormatExpr(l.Known)
	}
	return "counted over " + l.Source + " in its loop"
}

// KnownSize is an expression of the parameters (length p, n, ×, +) that computes the size of
// the array name before any loop runs, or nil when the size is chosen at run time (by a
// transducer, generate or external), when name is no array, or when the expression would be
// too large to write out.
func (r *Result) KnownSize(name string) syntax.Expr {
	t := r.Size(name)
	if t == nil || treeSize(t, map[Size]int{}) > maxKnownTerms {
		return nil
	}
	return r.sizeExpr(t, 0)
}

// LengthOf returns how a length binding's value is found; ok is false for other bindings.
func (r *Result) LengthOf(b *syntax.Binding) (l Length, ok bool) {
	c, isLen := b.Rhs.(*syntax.Length)
	if !isLen || r.Size(c.Array.Name) == nil {
		return Length{}, false
	}
	t := r.Size(c.Array.Name)
	if treeSize(t, map[Size]int{}) > maxKnownTerms {
		// A size such as that of 20 appends of an array to itself is a small DAG but a huge
		// expression: count it at run time rather than write it out.
		return Length{Source: c.Array.Name}, true
	}
	if e := r.sizeExpr(t, 0); e != nil {
		return Length{Known: e}, true
	}
	if v, isVar := t.(*Var); isVar && v.Rigid && v.Origin != nil {
		return Length{Source: v.Output}, true
	}
	return Length{Source: c.Array.Name}, true
}

// maxKnownTerms bounds the sizes whose length is written as an expression of the parameters.
const maxKnownTerms = 64

// treeSize is the number of nodes of a size written as a tree (at most maxKnownTerms + 1: it
// stops counting there).
func treeSize(t Size, memo map[Size]int) int {
	if n, ok := memo[t]; ok {
		return n
	}
	n := 1
	switch t.(type) {
	case *Cross, *Sum:
		l, r, _ := parts(t)
		n = min(1+treeSize(l, memo)+treeSize(r, memo), maxKnownTerms+1)
	}
	memo[t] = n
	return n
}

// sizeExpr is an expression of the parameters that computes a size, or nil.
func (r *Result) sizeExpr(t Size, depth int) syntax.Expr {
	if depth > 64 {
		return nil
	}
	id := func(name string) *syntax.Ident { return &syntax.Ident{Name: name} }
	switch t := t.(type) {
	case *Var:
		if !t.Rigid {
			for _, p := range r.Func.Params {
				if p.Kind == syntax.Array && Equal(r.Size(p.Name), t) {
					return &syntax.App{Fun: id("length"), Args: []syntax.Expr{id(p.Name)}}
				}
			}
			return nil
		}
		g, isGen := t.Origin.Rhs.(*syntax.Generate)
		if !isGen {
			return nil
		}
		switch n := g.Size.(type) {
		case *syntax.IntLit:
			return &syntax.IntLit{Value: n.Value}
		case *syntax.Ident:
			s := r.Func.Symbols[n.Name]
			if s == nil {
				return nil
			}
			var e syntax.Expr
			switch {
			case s.Binding == nil:
				e = id(n.Name)
			default:
				if lb, ok := s.Binding.Rhs.(*syntax.Length); ok {
					if inner := r.sizeExpr(r.Size(lb.Array.Name), depth+1); inner != nil {
						return inner // a length is never negative
					}
				}
				return nil
			}
			// generate with a negative size makes an empty array.
			return &syntax.App{Fun: id("max"), Args: []syntax.Expr{&syntax.IntLit{Value: 0}, e}}
		}
	case *Cross:
		if l, rr := r.sizeExpr(t.L, depth+1), r.sizeExpr(t.R, depth+1); l != nil && rr != nil {
			return &syntax.Binary{Op: &syntax.Op{Name: "*"}, X: paren(l), Y: paren(rr)}
		}
	case *Sum:
		if l, rr := r.sizeExpr(t.L, depth+1), r.sizeExpr(t.R, depth+1); l != nil && rr != nil {
			return &syntax.Binary{Op: &syntax.Op{Name: "+"}, X: l, Y: rr}
		}
	}
	return nil
}

func paren(e syntax.Expr) syntax.Expr {
	if _, ok := e.(*syntax.Binary); ok {
		return &syntax.Paren{X: e}
	}
	return e
}

// CodeDead is the diagnostic code of bindings that are never computed.
const CodeDead = "dead"

// liveness finds the bindings whose values are needed: those of the results, and, from each
// needed binding, the values it reads. A length reads only the array it counts (or nothing,
// when its value is known before any loop), so an array used only by lengths is not needed:
// it is never computed, and a warning says so. Every stage agrees: the dependency graph leaves
// such bindings out, and the reference interpreter does not evaluate them (so an error in
// computing their elements does not happen, as in a non-strict language).
func (r *Result) liveness() {
	fn := r.Func
	r.live = map[*syntax.Binding]bool{}
	var mark func(b *syntax.Binding)
	mark = func(b *syntax.Binding) {
		if b == nil || r.live[b] {
			return
		}
		r.live[b] = true
		for _, s := range r.Reads(b) {
			mark(s.Binding)
		}
	}
	for _, id := range fn.Def.Results {
		if s := fn.Symbols[id.Name]; s != nil {
			mark(s.Binding)
		}
	}
	for _, b := range fn.Def.Bindings {
		if r.live[b] {
			continue
		}
		used := false
		for _, id := range b.Names {
			used = used || len(fn.Symbols[id.Name].Uses) > 0
		}
		if !used {
			continue // the front end has said that it is never used
		}
		var lengths, dead []string
		for _, other := range fn.Def.Bindings {
			if !slices.ContainsFunc(fn.Inputs[other].Arrays, bindsTo(b)) && !slices.ContainsFunc(fn.Inputs[other].Scalars, bindsTo(b)) {
				continue
			}
			if r.live[other] {
				lengths = append(lengths, other.Name())
			} else {
				dead = append(dead, other.Name())
			}
		}
		why := "it is used only by length " + strings.Join(lengths, ", ") + ", which the sizes give without computing it"
		if len(lengths) == 0 {
			verb := "are"
			if len(dead) == 1 {
				verb = "is"
			}
			why = "it is read only by " + strings.Join(dead, ", ") + ", which " + verb + " never computed"
		}
		r.Diagnostics = append(r.Diagnostics, syntax.Diagnostic{
			Range: b.Names[0].Range, Severity: syntax.Warning, Code: CodeDead,
			Message: fmt.Sprintf("%s is never computed: %s", b.Name(), why),
		})
	}
}

// Live reports whether a binding's value is needed (see liveness). Before inference succeeds,
// every binding is live.
func (r *Result) Live(b *syntax.Binding) bool { return r.live == nil || r.live[b] }

// Reads lists the variables whose values a binding needs: its inputs, except that a length
// needs only the array it counts, or nothing when its value is known before any loop.
func (r *Result) Reads(b *syntax.Binding) []*syntax.Symbol {
	in := r.Func.Inputs[b]
	if l, ok := r.LengthOf(b); ok {
		if l.Known != nil {
			return nil
		}
		if s := r.Func.Symbols[l.Source]; s != nil {
			return []*syntax.Symbol{s}
		}
	}
	return append(append([]*syntax.Symbol{}, in.Arrays...), in.Scalars...)
}

// bindsTo matches the symbols that binding b binds.
func bindsTo(b *syntax.Binding) func(*syntax.Symbol) bool {
	return func(s *syntax.Symbol) bool { return s.Binding == b }
}
