package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"
)

// Commands the server executes through workspace/executeCommand.
var commandNames = []string{"cnf.showClustering", "cnf.showFusedProcess", "cnf.showILP"}

func init() {
	onRequest("initialize", (*Server).initialize)
	onRequest("shutdown", func(s *Server, ctx context.Context, _ json.RawMessage) (any, error) {
		s.mu.Lock()
		s.state = shutDown
		s.mu.Unlock()
		s.closeAll()
		return nil, nil
	})
	onNotification("initialized", func(*Server, context.Context, json.RawMessage) {})
	onNotification("exit", func(s *Server, ctx context.Context, _ json.RawMessage) {
		s.exitOnce.Do(func() { close(s.exited) })
	})
	onNotification("textDocument/didOpen", func(s *Server, ctx context.Context, raw json.RawMessage) {
		var p protocol.DidOpenTextDocumentParams
		if json.Unmarshal(raw, &p) == nil {
			s.update(string(p.TextDocument.URI), p.TextDocument.Version, []byte(p.TextDocument.Text))
		}
	})
	onNotification("textDocument/didChange", func(s *Server, ctx context.Context, raw json.RawMessage) {
		// Full synchronisation is advertised (CNF files are small): the last change holds the
		// whole text. (go.lsp.dev/protocol v0.12.0 decodes a full change with a zero Range,
		// which would look like an insertion at 0:0; the raw field decides here instead.)
		var p struct {
			TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
			Changes      []struct {
				Range *protocol.Range `json:"range"`
				Text  string          `json:"text"`
			} `json:"contentChanges"`
		}
		if json.Unmarshal(raw, &p) != nil || len(p.Changes) == 0 {
			return
		}
		d := s.snapshot(string(p.TextDocument.URI))
		text := []byte(nil)
		if d != nil {
			text = d.text
		}
		for _, c := range p.Changes {
			if c.Range == nil {
				text = []byte(c.Text)
				continue
			}
			text = applyEdit(text, *c.Range, c.Text) // clients that send ranges anyway
		}
		s.update(string(p.TextDocument.URI), p.TextDocument.Version, text)
	})
	onNotification("textDocument/didClose", func(s *Server, ctx context.Context, raw json.RawMessage) {
		var p protocol.DidCloseTextDocumentParams
		if json.Unmarshal(raw, &p) == nil {
			s.close(string(p.TextDocument.URI))
		}
	})
	onNotification("workspace/didChangeConfiguration", func(s *Server, ctx context.Context, raw json.RawMessage) {
		var p struct {
			Settings json.RawMessage `json:"settings"`
		}
		if json.Unmarshal(raw, &p) == nil {
			s.configure(p.Settings)
		}
	})
}

// applyEdit applies an incremental change to a text.
func applyEdit(text []byte, r protocol.Range, newText string) []byte {
	f := newFile(text)
	start, end := fromPosition(f, r.Start), fromPosition(f, r.End)
	if end < start {
		start, end = end, start
	}
	out := append([]byte{}, text[:start]...)
	out = append(out, newText...)
	return append(out, text[end:]...)
}

func (s *Server) initialize(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Capabilities struct {
			Workspace struct {
				CodeLens struct {
					RefreshSupport bool `json:"refreshSupport"`
				} `json:"codeLens"`
			} `json:"workspace"`
			Window struct {
				ShowDocument struct {
					Support bool `json:"support"`
				} `json:"showDocument"`
			} `json:"window"`
			TextDocument struct {
				Hover struct {
					ContentFormat []string `json:"contentFormat"`
				} `json:"hover"`
			} `json:"textDocument"`
		} `json:"capabilities"`
		InitializationOptions json.RawMessage `json:"initializationOptions"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.state = running
	s.client.codeLensRefresh = p.Capabilities.Workspace.CodeLens.RefreshSupport
	s.client.showDocument = p.Capabilities.Window.ShowDocument.Support
	s.client.markdown = true
	for _, f := range p.Capabilities.TextDocument.Hover.ContentFormat {
		if f == "plaintext" && len(p.Capabilities.TextDocument.Hover.ContentFormat) == 1 {
			s.client.markdown = false
		}
	}
	s.mu.Unlock()
	if len(p.InitializationOptions) > 0 {
		s.configure(p.InitializationOptions)
	}
	return map[string]any{
		"capabilities": map[string]any{
			"textDocumentSync":           map[string]any{"openClose": true, "change": protocol.TextDocumentSyncKindFull},
			"hoverProvider":              true,
			"definitionProvider":         true,
			"referencesProvider":         true,
			"documentSymbolProvider":     true,
			"documentFormattingProvider": true,
			"renameProvider":             map[string]any{"prepareProvider": true},
			"codeLensProvider":           map[string]any{"resolveProvider": false},
			"codeActionProvider":         map[string]any{"codeActionKinds": []protocol.CodeActionKind{protocol.QuickFix}},
			"completionProvider":         map[string]any{"triggerCharacters": []string{" ", "("}},
			"signatureHelpProvider":      map[string]any{"triggerCharacters": []string{" ", "("}},
			"executeCommandProvider":     map[string]any{"commands": commandNames},
			"semanticTokensProvider": map[string]any{
				"legend": map[string]any{"tokenTypes": tokenTypes, "tokenModifiers": []string{"declaration", "readonly"}},
				"full":   true,
			},
		},
		"serverInfo": map[string]any{"name": "cnf", "version": "0.1"},
	}, nil
}

// configure reads settings, as the client sends them: {"cnf": {...}} or the section itself.
// Unknown or malformed fields leave the current value.
func (s *Server) configure(raw json.RawMessage) {
	var wrapped struct {
		CNF json.RawMessage `json:"cnf"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && len(wrapped.CNF) > 0 {
		raw = wrapped.CNF
	}
	var settings struct {
		Solver struct {
			TimeLimit *float64 `json:"timeLimit"` // seconds
		} `json:"solver"`
		Debounce          *float64 `json:"debounce"` // milliseconds
		FusionDiagnostics *string  `json:"fusionDiagnostics"`
	}
	if json.Unmarshal(raw, &settings) != nil {
		return
	}
	s.mu.Lock()
	if t := settings.Solver.TimeLimit; t != nil && *t > 0 && *t < 3600 {
		s.opts.TimeLimit = time.Duration(*t * float64(time.Second))
	}
	if d := settings.Debounce; d != nil && *d >= 0 && *d < 60000 {
		s.opts.Debounce = time.Duration(*d * float64(time.Millisecond))
	}
	if f := settings.FusionDiagnostics; f != nil && (*f == "information" || *f == "hint" || *f == "off") {
		s.opts.FusionDiagnostics = *f
	}
	var uris []string
	for u := range s.docs {
		uris = append(uris, u)
	}
	s.mu.Unlock()
	for _, u := range uris {
		s.publish(u)
	}
}
