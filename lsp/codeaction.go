package lsp

import (
	"context"
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/internal/analysis"
)

// codeAction offers the quick fixes of the diagnostics that touch the requested range (the
// front end's syntax.Fix: change to the suggested name, write a tuple, bind a result, ...).
// They come from the analysis of the text the server holds, which is the client's text at the
// time of the request: requests and changes arrive in order.
func (s *Server) codeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	actions := []protocol.CodeAction{}
	if !wantsKind(p.Context.Only, protocol.QuickFix) {
		return actions, nil
	}
	uri := string(p.TextDocument.URI)
	vw, err := s.view(ctx, uri)
	if err != nil || vw == nil {
		return actions, err
	}
	f := vw.file.Prog.Syntax.File
	from, to := fromPosition(f, p.Range.Start), fromPosition(f, p.Range.End)
	// The fixes of a diagnostic are offered where it was found and where it was published
	// (an error of the line being typed is published at the line's end).
	published := collapseEditedLine(vw.file.Prog.Diagnostics, vw.file.Text, vw.editAt)
	offered := map[string]bool{}
	for _, dg := range append(slices.Clone(vw.file.Prog.Diagnostics), published...) {
		// The ranges overlap or meet: a cursor at either end of a diagnostic touches it.
		if len(dg.Fixes) == 0 || dg.Range.End < from || to < dg.Range.Start {
			continue
		}
		key := fmt.Sprint(dg.Fixes)
		if offered[key] {
			continue
		}
		offered[key] = true
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
	// A definition whose clustering is not proven optimal can be proven, from anywhere in it.
	for _, fn := range vw.file.Prog.Syntax.Funcs {
		def := fn.Def
		if to < def.Start || def.End < from {
			continue
		}
		ad := vw.def(def.Name.Name)
		if ad == nil || ad.Report.Ours.Optimal || ad.Report.Ours.Fallback != "" {
			continue
		}
		var diag *protocol.Diagnostic
		for _, dg := range ad.Diagnostics(0) {
			if dg.Code == analysis.CodeClustering {
				pd := toDiagnostic(uri, f, dg)
				diag = &pd
			}
		}
		actions = append(actions, proveAction(uri, def.Name.Name, diag))
	}
	return actions, nil
}

// wantsKind reports whether a request restricted to the kinds only (none: any kind) accepts
// kind: "quickfix" is accepted by "quickfix" itself; kinds are hierarchical, so a request for
// "quickfix.x" does not want plain quick fixes.
func wantsKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	return len(only) == 0 || slices.Contains(only, kind)
}
