package codegen

import (
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// A filter whose test is false for every element keeps nothing. gcc sees that in a loop that
// only tests and compacts (it folds the test to a constant and deletes the loop's reads), but
// not through a map speculated over the filter's input, which reads every element to compute
// values no one keeps. truth finds such tests in the worker itself: comparisons of an
// expression with itself (x > x, x /= x for Ints), conditionals whose branches agree, and the
// Boolean operators over those. Only expressions that cannot fail and call no host function
// are compared (a division by zero in `if c then x else x` is still the reference's error).

// invariant says e has the same value for every element: it does not read the names bound
// (the worker's parameters), or only in ways that cancel (x - x and x * 0 for Ints, a
// conditional whose branches are the same, a comparison whose truth is known). Used only to
// choose code, never to change what it computes: a test that fails still fails where the
// reference fails.
func (x *exprs) invariant(e syntax.Expr, bound map[string]bool) bool {
	if _, known := x.truth(e, bound); known {
		return true
	}
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return true
	case *syntax.Ident:
		return !bound[e.Name]
	case *syntax.Paren:
		return x.invariant(e.X, bound)
	case *syntax.Neg:
		return x.invariant(e.X, bound)
	case *syntax.If:
		if p := x.plain(e); p != syntax.Expr(e) {
			return x.invariant(p, bound)
		}
		return x.invariant(e.Cond, bound) && x.invariant(e.Then, bound) && x.invariant(e.Else, bound)
	case *syntax.Binary:
		if kindOf(x.rec[e.X]) == "Int" && x.prelude(e.Op.Name, bound) && !e.Op.Backtick {
			switch e.Op.Name {
			case "-":
				if x.same(e.X, e.Y) {
					return true
				}
			case "*":
				if isZero(x.plain(e.X)) || isZero(x.plain(e.Y)) {
					return true
				}
			}
		}
		return !bound[e.Op.Name] && x.invariant(e.X, bound) && x.invariant(e.Y, bound)
	case *syntax.App:
		return x.invariant(e.Fun, bound) && every(e.Args, func(a syntax.Expr) bool { return x.invariant(a, bound) })
	}
	return false
}

func isZero(e syntax.Expr) bool {
	l, ok := e.(*syntax.IntLit)
	return ok && l.Value == 0
}

// pureFuncs are the prelude functions that cannot fail, have no effect and, given the same
// arguments, give the same value.
var pureFuncs = map[string]bool{
	"+": true, "-": true, "*": true, "negate": true, "abs": true, "signum": true,
	"max": true, "min": true, "not": true, "fst": true, "snd": true,
	"==": true, "/=": true, "<": true, "<=": true, ">": true, ">=": true, "&&": true, "||": true,
}

// truth is the value of the Boolean expression e when it is the same for every element, with
// known; bound are the names the worker's lambda binds (they shadow prelude functions).
func (x *exprs) truth(e syntax.Expr, bound map[string]bool) (value, known bool) {
	switch e := e.(type) {
	case *syntax.Paren:
		return x.truth(e.X, bound)
	case *syntax.BoolLit:
		return e.Value, true
	case *syntax.If:
		if c, ok := x.truth(e.Cond, bound); ok {
			if c {
				return x.truth(e.Then, bound)
			}
			return x.truth(e.Else, bound)
		}
		a, okA := x.truth(e.Then, bound)
		b, okB := x.truth(e.Else, bound)
		if okA && okB && a == b && x.pure(e.Cond, bound) {
			return a, true
		}
	case *syntax.App:
		if f, ok := e.Fun.(*syntax.Ident); ok && f.Name == "not" && len(e.Args) == 1 && x.prelude(f.Name, bound) {
			if v, ok := x.truth(e.Args[0], bound); ok {
				return !v, true
			}
		}
	case *syntax.Binary:
		if e.Op.Backtick || !x.prelude(e.Op.Name, bound) {
			return false, false
		}
		switch e.Op.Name {
		case "&&", "||":
			a, okA := x.truth(e.X, bound)
			b, okB := x.truth(e.Y, bound)
			and := e.Op.Name == "&&"
			switch {
			case okA && okB:
				if and {
					return a && b, true
				}
				return a || b, true
			// The left operand decides alone (the right is not evaluated); the right
			// decides alone only when the left cannot fail.
			case okA && a != and:
				return a, true
			case okB && b != and && x.pure(e.X, bound):
				return b, true
			case and && x.contradiction(e, bound):
				return false, true // two conjuncts no Int satisfies at once (ranges.go)
			}
		case "<", ">", "==", "/=", "<=", ">=":
			if !x.pure(e.X, bound) || !x.pure(e.Y, bound) || !x.same(e.X, e.Y) {
				return false, false
			}
			// x < x and x > x are false for every value, NaN included; the others hold
			// for Ints and Bools, not for a Float NaN.
			if e.Op.Name == "<" || e.Op.Name == ">" {
				return false, true
			}
			t := x.rec[e.X]
			if t == nil || (t.Kind() != "Int" && t.Kind() != "Bool") {
				return false, false
			}
			return e.Op.Name != "/=", true
		}
	}
	return false, false
}

