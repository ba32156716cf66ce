package types

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/cnf-tools/cnf/syntax"
)

// CodeType is the code of a type error.
const CodeType = "type"

// Info is what the type checker found for one definition: the type of every parameter and
// binder, by name (arrays as Array T, scalars as T).
type Info struct {
	Types map[string]*Type
	// Uses has the type of every name in a worker at that occurrence: a lambda parameter, a
	// scalar, or a host or prelude function as instantiated there (even: Int -> Bool).
	Uses map[*syntax.Ident]*Type
	// Lits has the type of every integer literal in a worker: Int, or Float where its use
	// says so (fold (+) 0 over Floats starts from 0.0). Every semantics evaluates a literal at
	// its type, so that the interpreter and compiled code agree.
	Lits map[*syntax.IntLit]*Type

	checker *checker // for ExprType and Fresh
}

// TypeAt returns the type of a name in a worker, printed, or "".
func (in *Info) TypeAt(id *syntax.Ident) string {
	if in == nil || in.Uses[id] == nil {
		return ""
	}
	return in.Uses[id].String()
}

// TypeOf returns the type of a parameter or binder, printed, or "" when unknown.
func (in *Info) TypeOf(name string) string {
	if in == nil || in.Types[name] == nil {
		return ""
	}
	return in.Types[name].String()
}

// Env is what the definitions of one file share: the types of its host functions (signatures
// without a definition) and of the prelude. Make it once per file with NewEnv: a file of
// 80,000 definitions must not scan its declarations for each.
type Env struct {
	hosts   map[string]*Type
	prelude map[string]*Type
}

// NewEnv reads the host function signatures of f; the prelude's types are parsed once per
// process (preludeTypes), not at every keystroke.
func NewEnv(f *syntax.File) *Env {
	return &Env{hosts: hostSignatures(f), prelude: preludeTypes()}
}

// preludeTypes are the types of syntax.Prelude, parsed once. They are type schemes: every use
// instantiates them (checker.instantiate), so unification never binds their variables and the
// table is never written after it is made.
var preludeTypes = sync.OnceValue(func() map[string]*Type {
	out := map[string]*Type{}
	for _, p := range syntax.Prelude {
		out[p.Name] = preludeType(p)
	}
	return out
})

// checker holds the state of checking one definition.
type checker struct {
	fn     *syntax.Func
	env    *Env
	vars   int
	diags  []syntax.Diagnostic
	scope  map[string]*Type // parameters and binders
	uses   map[*syntax.Ident]*Type
	lits   map[*syntax.IntLit]*Type
	locals []map[string]*Type
	// record, when set (Info.Record), receives the type of every expression checked.
	record map[syntax.Expr]*Type
	ops    map[*syntax.Op]*Type
}

// Check infers the element types of one checked definition (env: NewEnv of its file, or nil
// to make one): parameters from its signature
// where it has one, bindings by each combinator's type (syntax.CombinatorTable), workers from
// their literals, operators and the prelude's typed host functions (syntax.Prelude), host
// functions from the file's signatures that have no definition. Numeric literals are Int or
// Float as their uses say, Int when nothing does (Haskell's default). A clash is an error at the
// expression where it shows, saying both types; checking goes on after it.
func Check(fn *syntax.Func, env *Env) (*Info, []syntax.Diagnostic) {
	if env == nil {
		env = NewEnv(fn.File)
	}
	c := &checker{fn: fn, env: env, scope: map[string]*Type{}, uses: map[*syntax.Ident]*Type{}, lits: map[*syntax.IntLit]*Type{}}
	// A name's kind (the front end's) already says whether it is an array.
	typeOf := func(name string) *Type {
		if s := fn.Symbols[name]; s != nil && s.Kind == syntax.Array {
			return array(c.fresh(false))
		}
		return c.fresh(false)
	}
	for _, s := range fn.Params {
		c.scope[s.Name] = typeOf(s.Name)
	}
	for _, b := range fn.Def.Bindings {
		for _, id := range b.Names {
			c.scope[id.Name] = typeOf(id.Name)
		}
	}
	if fn.Sig != nil {
		c.signature(fn.Sig)
	}
	for _, b := range fn.Order {
		c.binding(b)
	}
	diags := c.diags
	c.diags = nil
	return &Info{Types: c.scope, Uses: c.uses, Lits: c.lits, checker: c}, diags
}

