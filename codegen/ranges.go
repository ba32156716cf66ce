package codegen

import (
	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
)

// A conjunction of comparisons that no Int satisfies. truth (truth.go) decides comparisons of
// an expression with itself; the generators also write tests such as `x == (x - x) && x > 6`
// (x is 0 and above 6) or `(x < 3) && (x >= 5)`, false for every element, which keep nothing:
// fused with a fold over what they keep, the fold's mask hid that from gcc, which read every
// element, where a loop of the filter alone lets gcc fold the test and read nothing (glued 214:
// 3.2 against 0.3 ms at 10^7; docs/performance.md, "Tests no Int passes"). contradiction finds
// them: each conjunct that compares a pure Int expression with a constant bounds it to an
// interval, and the conjunction is false where one expression's intervals do not meet.

// contradiction says the pure conjunction e (a && b, nested, in parentheses) holds for no
// element: two of its conjuncts bound one Int expression to intervals that do not meet.
func (x *exprs) contradiction(e syntax.Expr, bound map[string]bool) bool {
	if !x.pure(e, bound) {
		return false
	}
	var spans cluster.Spans
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		e = x.plain(e)
		if b, ok := e.(*syntax.Binary); ok && b.Op.Name == "&&" && !b.Op.Backtick && x.prelude("&&", bound) {
			walk(b.X)
			walk(b.Y)
			return
		}
		if of, lo, hi, ok := x.interval(e, bound); ok {
			spans.Meet(of, lo, hi, x.same)
		}
	}
	walk(e)
	return spans.Empty()
}

// interval is the comparison e of an Int expression with a constant (either side) as the
// interval [lo, hi] the expression lies in where e holds; empty (lo > hi) where none does.
func (x *exprs) interval(e syntax.Expr, bound map[string]bool) (of syntax.Expr, lo, hi int64, ok bool) {
	b, isBinary := e.(*syntax.Binary)
	if !isBinary || b.Op.Backtick || !x.prelude(b.Op.Name, bound) {
		return nil, 0, 0, false
	}
	of, other, mirrored := b.X, b.Y, false
	c, isConst := x.constInt(other, bound)
	if !isConst {
		if c, isConst = x.constInt(of, bound); !isConst {
			return nil, 0, 0, false
		}
		of, mirrored = other, true
	}
	if kindOf(x.rec[of]) != "Int" {
		return nil, 0, 0, false
	}
	lo, hi, ok = cluster.ComparisonInterval(b.Op.Name, c, mirrored)
	return of, lo, hi, ok
}

// constInt is the value of an Int expression that is the same for every element and follows
// from its text: a literal, its negation, e - e, e * 0, and sums, differences and products of
// those (wrapping, as the compiled code's -fwrapv and the interpreter's do).
func (x *exprs) constInt(e syntax.Expr, bound map[string]bool) (int64, bool) {
	e = x.plain(e)
	if kindOf(x.rec[e]) != "Int" {
		return 0, false
	}
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Neg:
		v, ok := x.constInt(e.X, bound)
		return -v, ok
	case *syntax.Binary:
		if e.Op.Backtick || !x.prelude(e.Op.Name, bound) || !x.pure(e, bound) {
			return 0, false
		}
		switch e.Op.Name {
		case "-":
			if x.same(e.X, e.Y) {
				return 0, true
			}
		case "*":
			if isZero(x.plain(e.X)) || isZero(x.plain(e.Y)) {
				return 0, true
			}
		}
		a, okA := x.constInt(e.X, bound)
		b, okB := x.constInt(e.Y, bound)
		if !okA || !okB {
			return 0, false
		}
		switch e.Op.Name {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		}
	}
	return 0, false
}
