package lsp

import "go.lsp.dev/protocol"

// The protocol types the server uses that go.lsp.dev/protocol v0.12.0 lacks or gets wrong, so
// that every message the server sends or reads is a typed value.

// clientCapabilities is the part of the client's capabilities the server acts on.
type clientCapabilities struct {
	Workspace struct {
		CodeLens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		InlayHint struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"inlayHint"`
	} `json:"workspace"`
	Window struct {
		ShowDocument struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
	TextDocument struct {
		Hover struct {
			ContentFormat []protocol.MarkupKind `json:"contentFormat"`
		} `json:"hover"`
		Completion struct {
			CompletionItem struct {
				DocumentationFormat []protocol.MarkupKind `json:"documentationFormat"`
				SnippetSupport      bool                  `json:"snippetSupport"`
			} `json:"completionItem"`
		} `json:"completion"`
	} `json:"textDocument"`
	Experimental struct {
		// CNFStatus: the client wants cnf/status notifications (see ext.go).
		CNFStatus bool `json:"cnfStatus"`
	} `json:"experimental"`
}

// markdown reports whether the client renders Markdown in hovers (the default when it does not
// say: VS Code and Neovim do; a client that lists only plaintext gets plain text).
func (c clientCapabilities) markdown() bool {
	formats := c.TextDocument.Hover.ContentFormat
	if len(formats) == 0 {
		return true
	}
	for _, f := range formats {
		if f == protocol.Markdown {
			return true
		}
	}
	return false
}

// initializeParams is what the server reads of initialize's params.
type initializeParams struct {
	Capabilities          clientCapabilities `json:"capabilities"`
	InitializationOptions *settingsParams    `json:"initializationOptions"`
	RootURI               *string            `json:"rootUri"`
	WorkspaceFolders      []workspaceFolder  `json:"workspaceFolders"`
}

type workspaceFolder struct {
	URI string `json:"uri"`
}

// initializeResult is the answer to initialize.
type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// serverCapabilities is what the server offers.
type serverCapabilities struct {
	TextDocumentSync           textDocumentSyncOptions `json:"textDocumentSync"`
	HoverProvider              bool                    `json:"hoverProvider"`
	DefinitionProvider         bool                    `json:"definitionProvider"`
	ReferencesProvider         bool                    `json:"referencesProvider"`
	DocumentSymbolProvider     bool                    `json:"documentSymbolProvider"`
	DocumentFormattingProvider bool                    `json:"documentFormattingProvider"`
	RenameProvider             renameOptions           `json:"renameProvider"`
	CodeLensProvider           codeLensOptions         `json:"codeLensProvider"`
	CodeActionProvider         codeActionOptions       `json:"codeActionProvider"`
	CompletionProvider         triggerOptions          `json:"completionProvider"`
	SignatureHelpProvider      triggerOptions          `json:"signatureHelpProvider"`
	ExecuteCommandProvider     executeCommandOptions   `json:"executeCommandProvider"`
	SemanticTokensProvider     semanticTokensOptions   `json:"semanticTokensProvider"`
	InlayHintProvider          bool                    `json:"inlayHintProvider"`
}

type textDocumentSyncOptions struct {
	OpenClose bool                          `json:"openClose"`
	Change    protocol.TextDocumentSyncKind `json:"change"`
}

type renameOptions struct {
	PrepareProvider bool `json:"prepareProvider"`
}

type codeLensOptions struct {
	ResolveProvider bool `json:"resolveProvider"`
}

type codeActionOptions struct {
	CodeActionKinds []protocol.CodeActionKind `json:"codeActionKinds"`
}

type triggerOptions struct {
	TriggerCharacters   []string `json:"triggerCharacters"`
	RetriggerCharacters []string `json:"retriggerCharacters,omitempty"`
}

type executeCommandOptions struct {
	Commands []string `json:"commands"`
}

type semanticTokensOptions struct {
	Legend semanticTokensLegend `json:"legend"`
	Full   bool                 `json:"full"`
}

type semanticTokensLegend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}

// didChangeParams reads contentChanges with their range as a pointer: v0.12.0 decodes a change
// without a range (the whole text) with a zero range, which would look like an insertion at 0:0.
type didChangeParams struct {
	TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	Changes      []struct {
		Range *protocol.Range `json:"range"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

// settingsParams are the server's settings, as didChangeConfiguration's settings or the
// initializationOptions: {"cnf": {...}} or the section itself. Absent fields keep their value.
type settingsParams struct {
	CNF *settings `json:"cnf"`
	settings
}

type settings struct {
	Solver struct {
		TimeLimit *float64 `json:"timeLimit"` // seconds
		Rates     *string  `json:"rates"`     // a rates file's path ("": none)
	} `json:"solver"`
	Debounce          *float64 `json:"debounce"` // milliseconds
	FusionDiagnostics *string  `json:"fusionDiagnostics"`
	InlayHints        struct {
		Loops *bool `json:"loops"`
		Sizes *bool `json:"sizes"`
	} `json:"inlayHints"`
	CodeLens struct {
		Enable *bool `json:"enable"`
	} `json:"codeLens"`
}

type didChangeConfigurationParams struct {
	Settings *settingsParams `json:"settings"`
}

// publishDiagnosticsParams carries the document version, which v0.12.0's type leaves out when 0.
type publishDiagnosticsParams struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     int32                 `json:"version"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// Message types of window/logMessage and window/showMessage.
const (
	messageWarning = 2
	messageInfo    = 3
	messageLog     = 4
)

type logMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// inlayHintParams and inlayHint are LSP 3.17's, which v0.12.0 does not have.
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        any               `json:"label"`          // a string, or []inlayHintLabelPart
	Kind         int               `json:"kind,omitempty"` // 1 type, 2 parameter
	Tooltip      string            `json:"tooltip,omitempty"`
	PaddingLeft  bool              `json:"paddingLeft,omitempty"`
	PaddingRight bool              `json:"paddingRight,omitempty"`
}

const inlayHintType = 1

// inlayHintLabelPart is a piece of an inlay hint's label; one with a command is clickable.
type inlayHintLabelPart struct {
	Value   string   `json:"value"`
	Tooltip string   `json:"tooltip,omitempty"`
	Command *command `json:"command,omitempty"`
}

// codeLens is protocol.CodeLens with a command that has a tooltip (LSP 3.18's
// Command.tooltip, which go.lsp.dev/protocol v0.12.0 lacks; clients that do not know it
// ignore it).
type codeLens struct {
	Range   protocol.Range `json:"range"`
	Command *command       `json:"command,omitempty"`
}

type command struct {
	Title     string `json:"title"`
	Tooltip   string `json:"tooltip,omitempty"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}
