package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

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
