package lsp

import (
	"bytes"
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

func init() { onRequest("textDocument/formatting", (*Server).formatting) }

// formatting replaces the text with its canonical layout (cnf fmt). A file with syntax errors
// is not formatted: that would drop the parts that did not parse.
func (s *Server) formatting(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DocumentFormattingParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d := s.snapshot(string(p.TextDocument.URI))
	if d == nil {
		return []protocol.TextEdit{}, nil
	}
	f, diags := syntax.Parse("", d.text)
	if syntax.HasErrors(diags) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the document has syntax errors: fix them before formatting")
	}
	out := syntax.Format(f)
	if bytes.Equal(out, d.text) {
		return []protocol.TextEdit{}, nil
	}
	whole := syntax.Range{Start: 0, End: syntax.Pos(len(d.text))}
	return []protocol.TextEdit{{Range: toRange(f, whole), NewText: string(out)}}, nil
}
