package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/internal/buildinfo"
)

func (s *Server) initialize(ctx context.Context, p *initializeParams) (*initializeResult, error) {
	s.mu.Lock()
	s.state = running
	s.client = p.Capabilities
	s.root = workspaceRoot(p)
	s.mu.Unlock()
	if p.InitializationOptions != nil {
		s.configure(p.InitializationOptions, false) // no document is open yet: nothing to refresh
	}
	return &initializeResult{
		Capabilities: serverCapabilities{
			TextDocumentSync:           textDocumentSyncOptions{OpenClose: true, Change: protocol.TextDocumentSyncKindFull},
			HoverProvider:              true,
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			RenameProvider:             renameOptions{PrepareProvider: true},
			CodeLensProvider:           codeLensOptions{},
			CodeActionProvider:         codeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
			// No trigger on space: a list open at the end of most lines would take Enter.
			CompletionProvider: triggerOptions{TriggerCharacters: []string{"("}},
			// Signature help opens when asked (Ctrl+Shift+Space), then follows the arguments:
			// opened by every space, it covered the lines above (and their squiggles) at
			// every binding typed; the completion's snippets show the arguments already.
			SignatureHelpProvider:  triggerOptions{TriggerCharacters: []string{}, RetriggerCharacters: []string{" ", "("}},
			ExecuteCommandProvider: executeCommandOptions{Commands: commandNames},
			SemanticTokensProvider: semanticTokensOptions{
				Legend: semanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: []string{"declaration", "readonly"}},
				Full:   true,
			},
			InlayHintProvider: true,
		},
		ServerInfo: serverInfo{Name: "cnf", Version: buildinfo.Version()},
	}, nil
}

func (s *Server) shutdown(ctx context.Context, _ *struct{}) (any, error) {
	s.mu.Lock()
	s.state = shutDown
	s.mu.Unlock()
	s.closeAll()
	return nil, nil
}

func (s *Server) exit(context.Context, *struct{}) {
	s.exitOnce.Do(func() { close(s.exited) })
}

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) {
	s.open(string(p.TextDocument.URI), p.TextDocument.Version, []byte(p.TextDocument.Text))
}

// didChange applies a document's changes. Full synchronisation is advertised (CNF files are
// small): the last change without a range holds the whole text; changes with ranges, which
// some clients send anyway, are applied to the text the server holds.
func (s *Server) didChange(ctx context.Context, p *didChangeParams) {
	if len(p.Changes) == 0 {
		return
	}
	uri := string(p.TextDocument.URI)
	s.mu.Lock()
	var text []byte
	if d := s.docs[uri]; d != nil && d.cur != nil {
		text = d.cur.text
	}
	s.mu.Unlock()
	for _, c := range p.Changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		text = applyEdit(text, *c.Range, c.Text)
	}
	s.edit(uri, p.TextDocument.Version, text)
}

func (s *Server) didClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) {
	s.close(string(p.TextDocument.URI))
}

func (s *Server) didChangeConfiguration(ctx context.Context, p *didChangeConfigurationParams) {
	if p.Settings != nil {
		s.configure(p.Settings, true)
	}
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

// configure applies settings. A value out of range is refused with a warning the user sees
// (window/showMessage), and the current value stays; absent fields keep their value. refresh
// asks the client for lenses and hints again (not during initialize: the client handles no
// request before it has the answer, and logged the refreshes as unhandled).
func (s *Server) configure(p *settingsParams, refresh bool) {
	set := p.settings
	if p.CNF != nil {
		set = *p.CNF
	}
	s.mu.Lock()
	opts := s.opts
	var problems []string
	if t := set.Solver.TimeLimit; t != nil {
		if *t > 0 && *t <= 3600 {
			opts.TimeLimit = time.Duration(*t * float64(time.Second))
		} else {
			problems = append(problems, "cnf.solver.timeLimit must be between 0 and 3600 seconds (it stays "+s.opts.TimeLimit.String()+")")
		}
	}
	if d := set.Debounce; d != nil {
		if *d >= 0 && *d <= 60000 {
			opts.Debounce = time.Duration(*d * float64(time.Millisecond))
		} else {
			problems = append(problems, "cnf.debounce must be between 0 and 60000 milliseconds (it stays "+s.opts.Debounce.String()+")")
		}
	}
	if f := set.FusionDiagnostics; f != nil {
		switch *f {
		case "information", "hint", "off":
			opts.FusionDiagnostics = *f
		default:
			problems = append(problems, "cnf.fusionDiagnostics must be information, hint or off (it stays "+s.opts.FusionDiagnostics+")")
		}
	}
	if b := set.InlayHints.Loops; b != nil {
		opts.LoopHints = *b
	}
	if b := set.InlayHints.Sizes; b != nil {
		opts.SizeHints = *b
	}
	if b := set.CodeLens.Enable; b != nil {
		opts.CodeLens = *b
	}
	s.opts = opts
	s.mu.Unlock()
	s.cfgMu.Lock()
	cfg := s.engine.Config()
	cfg.TimeLimit = opts.TimeLimit
	s.engine.SetConfig(cfg)
	s.cfgMu.Unlock()
	if r := set.Solver.Rates; r != nil && s.setRates(*r) { // setRates warns itself
		s.reanalyseAll("") // a setting applies to new versions: these are made now
	}
	for _, msg := range problems {
		s.warnUser("%s", msg)
	}
	s.republishAll()
	if refresh {
		s.refreshLenses() // lenses on or off, hints on or off
	}
}
