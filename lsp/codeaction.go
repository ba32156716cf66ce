package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

func init() { onRequest("textDocument/codeAction", (*Server).codeAction) }

// codeAction offers the quick fixes of the diagnostics that touch the requested range (the
// front end's syntax.Fix: change to the suggested name, write a tuple, bind a result, ...).
// They come from the analysis of the text the server holds, which is the client's text at the
// time of the request: requests and changes arrive in order.
func (s *Server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	actions := []protocol.CodeAction{}
	if !wantsKind(p.Context.Only, protocol.QuickFix) {
		return actions, nil
	}
	uri := string(p.TextDocument.URI)
	d := s.snapshot(uri)
	if d == nil {
		return actions, nil
	}
	f := d.prog.Syntax.File
	from, to := fromPosition(f, p.Range.Start), fromPosition(f, p.Range.End)
	for _, dg := range d.prog.Diagnostics {
		// The ranges overlap or meet: a cursor at either end of a diagnostic touches it.
		if len(dg.Fixes) == 0 || dg.Range.End < from || to < dg.Range.Start {
			continue
		}
		pd := toDiagnostic(uri, f, dg)
		for _, fx := range dg.Fixes {
			edits := make([]protocol.TextEdit, 0, len(fx.Edits))
			for _, e := range fx.Edits {
				edits = append(edits, protocol.TextEdit{Range: toRange(f, e.Range), NewText: e.NewText})
			}
			actions = append(actions, protocol.CodeAction{
				Title:       fx.Title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{pd},
				IsPreferred: len(dg.Fixes) == 1,
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: edits}},
			})
		}
	}
	return actions, nil
}

// wantsKind reports whether a request restricted to the kinds only (none: any kind) accepts
// kind: "quickfix" is accepted by "quickfix" itself; kinds are hierarchical, so a request for
// "quickfix.x" does not want plain quick fixes.
func wantsKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == kind {
			return true
		}
	}
	return false
}
