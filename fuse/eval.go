package fuse

import (
	"fmt"
	"math"

	"github.com/cnf-tools/cnf/internal/numeric"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Env binds names to values: heap variables, scalars of the program, lambda parameters.
type Env struct {
	vars   map[string]Value
	parent *Env
	types  *types.Info // at the root: the types of the definition's integer literals
}

// NewEnv returns an environment with the given bindings.
func NewEnv(vars map[string]Value) *Env { return NewTypedEnv(vars, nil) }

// NewTypedEnv returns an environment with the given bindings in which an integer literal that
// the definition's types (info, may be nil) make a Float evaluates to a Float: fold (+) 0 over
// an empty Array Float is 0.0, and 1 / 2 at Float is 0.5, as compiled code computes them.
func NewTypedEnv(vars map[string]Value, info *types.Info) *Env {
	if vars == nil {
		vars = map[string]Value{}
	}
	return &Env{vars: vars, types: info}
}

// floatLit reports whether the definition's types make lit a Float.
func (e *Env) floatLit(lit *syntax.IntLit) bool {
	for ; e != nil; e = e.parent {
		if e.types != nil {
			return e.types.IsFloat(lit)
		}
	}
	return false
}

func (e *Env) lookup(name string) (Value, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// UnknownHostError reports a call of a host function the library does not have: such a
// program can be checked, clustered, fused and printed, but not run.
type UnknownHostError struct{ Name string }

func (e *UnknownHostError) Error() string {
	return fmt.Sprintf("unknown host function %s: the program can be fused and printed but not run", e.Name)
}

// Eval evaluates a worker expression.
func Eval(e syntax.Expr, env *Env) (Value, error) {
	switch e := e.(type) {
	case *syntax.Ident:
		if v, ok := env.lookup(e.Name); ok {
			return v, nil
		}
		if v, ok := builtin(e.Name); ok {
			return v, nil
		}
		return nil, &UnknownHostError{Name: e.Name}
	case *syntax.IntLit:
		if env.floatLit(e) {
			return float64(e.Value), nil
		}
		return e.Value, nil
	case *syntax.FloatLit:
		return e.Value, nil
	case *syntax.BoolLit:
		return e.Value, nil
	case *syntax.Paren:
		return Eval(e.X, env)
	case *syntax.Neg:
		x, err := Eval(e.X, env)
		if err != nil {
			return nil, err
		}
		return negate(x)
	case *syntax.App:
		f, err := Eval(e.Fun, env)
		if err != nil {
			return nil, err
		}
		args := make([]Value, len(e.Args))
		for i, a := range e.Args {
			if args[i], err = Eval(a, env); err != nil {
				return nil, err
			}
		}
		return Apply(f, args...)
	case *syntax.Binary:
		return evalBinary(e, env)
	case *syntax.Section:
		op, err := operator(e.Op, env)
		if err != nil {
			return nil, err
		}
		switch {
		case e.X != nil:
			x, err := Eval(e.X, env)
			if err != nil {
				return nil, err
			}
			return Apply(op, x)
		case e.Y != nil:
			y, err := Eval(e.Y, env)
			if err != nil {
				return nil, err
			}
			return &Func{Name: "(" + e.Op.Name + " _)", Arity: 1, Call: func(a []Value) (Value, error) { return Apply(op, a[0], y) }}, nil
		}
		return op, nil
	case *syntax.Lambda:
		return &Func{Name: "lambda", Arity: len(e.Params), Call: func(args []Value) (Value, error) {
			inner := &Env{vars: map[string]Value{}, parent: env}
			for i, p := range e.Params {
				if err := bind(p, args[i], inner.vars); err != nil {
					return nil, err
				}
			}
			return Eval(e.Body, inner)
		}}, nil
	case *syntax.Tuple:
		t := make(Tuple, len(e.Elems))
		for i, x := range e.Elems {
			v, err := Eval(x, env)
			if err != nil {
				return nil, err
			}
			t[i] = v
		}
		return t, nil
	case *syntax.If:
		c, err := Eval(e.Cond, env)
		if err != nil {
			return nil, err
		}
		b, ok := c.(bool)
		if !ok {
			return nil, fmt.Errorf("if needs a Bool, got %s", FormatValue(c))
		}
		if b {
			return Eval(e.Then, env)
		}
		return Eval(e.Else, env)
	}
	return nil, fmt.Errorf("cannot evaluate %s", syntax.FormatExpr(e))
}

func bind(p syntax.Pattern, v Value, into map[string]Value) error {
	switch p := p.(type) {
	case *syntax.Ident:
		into[p.Name] = v
	case *syntax.TuplePattern:
		t, ok := v.(Tuple)
		if !ok || len(t) != len(p.Elems) {
			return fmt.Errorf("pattern %d-tuple does not match %s", len(p.Elems), FormatValue(v))
		}
		for i, q := range p.Elems {
			if err := bind(q, t[i], into); err != nil {
				return err
			}
		}
	}
	return nil
}

// Apply applies a function value to arguments, currying as needed.
func Apply(f Value, args ...Value) (Value, error) {
	for len(args) > 0 {
		fn, ok := f.(*Func)
		if !ok {
			return nil, fmt.Errorf("%s is not a function", FormatValue(f))
		}
		need := fn.Arity - len(fn.Args)
		if len(args) < need {
			return &Func{Name: fn.Name, Arity: fn.Arity, Args: append(append([]Value{}, fn.Args...), args...), Call: fn.Call}, nil
		}
		all := append(append([]Value{}, fn.Args...), args[:need]...)
		args = args[need:]
		v, err := fn.Call(all)
		if err != nil {
			return nil, err
		}
		f = v
	}
	return f, nil
}

func operator(op *syntax.Op, env *Env) (Value, error) {
	if op.Backtick {
		if v, ok := env.lookup(op.Name); ok {
			return v, nil
		}
	}
	if v, ok := builtin(op.Name); ok {
		return v, nil
	}
	return nil, &UnknownHostError{Name: op.Name}
}

func evalBinary(e *syntax.Binary, env *Env) (Value, error) {
	switch e.Op.Name {
	case "&&", "||":
		x, err := Eval(e.X, env)
		if err != nil {
			return nil, err
		}
		b, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("%s needs Bools, got %s", e.Op.Name, FormatValue(x))
		}
		if b == (e.Op.Name == "||") {
			return b, nil
		}
		y, err := Eval(e.Y, env)
		if err != nil {
			return nil, err
		}
		if _, ok := y.(bool); !ok {
			return nil, fmt.Errorf("%s needs Bools, got %s", e.Op.Name, FormatValue(y))
		}
		return y, nil
	}
	op, err := operator(e.Op, env)
	if err != nil {
		return nil, err
	}
	x, err := Eval(e.X, env)
	if err != nil {
		return nil, err
	}
	y, err := Eval(e.Y, env)
	if err != nil {
		return nil, err
	}
	return Apply(op, x, y)
}

func fn1(name string, f func(Value) (Value, error)) *Func {
	return &Func{Name: name, Arity: 1, Call: func(a []Value) (Value, error) { return f(a[0]) }}
}

func fn2(name string, f func(a, b Value) (Value, error)) *Func {
	return &Func{Name: name, Arity: 2, Call: func(a []Value) (Value, error) { return f(a[0], a[1]) }}
}

// builtin returns the host function or constant called name. The library is fixed: no global
// state is mutated, and each call builds fresh values.
func builtin(name string) (Value, bool) {
	switch name {
	case "+", "-", "*", "/", "div", "mod", "quot", "rem", "^", "**":
		return fn2(name, func(a, b Value) (Value, error) { return arith(name, a, b) }), true
	case "==", "/=", "<", "<=", ">", ">=":
		return fn2(name, func(a, b Value) (Value, error) { return compareOp(name, a, b) }), true
	case "min", "max":
		return fn2(name, func(a, b Value) (Value, error) {
			c, err := compare(a, b)
			if err != nil {
				return nil, err
			}
			if (c <= 0) == (name == "min") {
				return a, nil
			}
			return b, nil
		}), true
	case "&&", "||":
		return fn2(name, func(a, b Value) (Value, error) {
			x, ok1 := a.(bool)
			y, ok2 := b.(bool)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("%s needs Bools", name)
			}
			if name == "&&" {
				return x && y, nil
			}
			return x || y, nil
		}), true
	case "!":
		return fn2(name, index), true
	case ".":
		return fn2(name, func(f, g Value) (Value, error) {
			return fn1("composition", func(x Value) (Value, error) {
				y, err := Apply(g, x)
				if err != nil {
					return nil, err
				}
				return Apply(f, y)
			}), nil
		}), true
	case "$":
		return fn2(name, func(f, x Value) (Value, error) { return Apply(f, x) }), true
	case "subtract":
		return fn2(name, func(a, b Value) (Value, error) { return arith("-", b, a) }), true
	case "negate":
		return fn1(name, negate), true
	case "abs":
		return fn1(name, func(a Value) (Value, error) {
			switch a := a.(type) {
			case int64:
				if a < 0 {
					return -a, nil
				}
				return a, nil
			case float64:
				return math.Abs(a), nil
			}
			return nil, fmt.Errorf("abs needs a number, got %s", FormatValue(a))
		}), true
	case "signum":
		return fn1(name, func(a Value) (Value, error) {
			c, err := compare(a, int64(0))
			if err != nil {
				return nil, err
			}
			if _, ok := a.(float64); ok {
				return float64(c), nil
			}
			return int64(c), nil
		}), true
	case "sqrt", "exp", "log", "sin", "cos":
		return fn1(name, func(a Value) (Value, error) {
			f, ok := toFloat(a)
			if !ok {
				return nil, fmt.Errorf("%s needs a number, got %s", name, FormatValue(a))
			}
			return map[string]func(float64) float64{"sqrt": math.Sqrt, "exp": numeric.Exp, "log": numeric.Log, "sin": numeric.Sin, "cos": numeric.Cos}[name](f), nil
		}), true
	case "fromIntegral", "toFloat":
		return fn1(name, func(a Value) (Value, error) {
			f, ok := toFloat(a)
			if !ok {
				return nil, fmt.Errorf("%s needs a number", name)
			}
			return f, nil
		}), true
	case "truncate", "round", "floor", "ceiling":
		return fn1(name, func(a Value) (Value, error) {
			switch a := a.(type) {
			case int64:
				return a, nil
			case float64:
				r := map[string]func(float64) float64{"truncate": math.Trunc, "round": math.RoundToEven, "floor": math.Floor, "ceiling": math.Ceil}[name](a)
				return int64(r), nil
			}
			return nil, fmt.Errorf("%s needs a number", name)
		}), true
	case "even", "odd":
		return fn1(name, func(a Value) (Value, error) {
			n, ok := a.(int64)
			if !ok {
				return nil, fmt.Errorf("%s needs an Int, got %s", name, FormatValue(a))
			}
			return (n%2 == 0) == (name == "even"), nil
		}), true
	case "not":
		return fn1(name, func(a Value) (Value, error) {
			b, ok := a.(bool)
			if !ok {
				return nil, fmt.Errorf("not needs a Bool")
			}
			return !b, nil
		}), true
	case "fst", "snd":
		return fn1(name, func(a Value) (Value, error) {
			t, ok := a.(Tuple)
			if !ok || len(t) != 2 {
				return nil, fmt.Errorf("%s needs a pair, got %s", name, FormatValue(a))
			}
			if name == "fst" {
				return t[0], nil
			}
			return t[1], nil
		}), true
	case "id":
		return fn1(name, func(a Value) (Value, error) { return a, nil }), true
	case "const":
		return fn2(name, func(a, _ Value) (Value, error) { return a, nil }), true
	case "infinity":
		return math.Inf(1), true
	case "negInfinity":
		return math.Inf(-1), true
	case "length":
		return fn1(name, func(a Value) (Value, error) {
			arr, ok := a.(Array)
			if !ok {
				return nil, fmt.Errorf("length needs an array")
			}
			return int64(len(arr)), nil
		}), true
	}
	if len(name) >= 3 && name[0] == '(' && name[len(name)-1] == ')' {
		n := len(name) - 1 // "(,)" builds pairs, "(,,)" triples
		return &Func{Name: name, Arity: n, Call: func(a []Value) (Value, error) { return Tuple(append([]Value{}, a...)), nil }}, true
	}
	return nil, false
}

