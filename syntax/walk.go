package syntax

import "iter"

// Subexprs yields the immediate subexpressions of e, left to right (a section's operand, an
// application's function then its arguments, ...). It is the one place that knows the shape of
// every expression node; passes that only need to visit use it.
func Subexprs(e Expr) iter.Seq[Expr] {
	return func(yield func(Expr) bool) {
		var kids []Expr
		switch e := e.(type) {
		case *App:
			if !yield(e.Fun) {
				return
			}
			kids = e.Args
		case *Binary:
			kids = []Expr{e.X, e.Y}
		case *Neg:
			kids = []Expr{e.X}
		case *Section:
			kids = []Expr{e.X, e.Y}
		case *Lambda:
			kids = []Expr{e.Body}
		case *Tuple:
			kids = e.Elems
		case *If:
			kids = []Expr{e.Cond, e.Then, e.Else}
		case *Paren:
			kids = []Expr{e.X}
		}
		for _, k := range kids {
			if k != nil && !yield(k) {
				return
			}
		}
	}
}

// deeperThan reports whether e, as a tree, has more than limit levels. It stops descending at
// the limit, so it is safe on any tree the parser builds (a chain of a million additions is a
// million levels deep although the parser builds it in a loop).
func deeperThan(e Expr, limit int) bool {
	if e == nil {
		return false
	}
	if limit <= 0 {
		return true
	}
	for k := range Subexprs(e) {
		if deeperThan(k, limit-1) {
			return true
		}
	}
	return false
}

// Unparen is e without the parentheses around it.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// PatternNames calls f for each name a lambda's parameter pattern binds, left to right.
func PatternNames(p Pattern, f func(*Ident)) {
	switch p := p.(type) {
	case *Ident:
		f(p)
	case *TuplePattern:
		for _, e := range p.Elems {
			PatternNames(e, f)
		}
	}
}
