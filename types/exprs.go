package types

import (
	"fmt"

	"github.com/cnf-tools/cnf/syntax"
)

// The functions here let a later stage type what it builds from a definition, such as the
// instructions of a fused process (its heap variables become C variables when the process is
// compiled), with the definition's names, host functions and prelude in scope.

// Copy is a copy of the definition's types that ExprType, Fresh and Unify may refine without
// touching the original, which the editor's hovers read concurrently. Sharing between the
// types (a variable used in two places) is kept.
func (in *Info) Copy() *Info {
	c := in.checker
	cp := &checker{fn: c.fn, env: c.env, vars: c.vars, scope: map[string]*Type{}, uses: map[*syntax.Ident]*Type{}, lits: map[*syntax.IntLit]*Type{}}
	copies := map[*Type]*Type{}
	var copyT func(t *Type) *Type
	copyT = func(t *Type) *Type {
		t = prune(t)
		if u, ok := copies[t]; ok {
			return u
		}
		u := &Type{kind: t.kind, name: t.name, id: t.id, num: t.num}
		copies[t] = u
		if len(t.elems) > 0 {
			u.elems = make([]*Type, len(t.elems))
			for i, e := range t.elems {
				u.elems[i] = copyT(e)
			}
		}
		return u
	}
	for name, t := range c.scope {
		cp.scope[name] = copyT(t)
	}
	return &Info{Types: cp.scope, Uses: cp.uses, Lits: cp.lits, checker: cp}
}

// Record makes ExprType (and so fuse.HeapTypes) put the type of every expression it checks,
// and of every subexpression, into exprs, and the type of every operator as used there into
// ops: what a code generator needs to choose an operation (Int or Float division) and declare
// a temporary. The types are final once all inference on in is done. Call it on a Copy.
func (in *Info) Record(exprs map[syntax.Expr]*Type, ops map[*syntax.Op]*Type) {
	in.checker.record, in.checker.ops = exprs, ops
}

// IsFloat reports whether the integer literal lit stands for a Float (see Lits).
func (in *Info) IsFloat(lit *syntax.IntLit) bool {
	if in == nil {
		return false
	}
	t := in.Lits[lit]
	return t != nil && prune(t).kind == kFloat
}

// Fresh is a new type variable of the definition's checking.
func (in *Info) Fresh() *Type { return in.checker.fresh(false) }

// Bool is the type Bool.
func Bool() *Type { return boolType }

// Int is the type Int.
func Int() *Type { return intType }

// Unify makes a and b the same type, or says how they differ.
func Unify(a, b *Type) error {
	if m := unify(a, b); m != nil {
		return fmt.Errorf("%s and %s differ: %s", a, b, m.reason())
	}
	return nil
}

// ExprType infers the type of an expression in the definition's scope, with vars (such as a
// process's heap variables) in scope too. Errors are returned as diagnostics at the expression.
// It refines the types of in: call it on a Copy, never on the Info of a shared analysis.
func (in *Info) ExprType(e syntax.Expr, vars map[string]*Type) (*Type, []syntax.Diagnostic) {
	c := in.checker
	c.diags = nil
	c.locals = append(c.locals, vars)
	t := c.expr(e)
	c.locals = c.locals[:len(c.locals)-1]
	diags := c.diags
	c.diags = nil
	return t, diags
}

// Concrete reports whether t is fully known: no type variable left except numeric ones (Int by
// default). A compiled program needs a concrete type for every value it stores.
func (t *Type) Concrete() bool {
	seen := map[*Type]bool{}
	var walk func(t *Type) bool
	walk = func(t *Type) bool {
		t = prune(t)
		if t.kind == kVar {
			return t.num
		}
		if seen[t] {
			return true
		}
		seen[t] = true
		for _, e := range t.elems {
			if !walk(e) {
				return false
			}
		}
		return true
	}
	return walk(t)
}

// Tuple is the tuple type of elems.
func Tuple(elems ...*Type) *Type { return tuple(elems...) }