func index(a, i Value) (Value, error) {
	arr, ok := a.(Array)
	if !ok {
		return nil, fmt.Errorf("indexing needs an array, got %s", FormatValue(a))
	}
	n, ok := i.(int64)
	if !ok {
		return nil, fmt.Errorf("an index must be an Int, got %s", FormatValue(i))
	}
	if n < 0 || n >= int64(len(arr)) {
		return nil, fmt.Errorf("index %d out of range for an array of %d elements", n, len(arr))
	}
	return arr[n], nil
}

func toFloat(v Value) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

func negate(x Value) (Value, error) {
	switch x := x.(type) {
	case int64:
		return -x, nil
	case float64:
		return -x, nil
	}
	return nil, fmt.Errorf("cannot negate %s", FormatValue(x))
}

func arith(op string, a, b Value) (Value, error) {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		switch op {
		case "+":
			return ai + bi, nil
		case "-":
			return ai - bi, nil
		case "*":
			return ai * bi, nil
		case "/", "quot", "div", "mod", "rem":
			if bi == 0 {
				return nil, fmt.Errorf("division by zero")
			}
			switch op {
			case "/", "quot":
				return ai / bi, nil
			case "rem":
				return ai % bi, nil
			case "div":
				q := ai / bi
				if (ai%bi != 0) && ((ai < 0) != (bi < 0)) {
					q--
				}
				return q, nil
			default: // mod
				m := ai % bi
				if m != 0 && ((m < 0) != (bi < 0)) {
					m += bi
				}
				return m, nil
			}
		case "^":
			if bi < 0 {
				return nil, fmt.Errorf("negative exponent %d", bi)
			}
			return numeric.PowInt(ai, bi), nil
		case "**":
			return numeric.Pow(float64(ai), float64(bi)), nil
		}
	}
	af, ok1 := toFloat(a)
	bf, ok2 := toFloat(b)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s needs numbers, got %s and %s", op, FormatValue(a), FormatValue(b))
	}
	switch op {
	case "+":
		return af + bf, nil
	case "-":
		return af - bf, nil
	case "*":
		return af * bf, nil
	case "/":
		return af / bf, nil
	case "^":
		if !bInt {
			return nil, fmt.Errorf("^ needs an Int exponent, got %s", FormatValue(b))
		}
		if bi < 0 {
			return nil, fmt.Errorf("negative exponent %d", bi)
		}
		return numeric.PowFloat(af, bi), nil
	case "**":
		return numeric.Pow(af, bf), nil
	}
	return nil, fmt.Errorf("%s needs Ints", op)
}