func (c *checker) fresh(num bool) *Type {
	c.vars++
	return &Type{kind: kVar, id: c.vars, num: num}
}

// hostSignatures are the types of the signatures in f that name no definition: host functions.
func hostSignatures(f *syntax.File) map[string]*Type {
	defined := map[string]bool{}
	for _, d := range f.Decls {
		if def, ok := d.(*syntax.Definition); ok && def.Name != nil {
			defined[def.Name.Name] = true
		}
	}
	out := map[string]*Type{}
	for _, d := range f.Decls {
		if sig, ok := d.(*syntax.Signature); ok && sig.Name != nil && sig.Type != nil && !defined[sig.Name.Name] {
			out[sig.Name.Name] = fromSyntax(sig.Type, map[string]*Type{}, new(int))
		}
	}
	return out
}

// fromSyntax converts a written type; lower-case names are variables, scoped by vars.
func fromSyntax(t syntax.Type, vars map[string]*Type, ids *int) *Type {
	switch t := t.(type) {
	case *syntax.ArrayType:
		return array(fromSyntax(t.Elem, vars, ids))
	case *syntax.TupleType:
		elems := make([]*Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = fromSyntax(e, vars, ids)
		}
		return tuple(elems...)
	case *syntax.FuncType:
		params := make([]*Type, len(t.Params))
		for i, p := range t.Params {
			params[i] = fromSyntax(p, vars, ids)
		}
		return fns(fromSyntax(t.Result, vars, ids), params...)
	case *syntax.NamedType:
		switch t.Name {
		case "Int", "Nat":
			return intType
		case "Float", "Double":
			return floatType
		case "Bool":
			return boolType
		}
		if r := []rune(t.Name); len(r) > 0 && unicode.IsLower(r[0]) {
			if v, ok := vars[t.Name]; ok {
				return v
			}
			*ids++
			v := &Type{kind: kVar, id: -*ids}
			vars[t.Name] = v
			return v
		}
		host := &Type{kind: kHost, name: t.Name}
		for _, a := range t.Args {
			host.elems = append(host.elems, fromSyntax(a, vars, ids))
		}
		return host
	}
	return &Type{kind: kVar}
}

// instantiate copies a type scheme with fresh variables (each use of a polymorphic host
// function or prelude function gets its own).
func (c *checker) instantiate(t *Type) *Type {
	fresh := map[*Type]*Type{}
	var copyT func(t *Type) *Type
	copyT = func(t *Type) *Type {
		t = prune(t)
		if t.kind == kVar {
			if v, ok := fresh[t]; ok {
				return v
			}
			v := c.fresh(t.num)
			fresh[t] = v
			return v
		}
		if len(t.elems) == 0 {
			return t
		}
		out := &Type{kind: t.kind, name: t.name, elems: make([]*Type, len(t.elems))}
		for i, e := range t.elems {
			out.elems[i] = copyT(e)
		}
		return out
	}
	return copyT(t)
}

// signature types the parameters and results from the definition's signature.
func (c *checker) signature(sig *syntax.Signature) {
	t := fromSyntax(sig.Type, map[string]*Type{}, new(int))
	for _, p := range c.fn.Params {
		t = prune(t)
		if t.kind != kFunc {
			return // the front end reports an arity mismatch
		}
		c.unifyAt(p.Decl.Range, t.elems[0], c.scope[p.Name], func() string { return "the parameter " + p.Name + " is " + t.elems[0].String() + " in the signature" })
		t = t.elems[1]
	}
	results := c.fn.Def.Results
	if t = prune(t); len(results) > 1 && t.kind == kTuple && len(t.elems) == len(results) {
		for i, r := range results {
			if s := c.scope[r.Name]; s != nil {
				c.unifyAt(r.Range, t.elems[i], s, func() string { return "the signature says the result " + r.Name + " is " + t.elems[i].String() })
			}
		}
	} else if len(results) == 1 && c.scope[results[0].Name] != nil {
		c.unifyAt(results[0].Range, t, c.scope[results[0].Name], func() string { return "the signature says the result " + results[0].Name + " is " + t.String() })
	}
}

