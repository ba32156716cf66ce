package lsp

import (
	"bytes"
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// formatting replaces the text with its canonical layout (cnf fmt). A file with syntax errors
// is not formatted: that would drop the parts that did not parse.
func (s *Server) formatting(ctx context.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return []protocol.TextEdit{}, err
	}
	text := vw.file.Text
	f, diags := syntax.Parse("", text)
	if syntax.HasErrors(diags) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the document has syntax errors: fix them before formatting")
	}
	out := syntax.Format(f)
	if bytes.Equal(out, text) {
		return []protocol.TextEdit{}, nil
	}
	whole := syntax.Range{Start: 0, End: syntax.Pos(len(text))}
	return []protocol.TextEdit{{Range: toRange(f, whole), NewText: string(out)}}, nil
}
