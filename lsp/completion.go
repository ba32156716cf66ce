package lsp

import (
	"context"
	"fmt"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// completion offers the combinators, the keywords, and the names in scope at the cursor (the
// parameters and bindings of the enclosing definition, with their kinds and sizes).
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) ([]protocol.CompletionItem, error) {
	items := []protocol.CompletionItem{}
	for _, info := range syntax.CombinatorTable {
		labels := []string{info.Name}
		if info.Name == "mapN" {
			labels = []string{"map2", "map3"}
		}
		for _, label := range labels {
			items = append(items, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindKeyword, Detail: info.Signature(), Documentation: info.Doc})
		}
	}
	for _, k := range []string{"let", "in", "if", "then", "else"} {
		items = append(items, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindKeyword})
	}
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return items, err
	}
	fn, i := vw.funcAt(fromPosition(vw.file.Prog.Syntax.File, p.Position))
	if fn == nil {
		return items, nil
	}
	r := vw.file.Prog.Funcs[i]
	names := make([]string, 0, len(fn.Symbols))
	for n := range fn.Symbols {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sym := fn.Symbols[n]
		detail := sym.Kind.String()
		if r != nil && sym.Kind == syntax.Array {
			if size := r.Size(n); size != nil {
				detail += " of size " + r.FormatSize(size, true)
			}
		}
		kind := protocol.CompletionItemKindVariable
		if sym.Param >= 0 {
			detail = "parameter, " + detail
		}
		items = append(items, protocol.CompletionItem{Label: n, Kind: kind, Detail: detail})
	}
	return items, nil
}

// signatureHelp shows the combinator being applied at the cursor and which argument is next.
func (s *Server) signatureHelp(ctx context.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return nil, err
	}
	off := fromPosition(vw.file.Prog.Syntax.File, p.Position)
	fn, _ := vw.funcAt(off)
	if fn == nil {
		return nil, nil
	}
	for _, b := range fn.Def.Bindings {
		if b.Rhs == nil || off < b.Start || off > b.End+1 {
			continue
		}
		call := syntax.CallOf(b.Rhs)
		info, ok := syntax.LookupCombinator(call.Keyword.Name)
		if !ok {
			return nil, nil
		}
		params := info.Params
		if n, ok := syntax.MapArity(call.Keyword.Name); ok && n > 1 {
			params = []string{"worker"}
			for i := 1; i <= n; i++ {
				params = append(params, fmt.Sprintf("xs%d :: Array a%d", i, i))
			}
		}
		active := 0
		for _, a := range call.Args {
			if a.Span().End < off {
				active++
			}
		}
		if active >= len(params) {
			active = len(params) - 1
		}
		sig := protocol.SignatureInformation{Label: info.Signature(), Documentation: info.Doc}
		for _, prm := range params {
			sig.Parameters = append(sig.Parameters, protocol.ParameterInformation{Label: prm})
		}
		return &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{sig}, ActiveParameter: uint32(active)}, nil
	}
	return nil, nil
}