// unifyAt unifies want with got and reports a clash at r, with what the code expected (explain
// is called only then: building messages for every successful step cost more than checking).
func (c *checker) unifyAt(r syntax.Range, want, got *Type, explain func() string) bool {
	m := unify(want, got)
	if m == nil {
		return true
	}
	why := explain()
	msg := fmt.Sprintf("type mismatch: %s", why)
	if !strings.Contains(why, got.String()) {
		msg += fmt.Sprintf(", but here it is %s", got.String())
	}
	reason := m.reason()
	if !strings.Contains(msg, reason) {
		msg += " (" + reason + ")"
	}
	if reason == "Float is not Int" || reason == "Int is not Float" {
		msg += "; Int and Float do not mix: convert with toFloat, or truncate, round, floor or ceiling"
	}
	c.diags = append(c.diags, syntax.Diagnostic{Range: r, Severity: syntax.Error, Code: CodeType, Message: msg})
	return false
}

// array types an array argument: Array elem.
func (c *checker) arrayArg(id *syntax.Ident, elem *Type, comb string) {
	if id == nil || c.scope[id.Name] == nil {
		return
	}
	c.unifyAt(id.Range, array(elem), c.scope[id.Name], func() string { return fmt.Sprintf("%s needs an array of %s", comb, elem) })
}

// scalarArg types a scalar argument (a name or a literal) as want.
func (c *checker) scalarArg(e syntax.Expr, want *Type, what string) {
	if e == nil {
		return
	}
	c.unifyAt(e.Span(), want, c.expr(e), func() string { return what + " is " + want.String() })
}

// binding types one binding by its combinator's rule (its type in syntax.CombinatorTable).
func (c *checker) binding(b *syntax.Binding) {
	if b.Rhs == nil {
		return
	}
	out := c.scope[b.Names[0].Name]
	name := syntax.CallOf(b.Rhs).Keyword.Name
	switch r := b.Rhs.(type) {
	case *syntax.Fold:
		acc, x := c.fresh(false), c.fresh(false)
		c.arrayArg(r.Array, x, "fold")
		c.scalarArg(r.Init, acc, "the starting value of fold")
		c.worker(r.Worker, fns(acc, acc, x), func() string {
			return fmt.Sprintf("fold's worker takes the accumulator (%s) and an element of %s (%s) and returns the accumulator", acc, nameOf(r.Array), x)
		})
		c.unifyAt(b.Names[0].Range, acc, out, func() string { return "fold's value is its accumulator, " + acc.String() })
	case *syntax.Map:
		res := c.fresh(false)
		params := make([]*Type, len(r.Arrays))
		for i, a := range r.Arrays {
			params[i] = c.fresh(false)
			c.arrayArg(a, params[i], name)
		}
		c.worker(r.Worker, fns(res, params...), func() string {
			var of []string
			for i, a := range r.Arrays {
				of = append(of, fmt.Sprintf("%s (%s)", a.Name, params[i]))
			}
			return fmt.Sprintf("%s's worker takes an element of %s", name, strings.Join(of, " and of "))
		})
		c.unifyAt(b.Names[0].Range, array(res), out, func() string { return name + " makes an array of its worker's results" })
	case *syntax.Filter:
		x := c.fresh(false)
		c.arrayArg(r.Array, x, "filter")
		c.worker(r.Worker, fn(x, boolType), func() string {
			return fmt.Sprintf("filter's predicate takes an element of %s (%s) and returns a Bool", nameOf(r.Array), x)
		})
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return "filter keeps elements of its input" })
	case *syntax.Generate:
		res := c.fresh(false)
		c.scalarArg(r.Size, intType, "the size of generate")
		c.worker(r.Worker, fn(intType, res), func() string { return "generate's worker takes an Int index" })
		c.unifyAt(b.Names[0].Range, array(res), out, func() string { return "generate makes an array of its worker's results" })
	case *syntax.Gather:
		x := c.fresh(false)
		c.arrayArg(r.Data, x, "gather")
		c.arrayArg(r.Indices, intType, "gather's indices")
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return "gather picks elements of its data" })
	case *syntax.Cross:
		c.pairs(b, r.A, r.B, name)
	case *syntax.Scan:
		acc, x := c.fresh(false), c.fresh(false)
		c.arrayArg(r.Array, x, name)
		c.scalarArg(r.Init, acc, "the starting value of "+name)
		c.worker(r.Worker, fns(acc, acc, x), func() string {
			return fmt.Sprintf("%s's worker takes the accumulator (%s) and an element of %s (%s) and returns the accumulator", name, acc, nameOf(r.Array), x)
		})
		c.unifyAt(b.Names[0].Range, array(acc), out, func() string { return name + " makes an array of accumulators" })
	case *syntax.Indexed:
		x := c.fresh(false)
		c.arrayArg(r.Array, x, "indexed")
		c.unifyAt(b.Names[0].Range, array(tuple(intType, x)), out, func() string { return "indexed makes (index, element) pairs" })
	case *syntax.Zip:
		c.pairs(b, r.A, r.B, name)
	case *syntax.Unzip:
		x, y := c.fresh(false), c.fresh(false)
		c.arrayArg(r.Array, tuple(x, y), "unzip")
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return "unzip's first result holds the first components" })
		if len(b.Names) > 1 {
			c.unifyAt(b.Names[1].Range, array(y), c.scope[b.Names[1].Name], func() string { return "unzip's second result holds the second components" })
		}
	case *syntax.Slice:
		x := c.fresh(false)
		c.arrayArg(r.Array, x, name)
		c.scalarArg(r.Start, intType, "a position")
		c.scalarArg(r.Count, intType, "a count")
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return name + " keeps elements of its input" })
	case *syntax.Append:
		x := c.fresh(false)
		c.arrayArg(r.A, x, "append")
		c.arrayArg(r.B, x, "append (both arrays hold one type)")
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return "append keeps elements of its inputs" })
	case *syntax.Length:
		c.arrayArg(r.Array, c.fresh(false), "length")
		c.unifyAt(b.Names[0].Range, intType, out, func() string { return "length is an Int" })
	case *syntax.Reverse:
		x := c.fresh(false)
		c.arrayArg(r.Array, x, "reverse")
		c.unifyAt(b.Names[0].Range, array(x), out, func() string { return "reverse keeps elements of its input" })
	case *syntax.External:
		c.external(b, r)
	}
}

