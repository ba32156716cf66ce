package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// documentSymbol lists the definitions, each with its parameters and bindings.
func (s *Server) documentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) ([]protocol.DocumentSymbol, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	out := []protocol.DocumentSymbol{}
	if err != nil || vw == nil {
		return out, err
	}
	prog := vw.file.Prog
	f := prog.Syntax.File
	for i, fn := range prog.Syntax.Funcs {
		def := fn.Def
		detail := ""
		if r := prog.Funcs[i]; r != nil && r.OK() {
			detail = r.Scheme.Format(true)
		}
		sym := protocol.DocumentSymbol{Name: def.Name.Name, Detail: detail, Kind: protocol.SymbolKindFunction,
			Range: toRange(f, def.Range), SelectionRange: toRange(f, def.Name.Range)}
		for _, p := range fn.Params {
			sym.Children = append(sym.Children, protocol.DocumentSymbol{Name: p.Name, Detail: "parameter, " + p.Kind.String(),
				Kind: protocol.SymbolKindVariable, Range: toRange(f, p.Decl.Range), SelectionRange: toRange(f, p.Decl.Range)})
		}
		for _, b := range def.Bindings {
			for _, id := range b.Names {
				detail := ""
				if b.Rhs != nil {
					detail = syntax.FormatCombinator(b.Rhs)
				}
				kind := protocol.SymbolKindArray
				if s := fn.Symbols[id.Name]; s != nil && s.Kind == syntax.Scalar {
					kind = protocol.SymbolKindVariable
				}
				sym.Children = append(sym.Children, protocol.DocumentSymbol{Name: id.Name, Detail: detail, Kind: kind,
					Range: toRange(f, b.Range), SelectionRange: toRange(f, id.Range)})
			}
		}
		out = append(out, sym)
	}
	return out, nil
}
