package lsp

import (
	"strings"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// target is what is under the cursor.
type target struct {
	id      *syntax.Ident
	fn      *syntax.Func
	sizes   *infer.Result  // nil when size inference did not run for fn
	sym     *syntax.Symbol // a parameter or binder of fn
	defName bool           // the definition's own name
	comb    *syntax.Binding
	host    bool // a host function
}

// locate finds the name at an offset: a definition's name, a parameter or binder (declaration
// or use), a combinator keyword, or a host function.
func (d *document) locate(off syntax.Pos) *target {
	fn, sizes := d.funcAt(off)
	if fn == nil {
		return nil
	}
	in := func(r syntax.Range) bool { return r.Start <= off && off <= r.End }
	t := &target{fn: fn, sizes: sizes}
	if in(fn.Def.Name.Range) {
		t.id, t.defName = fn.Def.Name, true
		return t
	}
	for id, sym := range fn.Refs {
		if in(id.Range) {
			t.id, t.sym = id, sym
			return t
		}
	}
	for _, b := range fn.Def.Bindings {
		if b.Rhs != nil && in(syntax.CallOf(b.Rhs).Keyword.Range) {
			t.id, t.comb = syntax.CallOf(b.Rhs).Keyword, b
			return t
		}
	}
	for _, h := range fn.Hosts {
		if in(h.Range) {
			t.id, t.host = h, true
			return t
		}
	}
	return nil
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
