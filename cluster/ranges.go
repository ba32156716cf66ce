package cluster

import (
	"math"

	"github.com/cnf-tools/cnf/syntax"
)

// contradicts says the conjunction e (a && b, nested, in parentheses) holds for no element:
// two of its conjuncts compare one expression with constants (`x == (x - x)`, `x > 6`, either
// side) and bound it to intervals that do not meet, so the filter keeps nothing (the
// compiler's codegen/ranges.go decides the same tests, with types, for its code). Only a
// weight: a Float compared so counts as an Int.
func contradicts(e syntax.Expr, bound map[string]bool) bool {
	var spans Spans
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		e = syntax.Unparen(e)
		b, ok := e.(*syntax.Binary)
		if !ok || b.Op == nil || b.Op.Backtick || bound[b.Op.Name] {
			return
		}
		if b.Op.Name == "&&" {
			walk(b.X)
			walk(b.Y)
			return
		}
		if of, lo, hi, ok := interval(b, bound); ok {
			spans.Meet(of, lo, hi, sameExpr)
		}
	}
	walk(e)
	return spans.Empty()
}

// Spans are the intervals the conjuncts of one conjunction bound expressions to, met per
// expression: the conjunction holds for no element when one expression's is empty. Both
// readers of such tests use them: the weights (contradicts) and the compiler
// (codegen/ranges.go), each with its own sameness of expressions.
type Spans struct {
	spans []span
}

type span struct {
	of     syntax.Expr
	lo, hi int64
}

// Meet narrows of's interval by [lo, hi] (the first bound of of is its interval); same says
// whether two expressions are one.
func (s *Spans) Meet(of syntax.Expr, lo, hi int64, same func(a, b syntax.Expr) bool) {
	for i := range s.spans {
		if same(s.spans[i].of, of) {
			s.spans[i].lo, s.spans[i].hi = max(s.spans[i].lo, lo), min(s.spans[i].hi, hi)
			return
		}
	}
	s.spans = append(s.spans, span{of, lo, hi})
}

// Empty reports whether some expression's interval is empty.
func (s *Spans) Empty() bool {
	for _, sp := range s.spans {
		if sp.lo > sp.hi {
			return true
		}
	}
	return false
}

// interval is the comparison b of an expression with an Int constant as the interval [lo, hi]
// the expression lies in where b holds (empty where none does).
func interval(b *syntax.Binary, bound map[string]bool) (of syntax.Expr, lo, hi int64, ok bool) {
	of, other, mirrored := b.X, b.Y, false
	c := evalUniform(other, bound)
	if !c.known || c.isBool {
		if c = evalUniform(of, bound); !c.known || c.isBool {
			return nil, 0, 0, false
		}
		of, mirrored = other, true
	}
	if v := evalUniform(of, bound); v.known {
		return nil, 0, 0, false // both constants: evalUniform decides it
	}
	lo, hi, ok = ComparisonInterval(b.Op.Name, c.i, mirrored)
	return of, lo, hi, ok
}

// ComparisonInterval is the interval [lo, hi] of the Ints e for which `e op c` holds (`c op
// e` when mirrored), with ok when op is a comparison that bounds e to one interval (not /=);
// empty (lo > hi) where no Int satisfies it. The compiler's codegen/ranges.go reads the same
// comparisons with types.
func ComparisonInterval(op string, c int64, mirrored bool) (lo, hi int64, ok bool) {
	if mirrored {
		op = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "=="}[op]
	}
	switch op {
	case "==":
		return c, c, true
	case "<=":
		return math.MinInt64, c, true
	case ">=":
		return c, math.MaxInt64, true
	case "<":
		if c == math.MinInt64 {
			return 1, 0, true
		}
		return math.MinInt64, c - 1, true
	case ">":
		if c == math.MaxInt64 {
			return 1, 0, true
		}
		return c + 1, math.MaxInt64, true
	}
	return 0, 0, false
}