func compare(a, b Value) (int, error) {
	if ai, ok := a.(int64); ok {
		if bi, ok := b.(int64); ok {
			switch {
			case ai < bi:
				return -1, nil
			case ai > bi:
				return 1, nil
			}
			return 0, nil
		}
	}
	if af, ok := toFloat(a); ok {
		if bf, ok := toFloat(b); ok {
			switch {
			case af < bf:
				return -1, nil
			case af > bf:
				return 1, nil
			}
			return 0, nil
		}
	}
	if ab, ok := a.(bool); ok {
		if bb, ok := b.(bool); ok {
			switch {
			case ab == bb:
				return 0, nil
			case !ab:
				return -1, nil
			}
			return 1, nil
		}
	}
	if at, ok := a.(Tuple); ok {
		if bt, ok := b.(Tuple); ok && len(at) == len(bt) {
			for i := range at {
				c, err := compare(at[i], bt[i])
				if err != nil || c != 0 {
					return c, err
				}
			}
			return 0, nil
		}
	}
	return 0, fmt.Errorf("cannot compare %s with %s", FormatValue(a), FormatValue(b))
}

func compareOp(op string, a, b Value) (Value, error) {
	c, err := compare(a, b)
	if err != nil {
		return nil, err
	}
	switch op {
	case "==":
		return c == 0, nil
	case "/=":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}