// pairs types cross and zip: an array of pairs of the two arrays' elements.
func (c *checker) pairs(b *syntax.Binding, a1, a2 *syntax.Ident, name string) {
	x, y := c.fresh(false), c.fresh(false)
	c.arrayArg(a1, x, name)
	c.arrayArg(a2, y, name)
	c.unifyAt(b.Names[0].Range, array(tuple(x, y)), c.scope[b.Names[0].Name], func() string { return name + " makes pairs" })
}

// external types a call of a host function from its signature, when the file declares one;
// without one, its outputs keep whatever their uses say.
func (c *checker) external(b *syntax.Binding, r *syntax.External) {
	if r.Func == nil {
		return
	}
	sig, ok := c.env.hosts[r.Func.Name]
	if !ok {
		return
	}
	t := c.instantiate(sig)
	for _, a := range r.Args {
		t = prune(t)
		if t.kind != kFunc {
			c.diags = append(c.diags, syntax.Diagnostic{Range: a.Range, Severity: syntax.Error, Code: CodeType,
				Message: fmt.Sprintf("%s takes fewer arguments than this (its signature: %s)", r.Func.Name, sig)})
			return
		}
		if s := c.scope[a.Name]; s != nil {
			c.unifyAt(a.Range, t.elems[0], s, func() string { return fmt.Sprintf("%s's signature says this argument is %s", r.Func.Name, t.elems[0]) })
		}
		t = t.elems[1]
	}
	if t = prune(t); len(b.Names) > 1 && t.kind == kTuple && len(t.elems) == len(b.Names) {
		for i, id := range b.Names {
			c.unifyAt(id.Range, t.elems[i], c.scope[id.Name], func() string {
				return fmt.Sprintf("%s's signature says its result %d is %s", r.Func.Name, i+1, t.elems[i])
			})
		}
		return
	}
	c.unifyAt(b.Names[0].Range, t, c.scope[b.Names[0].Name], func() string { return fmt.Sprintf("%s's signature says its result is %s", r.Func.Name, t) })
}

// worker types a worker expression against the function type the combinator needs.
func (c *checker) worker(e syntax.Expr, want *Type, why func() string) {
	if e == nil {
		return
	}
	got := c.expr(e)
	c.unifyAt(e.Span(), want, got, why)
}

// nameOf is an identifier's name for a message.
func nameOf(id *syntax.Ident) string {
	if id == nil {
		return "its array"
	}
	return id.Name
}
