package fuse

import (
	"fmt"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// HeapTypes infers the type of every heap variable of a fused process from its instructions
// (a pull gives its variable the channel's element type, a push's expression has it, a case is a
// Bool, an update gives its variable its expression's type) in the definition's scope: what
// compiling the process to native code declares its variables with. info is a Copy of the
// definition's types (the inference refines it). A heap variable that nothing types, or a clash,
// is an error naming the variable.
func HeapTypes(p *Process, info *types.Info) (map[string]*types.Type, error) {
	heap := map[string]*types.Type{}
	for _, h := range p.Heap {
		heap[h.Name] = info.Fresh()
	}
	channel := func(c string) (*types.Type, error) {
		t := info.Types[c]
		if t == nil {
			return nil, fmt.Errorf("%s: channel %s is not a name of the definition", p.Name, c)
		}
		if e := t.Elem(); e != nil {
			return e, nil
		}
		return t, nil // a scalar output, pushed once
	}
	typeOf := func(where string, e syntax.Expr) (*types.Type, error) {
		t, diags := info.ExprType(e, heap)
		if len(diags) > 0 {
			return nil, fmt.Errorf("%s: %s: %s", p.Name, where, diags[0].Message)
		}
		return t, nil
	}
	for _, h := range p.Heap {
		if h.Init == nil {
			continue
		}
		t, err := typeOf("the initial value of "+h.Name, h.Init)
		if err != nil {
			return nil, err
		}
		if err := types.Unify(heap[h.Name], t); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", p.Name, h.Name, err)
		}
	}
	for _, l := range p.Order {
		in := p.Instrs[l]
		switch in.Op {
		case Pull:
			ct, err := channel(in.Chan)
			if err != nil {
				return nil, err
			}
			if heap[in.Var] == nil {
				heap[in.Var] = info.Fresh()
			}
			if err := types.Unify(heap[in.Var], ct); err != nil {
				return nil, fmt.Errorf("%s: %s: pull %s into %s: %v", p.Name, l, in.Chan, in.Var, err)
			}
		case Push:
			ct, err := channel(in.Chan)
			if err != nil {
				return nil, err
			}
			t, err := typeOf(string(l), in.Expr)
			if err != nil {
				return nil, err
			}
			if err := types.Unify(ct, t); err != nil {
				return nil, fmt.Errorf("%s: %s: push %s: %v", p.Name, l, in.Chan, err)
			}
		case Case:
			t, err := typeOf(string(l), in.Expr)
			if err != nil {
				return nil, err
			}
			if err := types.Unify(types.Bool(), t); err != nil {
				return nil, fmt.Errorf("%s: %s: case: %v", p.Name, l, err)
			}
		}
		for _, next := range in.nexts() {
			for _, u := range next.Updates {
				t, err := typeOf(string(l)+": "+u.Var, u.Expr)
				if err != nil {
					return nil, err
				}
				if heap[u.Var] == nil {
					heap[u.Var] = info.Fresh()
				}
				if err := types.Unify(heap[u.Var], t); err != nil {
					return nil, fmt.Errorf("%s: %s: %s = %v", p.Name, l, u.Var, err)
				}
			}
		}
	}
	for _, h := range p.Heap {
		if !heap[h.Name].Concrete() {
			return nil, fmt.Errorf("%s: the type of %s is not known (%s): annotate the definition or its host functions", p.Name, h.Name, heap[h.Name])
		}
	}
	return heap, nil
}
