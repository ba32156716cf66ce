package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

type protocolDiagnostic = protocol.Diagnostic

func uriOf(uri string) protocol.DocumentURI { return protocol.DocumentURI(uri) }

func newFile(text []byte) *syntax.File { return syntax.NewFile("", text) }

func toPosition(f *syntax.File, p syntax.Pos) protocol.Position {
	lp := f.LSPPosition(p)
	return protocol.Position{Line: uint32(lp.Line), Character: uint32(lp.Character)}
}

func toRange(f *syntax.File, r syntax.Range) protocol.Range {
	return protocol.Range{Start: toPosition(f, r.Start), End: toPosition(f, r.End)}
}

func fromPosition(f *syntax.File, p protocol.Position) syntax.Pos {
	return f.Offset(syntax.LSPPosition{Line: int(p.Line), Character: int(p.Character)})
}

func toDiagnostic(uri string, f *syntax.File, dg syntax.Diagnostic) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Range:    toRange(f, dg.Range),
		Severity: protocol.DiagnosticSeverity(dg.Severity),
		Code:     dg.Code,
		Source:   "cnf",
		Message:  dg.Message,
	}
	if dg.Code == syntax.CodeUnused || dg.Code == infer.CodeDead {
		// Editors fade code that is never used or never computed.
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range dg.Related {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriOf(uri), Range: toRange(f, r.Range)},
			Message:  r.Message,
		})
	}
	return pd
}
