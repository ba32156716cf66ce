package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// route is how the server answers one method.
type route struct {
	handle       func(s *Server, ctx context.Context, params json.RawMessage) (any, error)
	notification bool
	inOrder      bool // answered on the reading goroutine, before the next message is read
}

// request makes the route of a request from its typed handler: the params are decoded (a
// decoding failure is InvalidParams), the result encoded by the connection.
func request[P, R any](h func(*Server, context.Context, *P) (R, error)) route {
	return route{handle: func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := decode(raw, &p); err != nil {
			return nil, err
		}
		return h(s, ctx, &p)
	}}
}

// inOrder marks a request that changes the server's state (initialize, shutdown).
func inOrder(r route) route {
	r.inOrder = true
	return r
}

// notification makes the route of a notification from its typed handler; undecodable params
// are ignored (a notification has no reply to carry an error).
func notification[P any](h func(*Server, context.Context, *P)) route {
	return route{notification: true, handle: func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 && json.Unmarshal(raw, &p) != nil {
			return nil, nil
		}
		h(s, ctx, &p)
		return nil, nil
	}}
}

// routes is the routing table: every method the server answers, and nothing else
// (other methods get MethodNotFound).
func routes() map[string]route {
	return map[string]route{
		"initialize":                       inOrder(request((*Server).initialize)),
		"shutdown":                         inOrder(request((*Server).shutdown)),
		"initialized":                      notification(func(*Server, context.Context, *struct{}) {}),
		"exit":                             notification((*Server).exit),
		"textDocument/didOpen":             notification((*Server).didOpen),
		"textDocument/didChange":           notification((*Server).didChange),
		"textDocument/didClose":            notification((*Server).didClose),
		"workspace/didChangeConfiguration": notification((*Server).didChangeConfiguration),
		"textDocument/hover":               request((*Server).hover),
		"textDocument/codeLens":            request((*Server).codeLens),
		"textDocument/codeAction":          request((*Server).codeAction),
		"textDocument/completion":          request((*Server).completion),
		"textDocument/signatureHelp":       request((*Server).signatureHelp),
		"textDocument/definition":          request((*Server).definition),
		"textDocument/references":          request((*Server).references),
		"textDocument/prepareRename":       request((*Server).prepareRename),
		"textDocument/rename":              request((*Server).rename),
		"textDocument/documentSymbol":      request((*Server).documentSymbol),
		"textDocument/formatting":          request((*Server).formatting),
		"textDocument/semanticTokens/full": request((*Server).semanticTokens),
		"workspace/executeCommand":         request((*Server).executeCommand),
		"textDocument/inlayHint":           request((*Server).inlayHint),
		"window/workDoneProgress/cancel":   notification((*Server).cancelProgress),
	}
}

func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}
