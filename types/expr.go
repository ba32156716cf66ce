package types

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// expr infers the type of a worker expression. A clash inside it is reported where it shows,
// and the expression gets a fresh type so that checking goes on.
func (c *checker) expr(e syntax.Expr) *Type {
	t := c.expr1(e)
	if c.record != nil {
		c.record[e] = t
	}
	return t
}

func (c *checker) expr1(e syntax.Expr) *Type {
	switch e := e.(type) {
	case *syntax.IntLit:
		t := c.fresh(true) // Int or Float, as its use says
		c.lits[e] = t
		return t
	case *syntax.FloatLit:
		return floatType
	case *syntax.BoolLit:
		return boolType
	case *syntax.Paren:
		return c.expr(e.X)
	case *syntax.Ident:
		t := c.ident(e)
		c.uses[e] = t
		return t
	case *syntax.Neg:
		t := c.expr(e.X)
		c.unifyAt(e.X.Span(), c.fresh(true), t, func() string { return "negation needs a number" })
		return t
	case *syntax.Tuple:
		elems := make([]*Type, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = c.expr(x)
		}
		return tuple(elems...)
	case *syntax.If:
		c.unifyAt(e.Cond.Span(), boolType, c.expr(e.Cond), func() string { return "the condition of if must be a Bool" })
		t := c.expr(e.Then)
		c.unifyAt(e.Else.Span(), t, c.expr(e.Else), func() string { return "both branches of if have one type, " + t.String() })
		return t
	case *syntax.Lambda:
		locals := map[string]*Type{}
		params := make([]*Type, len(e.Params))
		for i, p := range e.Params {
			params[i] = c.pattern(p, locals)
		}
		c.locals = append(c.locals, locals)
		body := c.expr(e.Body)
		c.locals = c.locals[:len(c.locals)-1]
		return fns(body, params...)
	case *syntax.App:
		f := c.expr(e.Fun)
		for _, a := range e.Args {
			res := c.fresh(false)
			at := c.expr(a)
			if !c.unifyAt(a.Span(), fn(at, res), f, func() string { return fmt.Sprintf("%s is applied to %s", syntax.FormatExpr(e.Fun), at) }) {
				return c.fresh(false)
			}
			f = res
		}
		return f
	case *syntax.Binary:
		op := c.operator(e.Op)
		if c.ops != nil {
			c.ops[e.Op] = op
		}
		x, y := c.expr(e.X), c.expr(e.Y)
		res := c.fresh(false)
		if !c.unifyAt(e.Range, fns(res, x, y), op, func() string { return fmt.Sprintf("%s is applied to %s and %s", e.Op.Name, x, y) }) {
			return c.fresh(false)
		}
		return res
	case *syntax.Section:
		op := c.operator(e.Op)
		if c.ops != nil {
			c.ops[e.Op] = op
		}
		switch {
		case e.X != nil: // (x op) = \y -> x op y
			x, y, res := c.expr(e.X), c.fresh(false), c.fresh(false)
			if !c.unifyAt(e.Range, fns(res, x, y), op, func() string { return fmt.Sprintf("%s is applied to %s", e.Op.Name, x) }) {
				return c.fresh(false)
			}
			return fn(y, res)
		case e.Y != nil: // (op y) = \x -> x op y
			x, y, res := c.fresh(false), c.expr(e.Y), c.fresh(false)
			if !c.unifyAt(e.Range, fns(res, x, y), op, func() string { return fmt.Sprintf("%s is applied to %s on its right", e.Op.Name, y) }) {
				return c.fresh(false)
			}
			return fn(x, res)
		}
		return op
	}
	return c.fresh(false)
}

// pattern types a lambda parameter, binding its names in locals.
func (c *checker) pattern(p syntax.Pattern, locals map[string]*Type) *Type {
	switch p := p.(type) {
	case *syntax.Ident:
		t := c.fresh(false)
		locals[p.Name] = t
		c.uses[p] = t
		return t
	case *syntax.TuplePattern:
		elems := make([]*Type, len(p.Elems))
		for i, e := range p.Elems {
			elems[i] = c.pattern(e, locals)
		}
		return tuple(elems...)
	}
	return c.fresh(false)
}

// ident is the type of a name in a worker: a lambda parameter, a scalar or array of the
// definition, a declared host function, or a prelude function.
func (c *checker) ident(id *syntax.Ident) *Type {
	for i := len(c.locals) - 1; i >= 0; i-- {
		if t, ok := c.locals[i][id.Name]; ok {
			return t
		}
	}
	if t, ok := c.scope[id.Name]; ok {
		return t
	}
	if t, ok := c.env.hosts[id.Name]; ok {
		return c.instantiate(t)
	}
	if t := c.builtin(id.Name); t != nil {
		return t
	}
	return c.fresh(false) // an undeclared host function: the front end reports it if need be
}

// operator is the type of an operator or a backticked function.
func (c *checker) operator(op *syntax.Op) *Type {
	if op.Backtick {
		return c.ident(&syntax.Ident{Range: op.Range, Name: op.Name})
	}
	if t := c.builtin(op.Name); t != nil {
		return t
	}
	return c.fresh(false)
}

// builtin is a fresh instance of the type of an operator or prelude function, or nil. The
// arithmetic operators work on Int or Float (both operands alike); / divides Ints as quot does
// and Floats exactly, as the reference interpreter does; ** is Float power.
func (c *checker) builtin(name string) *Type {
	switch name {
	case "+", "-", "*", "/":
		a := c.fresh(true)
		return fns(a, a, a)
	case "^":
		a := c.fresh(true)
		return fns(a, a, intType)
	case "**":
		return fns(floatType, floatType, floatType)
	case "==", "/=", "<", "<=", ">", ">=":
		a := c.fresh(false)
		return fns(boolType, a, a)
	case "&&", "||":
		return fns(boolType, boolType, boolType)
	case "!":
		a := c.fresh(false)
		return fns(a, array(a), intType)
	case ".":
		a, b, r := c.fresh(false), c.fresh(false), c.fresh(false)
		return fns(fn(a, r), fn(b, r), fn(a, b))
	case "$":
		a, r := c.fresh(false), c.fresh(false)
		return fns(r, fn(a, r), a)
	// The prelude table writes these a -> a; they take numbers only, which its notation
	// cannot say. (min and max take any ordered type, as the table says.)
	case "abs", "negate", "signum":
		a := c.fresh(true)
		return fn(a, a)
	case "subtract":
		a := c.fresh(true)
		return fns(a, a, a)
	}
	if t, ok := c.env.prelude[name]; ok {
		return c.instantiate(t)
	}
	if n := len(name) - 1; n >= 2 && name[0] == '(' && name[n] == ')' && strings.Trim(name[1:n], ",") == "" {
		elems := make([]*Type, n) // "(,)" builds pairs, "(,,)" triples
		for i := range elems {
			elems[i] = c.fresh(false)
		}
		return fns(tuple(elems...), elems...)
	}
	return nil
}

// preludeType parses a prelude function's written type.
func preludeType(p syntax.PreludeFunc) *Type {
	f, _ := syntax.Parse("prelude", []byte(p.Name+" :: "+p.Type+"\n"))
	for _, d := range f.Decls {
		if sig, ok := d.(*syntax.Signature); ok && sig.Type != nil {
			return fromSyntax(sig.Type, map[string]*Type{}, new(int))
		}
	}
	return &Type{kind: kVar}
}