// prelude says name is the prelude's function here, not a name the worker or the definition
// binds.
func (x *exprs) prelude(name string, bound map[string]bool) bool {
	if bound[name] {
		return false
	}
	_, shadowed := x.vars[name]
	return !shadowed
}

// pure says e cannot fail, calls no host function, and has the same value wherever it is
// evaluated within one element's test: literals, names, and the prelude's total functions.
func (x *exprs) pure(e syntax.Expr, bound map[string]bool) bool {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return true
	case *syntax.Ident:
		if bound[e.Name] {
			return true
		}
		if v, ok := x.vars[e.Name]; ok {
			return v.fn == nil
		}
		return false
	case *syntax.Paren:
		return x.pure(e.X, bound)
	case *syntax.Neg:
		return x.pure(e.X, bound)
	case *syntax.If:
		return x.pure(e.Cond, bound) && x.pure(e.Then, bound) && x.pure(e.Else, bound)
	case *syntax.Tuple:
		return every(e.Elems, func(el syntax.Expr) bool { return x.pure(el, bound) })
	case *syntax.Binary:
		return pureFuncs[e.Op.Name] && x.prelude(e.Op.Name, bound) && x.pure(e.X, bound) && x.pure(e.Y, bound)
	case *syntax.App:
		f, ok := e.Fun.(*syntax.Ident)
		return ok && pureFuncs[f.Name] && x.prelude(f.Name, bound) && every(e.Args, func(a syntax.Expr) bool { return x.pure(a, bound) })
	}
	return false
}

// same says two pure expressions have the same value: alike but for parentheses, and a
// conditional whose branches are the same is its branch.
func (x *exprs) same(a, b syntax.Expr) bool {
	a, b = x.plain(a), x.plain(b)
	switch a := a.(type) {
	case *syntax.Ident:
		b, ok := b.(*syntax.Ident)
		return ok && a.Name == b.Name
	case *syntax.IntLit:
		b, ok := b.(*syntax.IntLit)
		return ok && a.Value == b.Value && kindOf(x.rec[a]) == kindOf(x.rec[b])
	case *syntax.BoolLit:
		b, ok := b.(*syntax.BoolLit)
		return ok && a.Value == b.Value
	case *syntax.Neg:
		b, ok := b.(*syntax.Neg)
		return ok && x.same(a.X, b.X)
	case *syntax.If:
		b, ok := b.(*syntax.If)
		return ok && x.same(a.Cond, b.Cond) && x.same(a.Then, b.Then) && x.same(a.Else, b.Else)
	case *syntax.Binary:
		b, ok := b.(*syntax.Binary)
		return ok && a.Op.Name == b.Op.Name && a.Op.Backtick == b.Op.Backtick && x.same(a.X, b.X) && x.same(a.Y, b.Y)
	case *syntax.App:
		b, ok := b.(*syntax.App)
		if !ok || len(a.Args) != len(b.Args) || !x.same(a.Fun, b.Fun) {
			return false
		}
		for i := range a.Args {
			if !x.same(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *syntax.Tuple:
		b, ok := b.(*syntax.Tuple)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !x.same(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// plain is e without parentheses, and a conditional whose branches are the same as its branch.
func (x *exprs) plain(e syntax.Expr) syntax.Expr {
	for {
		switch v := e.(type) {
		case *syntax.Paren:
			e = v.X
			continue
		case *syntax.If:
			if x.same(v.Then, v.Else) {
				e = v.Then
				continue
			}
		}
		return e
	}
}

func kindOf(t *types.Type) string {
	if t == nil {
		return ""
	}
	return t.Kind()
}

// bindNames adds the names a lambda's parameter pattern binds.
func bindNames(p syntax.Pattern, bound map[string]bool) {
	syntax.PatternNames(p, func(id *syntax.Ident) { bound[id.Name] = true })
}

// every says f holds for each of es.
func every(es []syntax.Expr, f func(syntax.Expr) bool) bool {
	for _, e := range es {
		if !f(e) {
			return false
		}
	}
	return true
}
