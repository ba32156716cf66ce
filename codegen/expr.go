package codegen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// val is a translated argument: a C expression of type t, or an unapplied function (fn, in the
// scope it was written in), which is inlined where it is finally applied.
type val struct {
	c     string
	t     *types.Type
	fn    syntax.Expr
	scope *scope
	// scalar names a scalar of the definition (a parameter or a fold's result): constant
	// while a loop runs, so a loop dividing by it divides by multiplication (cnf_divider).
	scalar string
}

// scope binds the parameters of the lambdas being inlined, innermost first.
type scope struct {
	name   string
	v      val
	parent *scope
}

func (s *scope) lookup(name string) (val, bool) {
	for ; s != nil; s = s.parent {
		if s.name == name {
			return s.v, true
		}
	}
	return val{}, false
}

// exprs translates the worker expressions of one definition to C. Workers are first order once
// applied: a lambda, a section, a composition or a partial application is inlined where it is
// applied to its arguments (lambdas as GNU statement expressions binding their parameters), so
// the hot loop has no function pointers. Names resolve as the interpreter's environment does:
// lambda parameters, then heap variables and the definition's names (vars), then the prelude,
// then host functions.
type exprs struct {
	p    *program
	rec  map[syntax.Expr]*types.Type // the type of every expression (types.Info.Record)
	ops  map[*syntax.Op]*types.Type  // the type of every operator where it is used
	vars map[string]val              // heap variables and the definition's names, as C
	// divisors, while a loop is written, collects the scalars it divides Ints by: the loop
	// computes a divider for each before it starts.
	divisors map[string]bool
	// scalar is set while a loop that no compiler vectorises is written (a Float fold in
	// order in it, or the per-element state machine): there Float min and max are the SSE
	// instruction (program.scalarMinMax), elsewhere the select gcc vectorises (minMax).
	scalar bool
}

// opIdent is an operator as a name applied to its operands, typed as it is used there.
func (x *exprs) opIdent(op *syntax.Op) *syntax.Ident {
	id := &syntax.Ident{Range: op.Range, Name: op.Name}
	if t := x.ops[op]; t != nil {
		x.rec[id] = t
	}
	return id
}

// CompileError is a worker or binding that cannot be compiled, located in the source.
type CompileError struct {
	Range   syntax.Range
	Message string
}

func (e *CompileError) Error() string { return e.Message }

// CodeCompile is the code of a diagnostic saying why a definition cannot be compiled.
const CodeCompile = "compile"

// Diagnostic is the error as a diagnostic at its range.
func (e *CompileError) Diagnostic() syntax.Diagnostic {
	return syntax.Diagnostic{Range: e.Range, Severity: syntax.Error, Code: CodeCompile, Message: e.Message}
}

func errAt(e syntax.Expr, format string, args ...any) error {
	var r syntax.Range
	if e != nil {
		r = e.Span()
	}
	return &CompileError{Range: r, Message: fmt.Sprintf(format, args...)}
}

// typeOf is the recorded type of e.
func (x *exprs) typeOf(e syntax.Expr) (*types.Type, error) {
	t := x.rec[e]
	if t == nil {
		return nil, errAt(e, "the type of %s is not known", syntax.FormatExpr(e))
	}
	return t, nil
}

