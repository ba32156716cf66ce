package cluster

import (
	"github.com/cnf-tools/cnf/syntax"
)

// Filters whose test is the same for every element. The random generators (and careless
// programs) write tests such as `\x -> x > x` (false for every element), `\x -> (x - x) /= (7 -
// 2)` (true for every one) or `\x -> (abs x <= x) && (x > x)`: a filter that keeps nothing or
// everything, whatever its input holds. The weights' guess that a filter keeps half is then
// wrong both ways, and it made the optimum read an input twice to avoid writing a filter's
// output that is always empty (glued 170: 0.69 of Megiddo's clustering; docs/performance.md,
// "Filters that keep nothing or everything, weighed so"). knownRate decides such tests from
// the text alone: 0 when the test is false for every element, 1 when true.
//
// It is only a weight: a wrong answer here prices a clustering wrongly and never changes what a
// program computes. So it does not ask for types: `x == x` counts as true although a Float NaN
// is not equal to itself, and a test that fails (a division by zero) counts as whatever it
// would be without failing. A measured rate (SetRates) always wins over it.

// knownRate is the fraction of its input a filter keeps when its test's truth is the same for
// every element and follows from the text, with ok; ok is false otherwise.
func knownRate(f *syntax.Filter) (rate float64, ok bool) {
	bound := map[string]bool{}
	var body syntax.Expr
	switch w := syntax.Unparen(f.Worker).(type) {
	case *syntax.Lambda:
		if len(w.Params) != 1 {
			return 0, false
		}
		syntax.PatternNames(w.Params[0], func(id *syntax.Ident) { bound[id.Name] = true })
		body = w.Body
	default:
		return 0, false
	}
	v := evalUniform(body, bound)
	if !v.known || !v.isBool {
		return 0, false
	}
	if v.b {
		return 1, true
	}
	return 0, true
}

// uniformValue is what evalUniform knows of an expression: nothing, or its value for every
// element (an Int or a Bool).
type uniformValue struct {
	known  bool
	isBool bool
	i      int64
	b      bool
}

func knownInt(i int64) uniformValue { return uniformValue{known: true, i: i} }
func knownBool(b bool) uniformValue { return uniformValue{known: true, isBool: true, b: b} }

