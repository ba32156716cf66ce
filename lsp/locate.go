package lsp

import (
	"context"

	"go.lsp.dev/protocol"

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
	local   bool // a lambda parameter of a worker
}

// locate finds the name at an offset: a definition's name, a parameter or binder (declaration
// or use), a combinator keyword, a host function, or a lambda parameter of a worker.
func (vw *view) locate(off syntax.Pos) *target {
	fn, i := vw.funcAt(off)
	if fn == nil {
		return nil
	}
	in := func(r syntax.Range) bool { return r.Start <= off && off <= r.End }
	t := &target{fn: fn, sizes: vw.file.Prog.Funcs[i]}
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
	if t.sizes != nil && t.sizes.Types != nil {
		for id := range t.sizes.Types.Uses {
			if in(id.Range) {
				t.id, t.local = id, true
				return t
			}
		}
	}
	return nil
}

// at finds the document and what is under the cursor of a position request.
func (s *Server) at(ctx context.Context, p *protocol.TextDocumentPositionParams) (*view, *target, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return nil, nil, err
	}
	return vw, vw.locate(fromPosition(vw.file.Prog.Syntax.File, p.Position)), nil
}