// value translates an expression whose value is data (not a function); where is the C string
// literal naming the binding for run-time errors.
func (x *exprs) value(e syntax.Expr, sc *scope, where string) (string, error) {
	switch e := e.(type) {
	case *syntax.IntLit:
		t, _ := x.typeOf(e)
		if t != nil && t.Kind() == "Float" {
			return floatLit(float64(e.Value)), nil
		}
		if e.Value == -1<<63 {
			return "INT64_MIN", nil
		}
		return fmt.Sprintf("INT64_C(%d)", e.Value), nil
	case *syntax.FloatLit:
		return floatLit(e.Value), nil
	case *syntax.BoolLit:
		if e.Value {
			return "true", nil
		}
		return "false", nil
	case *syntax.Paren:
		return x.value(e.X, sc, where)
	case *syntax.Ident:
		v, err := x.apply(e, sc, nil, where)
		if err != nil {
			return "", err
		}
		if v.fn != nil {
			return "", errAt(e, "%s is a function here; compiled code applies functions, it cannot store one", e.Name)
		}
		return v.c, nil
	case *syntax.Neg:
		v, err := x.value(e.X, sc, where)
		if err != nil {
			return "", err
		}
		return "(-" + v + ")", nil
	case *syntax.If:
		c, err := x.value(e.Cond, sc, where)
		if err != nil {
			return "", err
		}
		effects, costly := x.p.effects, x.p.costly
		a, err := x.value(e.Then, sc, where)
		if err != nil {
			return "", err
		}
		b, err := x.value(e.Else, sc, where)
		if err != nil {
			return "", err
		}
		if t, err := x.typeOf(e); err == nil && t.Kind() == "Float" && x.p.effects == effects && x.p.costly == costly {
			// Both sides cannot fail and cost little: chosen by a mask, not a branch gcc may
			// make of the ?: where the loop stays scalar (cnf_select_Float).
			x.p.selectFloat()
			return fmt.Sprintf("cnf_select_Float(%s, %s, %s)", c, a, b), nil
		}
		if t, err := x.typeOf(e); err == nil && t.Kind() == "Int" && x.p.effects == effects && x.p.costly == costly {
			// Likewise for Ints, for the vectoriser's sake: gcc turned `(c ? x : k) < e`, k
			// loop-invariant, into `c ? x < e : k < e`, a choice between a vector's mask and a
			// scalar truth that gcc 12 cannot vectorise, and kept a filter's whole pass over
			// what it keeps scalar (fans 191: 41-46 ms, 29-31 ms with the mask;
			// docs/performance.md, "Int choices by a mask").
			x.p.selectInt()
			return fmt.Sprintf("cnf_select_Int(%s, %s, %s)", c, a, b), nil
		}
		return fmt.Sprintf("(%s ? %s : %s)", c, a, b), nil
	case *syntax.Tuple:
		t, err := x.typeOf(e)
		if err != nil {
			return "", err
		}
		name, err := x.p.ct.name(t)
		if err != nil {
			return "", errAt(e, "%v", err)
		}
		parts := make([]string, len(e.Elems))
		for i, el := range e.Elems {
			if parts[i], err = x.value(el, sc, where); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf("((%s){%s})", name, strings.Join(parts, ", ")), nil
	case *syntax.Binary:
		switch e.Op.Name {
		case "&&", "||":
			if !e.Op.Backtick {
				a, err := x.value(e.X, sc, where)
				if err != nil {
					return "", err
				}
				b, err := x.value(e.Y, sc, where)
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("(%s %s %s)", a, e.Op.Name, b), nil
			}
		case "$":
			if !e.Op.Backtick {
				arg, err := x.arg(e.Y, sc, where)
				if err != nil {
					return "", err
				}
				return x.applied(e, e.X, sc, []val{arg}, where)
			}
		}
		a, err := x.arg(e.X, sc, where)
		if err != nil {
			return "", err
		}
		b, err := x.arg(e.Y, sc, where)
		if err != nil {
			return "", err
		}
		return x.applied(e, x.opIdent(e.Op), sc, []val{a, b}, where)
	case *syntax.App:
		args := make([]val, len(e.Args))
		for i, a := range e.Args {
			var err error
			if args[i], err = x.arg(a, sc, where); err != nil {
				return "", err
			}
		}
		return x.applied(e, e.Fun, sc, args, where)
	}
	return "", errAt(e, "%s is a function here; compiled code applies functions, it cannot store one", syntax.FormatExpr(e))
}

// applied is the value of f applied to args (at is the whole application, for messages).
func (x *exprs) applied(at, f syntax.Expr, sc *scope, args []val, where string) (string, error) {
	v, err := x.apply(f, sc, args, where)
	if err != nil {
		return "", err
	}
	if v.fn != nil {
		return "", errAt(at, "%s is a function here; compiled code applies functions, it cannot store one", syntax.FormatExpr(at))
	}
	return v.c, nil
}

// arg translates an argument: data to a C expression, a function to itself with its scope.
func (x *exprs) arg(e syntax.Expr, sc *scope, where string) (val, error) {
	t, err := x.typeOf(e)
	if err != nil {
		return val{}, err
	}
	if t.Kind() == "Func" {
		return val{fn: e, scope: sc, t: t}, nil
	}
	for p, ok := e.(*syntax.Paren); ok; p, ok = e.(*syntax.Paren) {
		e = p.X
	}
	if id, ok := e.(*syntax.Ident); ok {
		// A name keeps what it is: a scalar of the definition can be a divider.
		if v, err := x.apply(id, sc, nil, where); err != nil || v.fn == nil {
			v.t = t
			return v, err
		}
	}
	c, err := x.value(e, sc, where)
	return val{c: c, t: t}, err
}

// apply applies the function f (written in scope sc) to args. With no args, it is the value of
// a name.
func (x *exprs) apply(f syntax.Expr, sc *scope, args []val, where string) (val, error) {
	switch f := f.(type) {
	case *syntax.Paren:
		return x.apply(f.X, sc, args, where)
	case *syntax.App:
		all := make([]val, 0, len(f.Args)+len(args))
		for _, a := range f.Args {
			v, err := x.arg(a, sc, where)
			if err != nil {
				return val{}, err
			}
			all = append(all, v)
		}
		return x.apply(f.Fun, sc, append(all, args...), where)
	case *syntax.Lambda:
		return x.lambda(f, sc, args, where)
	case *syntax.Section:
		op := x.opIdent(f.Op)
		switch {
		case f.X != nil:
			a, err := x.arg(f.X, sc, where)
			if err != nil {
				return val{}, err
			}
			return x.apply(op, sc, append([]val{a}, args...), where)
		case f.Y != nil:
			if len(args) == 0 {
				return val{fn: f, scope: sc}, nil
			}
			b, err := x.arg(f.Y, sc, where)
			if err != nil {
				return val{}, err
			}
			return x.apply(op, sc, append([]val{args[0], b}, args[1:]...), where)
		}
		return x.apply(op, sc, args, where)
	case *syntax.Binary:
		if f.Op.Backtick || (f.Op.Name != "." && f.Op.Name != "$") {
			break
		}
		if len(args) == 0 {
			return val{fn: f, scope: sc}, nil
		}
		if f.Op.Name == "$" { // (g $ y) applied to args: g y args
			y, err := x.arg(f.Y, sc, where)
			if err != nil {
				return val{}, err
			}
			return x.apply(f.X, sc, append([]val{y}, args...), where)
		}
		inner, err := x.apply(f.Y, sc, args[:1], where) // (g . h) a rest = g (h a) rest
		if err != nil {
			return val{}, err
		}
		return x.apply(f.X, sc, append([]val{inner}, args[1:]...), where)
	case *syntax.Ident:
		return x.name(f, sc, args, where)
	}
	if len(args) == 0 {
		c, err := x.value(f, sc, where)
		if err != nil {
			return val{}, err
		}
		t, err := x.typeOf(f)
		return val{c: c, t: t}, err
	}
	return val{}, errAt(f, "cannot compile the application of %s", syntax.FormatExpr(f))
}

// lambda inlines a lambda applied to args: a statement expression that binds each parameter
// (tuple patterns component by component) and computes the body. Functions passed as arguments
// are bound in the scope, to be inlined where they are applied.
func (x *exprs) lambda(f *syntax.Lambda, sc *scope, args []val, where string) (val, error) {
	if len(args) < len(f.Params) {
		if len(args) == 0 {
			return val{fn: f, scope: sc}, nil
		}
		return val{}, errAt(f, "this lambda is applied to %d of its %d parameters; compiled code needs all", len(args), len(f.Params))
	}
	var decls []string
	inner := sc
	for i, p := range f.Params {
		var err error
		if inner, err = x.bind(p, args[i], inner, &decls); err != nil {
			return val{}, err
		}
	}
	rest := args[len(f.Params):]
	body, err := x.apply(f.Body, inner, rest, where)
	if err != nil || body.fn != nil || len(decls) == 0 {
		return body, err
	}
	return val{c: fmt.Sprintf("({ %s %s; })", strings.Join(decls, " "), body.c), t: body.t}, nil
}

// bind binds a lambda parameter pattern to an argument, adding its C declarations.
func (x *exprs) bind(p syntax.Pattern, v val, sc *scope, decls *[]string) (*scope, error) {
	switch p := p.(type) {
	case *syntax.Ident:
		if v.fn != nil {
			return &scope{name: p.Name, v: v, parent: sc}, nil
		}
		tn, err := x.p.ct.name(v.t)
		if err != nil {
			return nil, &CompileError{Range: p.Range, Message: err.Error()}
		}
		c := x.p.local(p.Name)
		*decls = append(*decls, fmt.Sprintf("%s %s = %s;", tn, c, v.c))
		return &scope{name: p.Name, v: val{c: c, t: v.t}, parent: sc}, nil
	case *syntax.TuplePattern:
		if v.fn != nil || v.t.Kind() != "Tuple" || len(v.t.Elems()) != len(p.Elems) {
			return nil, &CompileError{Range: p.Range, Message: fmt.Sprintf("this pattern of %d components does not match %s", len(p.Elems), v.t)}
		}
		tn, err := x.p.ct.name(v.t)
		if err != nil {
			return nil, &CompileError{Range: p.Range, Message: err.Error()}
		}
		whole := x.p.local("t")
		*decls = append(*decls, fmt.Sprintf("%s %s = %s;", tn, whole, v.c))
		for i, q := range p.Elems {
			if sc, err = x.bind(q, val{c: fmt.Sprintf("%s.f%d", whole, i), t: v.t.Elems()[i]}, sc, decls); err != nil {
				return nil, err
			}
		}
		return sc, nil
	}
	return sc, nil
}

// name applies a name: a lambda parameter, a heap variable or a name of the definition, a
// prelude function or operator, or a host function.
func (x *exprs) name(id *syntax.Ident, sc *scope, args []val, where string) (val, error) {
	if v, ok := sc.lookup(id.Name); ok {
		if v.fn != nil {
			return x.apply(v.fn, v.scope, args, where)
		}
		return x.data(id, v, args)
	}
	if v, ok := x.vars[id.Name]; ok {
		return x.data(id, v, args)
	}
	if v, ok, err := x.builtin(id, args, where); ok || err != nil {
		return v, err
	}
	return x.host(id, args)
}

// data is a data value, which must not be applied.
func (x *exprs) data(id *syntax.Ident, v val, args []val) (val, error) {
	if len(args) > 0 {
		return val{}, errAt(id, "%s is not a function", id.Name)
	}
	return v, nil
}

// host calls a host function the host file implements: name(args...), fully applied.
func (x *exprs) host(id *syntax.Ident, args []val) (val, error) {
	if !x.p.hostKnown(id.Name) {
		x.p.noteMissing(id) // reported with every other one when the definition is done
	}
	t, err := x.typeOf(id)
	if err != nil {
		return val{}, err
	}
	arity := 0
	for r := t; r.Kind() == "Func"; r = r.Elems()[1] {
		arity++
	}
	if len(args) < arity {
		if len(args) == 0 {
			return val{fn: id, t: t}, nil
		}
		return val{}, errAt(id, "%s takes %d arguments; compiled code applies it to all of them", id.Name, arity)
	}
	if len(args) > arity {
		return val{}, errAt(id, "%s takes %d arguments, not %d", id.Name, arity, len(args))
	}
	cs := make([]string, len(args))
	for i, a := range args {
		if a.fn != nil {
			return val{}, errAt(id, "a host function cannot take a function as its argument")
		}
		cs[i] = a.c
	}
	r := t
	for range args {
		r = r.Elems()[1]
	}
	if _, err := x.p.ct.name(r); err != nil {
		return val{}, errAt(id, "%v", err)
	}
	x.p.effects++ // a host function may fail or cost: never evaluated speculatively
	x.p.hostCalls++
	return val{c: fmt.Sprintf("%s(%s)", id.Name, strings.Join(cs, ", ")), t: r}, nil
}

func floatLit(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	switch {
	case s == "+Inf":
		return "INFINITY"
	case s == "-Inf":
		return "(-INFINITY)"
	case s == "NaN":
		return "NAN"
	case !strings.ContainsAny(s, ".eE"):
		s += ".0"
	}
	if f < 0 {
		return "(" + s + ")"
	}
	return s
}
