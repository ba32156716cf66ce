package lsp

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// completion offers what fits where the cursor is (syntax.ExpectedAt): the combinators on the
// right of a binding; the arrays in scope, with their sizes, where a combinator takes an
// array; the scalars in scope and the host functions in a worker; any name after in or in an
// external's arguments; and nothing where a new name is being written, so that Enter after a
// new name keeps it. After a misspelt combinator, its arguments are those of the nearest
// known one.
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) ([]protocol.CompletionItem, error) {
	items := []protocol.CompletionItem{}
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return items, err
	}
	off := fromPosition(vw.file.Prog.Syntax.File, p.Position)
	want := syntax.ExpectedAt(vw.file.Text, off)
	if want.Slot == syntax.SlotNone {
		return items, nil
	}
	if want.Slot == syntax.SlotCombinator {
		snippets := s.capabilities().TextDocument.Completion.CompletionItem.SnippetSupport
		for _, info := range syntax.CombinatorTable {
			labels := []string{info.Name}
			if info.Name == "mapN" {
				labels = []string{"map2", "map3"}
			}
			for _, label := range labels {
				item := protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindKeyword, Detail: info.Signature(), Documentation: info.Doc}
				// The application with its arguments as placeholders, here only: the
				// extension's snippets, offered everywhere, put combinators where arrays go.
				if body := combinatorSnippet(info.Example); snippets && body != "" && label == info.Name {
					item.InsertText, item.InsertTextFormat, item.Kind = body, protocol.InsertTextFormatSnippet, protocol.CompletionItemKindSnippet
				}
				items = append(items, item)
			}
		}
		return items, nil
	}
	fn, i := vw.funcAt(off)
	if fn == nil {
		fn, i = vw.funcBefore(off)
	}
	if want.Slot == syntax.SlotWorker || want.Slot == syntax.SlotHost {
		for _, f := range syntax.Prelude {
			items = append(items, protocol.CompletionItem{Label: f.Name, Kind: protocol.CompletionItemKindFunction, Detail: f.Name + " :: " + f.Type, Documentation: f.Doc})
		}
		if fn != nil {
			for _, h := range uniqueHosts(fn) {
				if _, known := syntax.LookupPrelude(h); !known {
					items = append(items, protocol.CompletionItem{Label: h, Kind: protocol.CompletionItemKindFunction, Detail: "a host function"})
				}
			}
		}
	}
	if fn == nil || want.Slot == syntax.SlotHost {
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
		switch {
		case want.Slot == syntax.SlotArray && sym.Kind == syntax.Scalar,
			want.Slot == syntax.SlotWorker && sym.Kind == syntax.Array:
			continue
		}
		detail := sym.Kind.String()
		if r != nil && sym.Kind == syntax.Array {
			if size := r.Size(n); size != nil {
				detail += " of size " + r.FormatSize(size, true)
			}
		}
		if sym.Param >= 0 {
			detail = "parameter, " + detail
		}
		items = append(items, protocol.CompletionItem{Label: n, Kind: protocol.CompletionItemKindVariable, Detail: detail})
	}
	return items, nil
}

// uniqueHosts lists the host functions a definition calls, each once.
func uniqueHosts(fn *syntax.Func) []string {
	var out []string
	for _, h := range fn.Hosts {
		if !slices.Contains(out, h.Name) {
			out = append(out, h.Name)
		}
	}
	return out
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