// evalUniform is e's value when it is the same for every element: literals, what the prelude's
// total functions make of such values, comparisons of an expression with itself, `e - e` and
// `e * 0`, conditionals decided by their condition or whose branches agree. Names of the
// worker's parameters (bound) and of the definition's scalars are not known.
func evalUniform(e syntax.Expr, bound map[string]bool) uniformValue {
	switch e := e.(type) {
	case *syntax.Paren:
		return evalUniform(e.X, bound)
	case *syntax.IntLit:
		return knownInt(e.Value)
	case *syntax.BoolLit:
		return knownBool(e.Value)
	case *syntax.Neg:
		if v := evalUniform(e.X, bound); v.known && !v.isBool {
			return knownInt(-v.i)
		}
	case *syntax.If:
		c := evalUniform(e.Cond, bound)
		if c.known && c.isBool {
			if c.b {
				return evalUniform(e.Then, bound)
			}
			return evalUniform(e.Else, bound)
		}
		a, b := evalUniform(e.Then, bound), evalUniform(e.Else, bound)
		if a.known && a == b {
			return a
		}
	case *syntax.App:
		f, ok := e.Fun.(*syntax.Ident)
		if !ok || bound[f.Name] {
			return uniformValue{}
		}
		args := make([]uniformValue, len(e.Args))
		for i, a := range e.Args {
			args[i] = evalUniform(a, bound)
		}
		switch {
		case f.Name == "not" && len(args) == 1 && args[0].known && args[0].isBool:
			return knownBool(!args[0].b)
		case (f.Name == "abs" || f.Name == "negate" || f.Name == "signum") && len(args) == 1 && args[0].known && !args[0].isBool:
			x := args[0].i
			switch f.Name {
			case "abs":
				if x < 0 {
					x = -x
				}
			case "negate":
				x = -x
			default:
				x = int64(sign(x))
			}
			return knownInt(x)
		case (f.Name == "max" || f.Name == "min") && len(args) == 2:
			if args[0].known && args[1].known && !args[0].isBool && !args[1].isBool {
				if (f.Name == "max") == (args[0].i > args[1].i) {
					return args[0]
				}
				return args[1]
			}
			if sameExpr(e.Args[0], e.Args[1]) {
				return args[0]
			}
		}
	case *syntax.Binary:
		if e.Op == nil || e.Op.Backtick || bound[e.Op.Name] {
			return uniformValue{}
		}
		x, y := evalUniform(e.X, bound), evalUniform(e.Y, bound)
		switch op := e.Op.Name; op {
		case "&&", "||":
			and := op == "&&"
			switch {
			case x.known && x.isBool && x.b != and: // False && _, True || _
				return x
			case y.known && y.isBool && y.b != and: // _ && False, _ || True (a failing left side fails the program)
				return y
			case x.known && x.isBool && y.known && y.isBool:
				return y
			case and && contradicts(e, bound): // no Int satisfies both (ranges.go)
				return knownBool(false)
			}
		case "+", "-", "*":
			if op == "-" && sameExpr(e.X, e.Y) {
				return knownInt(0)
			}
			if op == "*" && ((x.known && !x.isBool && x.i == 0) || (y.known && !y.isBool && y.i == 0)) {
				return knownInt(0)
			}
			if x.known && y.known && !x.isBool && !y.isBool {
				switch op {
				case "+":
					return knownInt(x.i + y.i)
				case "-":
					return knownInt(x.i - y.i)
				default:
					return knownInt(x.i * y.i)
				}
			}
		case "==", "/=", "<", "<=", ">", ">=":
			if sameExpr(e.X, e.Y) {
				return knownBool(op == "==" || op == "<=" || op == ">=")
			}
			if x.known && y.known && x.isBool == y.isBool {
				if x.isBool {
					switch op {
					case "==":
						return knownBool(x.b == y.b)
					case "/=":
						return knownBool(x.b != y.b)
					}
					return uniformValue{}
				}
				a, b := x.i, y.i
				switch op {
				case "==":
					return knownBool(a == b)
				case "/=":
					return knownBool(a != b)
				case "<":
					return knownBool(a < b)
				case "<=":
					return knownBool(a <= b)
				case ">":
					return knownBool(a > b)
				default:
					return knownBool(a >= b)
				}
			}
		}
	}
	return uniformValue{}
}

func sign(x int64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// sameExpr says a and b are the same expression but for parentheses (the same names, operators
// and literals): their values are equal wherever both are evaluated for one element.
func sameExpr(a, b syntax.Expr) bool {
	a, b = syntax.Unparen(a), syntax.Unparen(b)
	switch a := a.(type) {
	case *syntax.Ident:
		b, ok := b.(*syntax.Ident)
		return ok && a.Name == b.Name
	case *syntax.IntLit:
		b, ok := b.(*syntax.IntLit)
		return ok && a.Value == b.Value
	case *syntax.FloatLit:
		b, ok := b.(*syntax.FloatLit)
		return ok && a.Value == b.Value
	case *syntax.BoolLit:
		b, ok := b.(*syntax.BoolLit)
		return ok && a.Value == b.Value
	case *syntax.Neg:
		b, ok := b.(*syntax.Neg)
		return ok && sameExpr(a.X, b.X)
	case *syntax.If:
		b, ok := b.(*syntax.If)
		return ok && sameExpr(a.Cond, b.Cond) && sameExpr(a.Then, b.Then) && sameExpr(a.Else, b.Else)
	case *syntax.Binary:
		b, ok := b.(*syntax.Binary)
		return ok && a.Op != nil && b.Op != nil && a.Op.Name == b.Op.Name && a.Op.Backtick == b.Op.Backtick && sameExpr(a.X, b.X) && sameExpr(a.Y, b.Y)
	case *syntax.App:
		b, ok := b.(*syntax.App)
		if !ok || len(a.Args) != len(b.Args) || !sameExpr(a.Fun, b.Fun) {
			return false
		}
		for i := range a.Args {
			if !sameExpr(a.Args[i], b.Args[i]) {
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
			if !sameExpr(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
	return false
}
