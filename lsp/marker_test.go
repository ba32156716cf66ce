package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/syntax"
)

// markerRE finds markers: block comments {-@kind-} or {-@kind:arg-}. A marker applies to the
// name just before it (xs{-@hover-}), so markers never move a token's column.
var markerRE = regexp.MustCompile(`\{-@([a-z]+)(?::([^-]*))?-\}`)

type marker struct {
	kind, arg string
	pos       protocol.Position
	label     string
}

func findMarkers(text string) []marker {
	f := syntax.NewFile("", []byte(text))
	var out []marker
	for _, m := range markerRE.FindAllStringSubmatchIndex(text, -1) {
		at := m[0]
		for at > 0 && (text[at-1] == ' ' || text[at-1] == '\t') {
			at--
		}
		for at > 0 && isNameByte(text[at-1]) {
			at--
		}
		p := f.LSPPosition(syntax.Pos(at))
		mk := marker{kind: text[m[2]:m[3]], pos: protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}}
		if m[4] >= 0 {
			mk.arg = text[m[4]:m[5]]
		}
		mk.label = fmt.Sprintf("%s %d:%d", mk.kind, p.Line+1, p.Character+1)
		out = append(out, mk)
	}
	return out
}

func pos(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1)
}

// TestMarkers runs each testdata/markers/*.txtar: it opens input.cnf, waits for its analysis,
// and records diagnostics, code lenses, symbols, commands, and the answer at every marker.
// go test ./lsp -update rewrites the results section.
func TestMarkers(t *testing.T) {
	files, _ := filepath.Glob("testdata/markers/*.txtar")
	if len(files) == 0 {
		t.Fatal("no marker tests")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(golden.Section(ar, "input.cnf"))
			opts := DefaultOptions()
			opts.Debounce = time.Millisecond
			c := startServer(t, opts, nil)
			uri := "file:///test/input.cnf"
			c.open(uri, text)
			c.analysed(uri, 1)
			c.forcedDone(uri)
			var out bytes.Buffer
			run(t, c, uri, text, &out)
			golden.Sections(t, path, "", map[string][]byte{"results": out.Bytes()})
		})
	}
}

func run(t *testing.T, c *client, uri, text string, out *bytes.Buffer) {
	td := map[string]any{"uri": uri}
	// Diagnostics of the analysed version.
	var diags []protocol.Diagnostic
	last := c.waitDiagnostics(uri, func(diagParams) bool { return true })
	for _, raw := range last.Diagnostics {
		var d protocol.Diagnostic
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		diags = append(diags, d)
	}
	sort.Slice(diags, func(i, j int) bool { return pos(diags[i].Range) < pos(diags[j].Range) })
	fmt.Fprintf(out, "diagnostics:\n")
	for _, d := range diags {
		tags := ""
		for _, tg := range d.Tags {
			tags += fmt.Sprintf(" [%s]", tg)
		}
		fmt.Fprintf(out, "  %s %s %v%s: %s\n", pos(d.Range), d.Severity, d.Code, tags, d.Message)
		for _, r := range d.RelatedInformation {
			fmt.Fprintf(out, "    related %s: %s\n", pos(r.Location.Range), r.Message)
		}
		// The quick fixes offered at the diagnostic's range, and only this diagnostic's.
		var actions []protocol.CodeAction
		if err := c.call("textDocument/codeAction", map[string]any{"textDocument": td, "range": d.Range, "context": map[string]any{"diagnostics": []any{d}}}, &actions); err != nil {
			t.Fatal(err)
		}
		for _, a := range actions {
			if len(a.Diagnostics) != 1 || a.Diagnostics[0].Message != d.Message || a.Diagnostics[0].Range != d.Range {
				continue
			}
			var edits []string
			for _, e := range a.Edit.Changes[protocol.DocumentURI(uri)] {
				edits = append(edits, fmt.Sprintf("%s %q", pos(e.Range), e.NewText))
			}
			fmt.Fprintf(out, "    quick fix %q (%s, preferred %v): %s\n", a.Title, a.Kind, a.IsPreferred, strings.Join(edits, ", "))
		}
	}
	var lenses []protocol.CodeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": td}, &lenses); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(out, "code lenses:\n")
	for _, l := range lenses {
		args, _ := json.Marshal(l.Command.Arguments)
		fmt.Fprintf(out, "  %s %q %s %s\n", pos(l.Range), l.Command.Title, l.Command.Command, args)
	}
	var hints []inlayHint
	if err := c.call("textDocument/inlayHint", map[string]any{"textDocument": td, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 10000, "character": 0}}}, &hints); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(out, "inlay hints:\n")
	for _, h := range hints {
		fmt.Fprintf(out, "  %d:%d %s\n", h.Position.Line+1, h.Position.Character+1, hintText(h))
	}
	var symbols []protocol.DocumentSymbol
	if err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": td}, &symbols); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(out, "symbols:\n")
	for _, s := range symbols {
		fmt.Fprintf(out, "  %s %s %q\n", pos(s.SelectionRange), s.Name, s.Detail)
		for _, ch := range s.Children {
			fmt.Fprintf(out, "    %s %s %q\n", pos(ch.SelectionRange), ch.Name, ch.Detail)
		}
	}
	for _, s := range symbols {
		var cl ClusteringResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": "cnf.showClustering", "arguments": []any{uri, s.Name}}, &cl); err != nil {
			fmt.Fprintf(out, "showClustering %s: error: %v\n", s.Name, err)
			continue
		}
		clusters, _ := json.Marshal(cl.Summary.Clusters)
		fmt.Fprintf(out, "showClustering %s: %d loops, objective %d, dot %d lines, clusters %s\n", s.Name, cl.Summary.Loops, cl.Summary.Objective, strings.Count(cl.DOT, "\n"), clusters)
		var fp TextResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": "cnf.showFusedProcess", "arguments": []any{uri, s.Name, 1}}, &fp); err == nil {
			// After the header that explains the notation: the loop's first lines.
			body, ok := strings.CutPrefix(fp.Text, fuse.ReadableHeader+"\n")
			lines := strings.SplitN(body, "\n", 10)
			fmt.Fprintf(out, "showFusedProcess %s 1 (header %v): %s\n", s.Name, ok, strings.Join(lines[:min(9, len(lines))], " | "))
		}
		var ilp TextResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": "cnf.showILP", "arguments": []any{uri, s.Name}}, &ilp); err == nil {
			fmt.Fprintf(out, "showILP %s: %s\n", s.Name, strings.SplitN(ilp.Text, "\n", 3)[1])
		}
	}
	var edits []protocol.TextEdit
	if err := c.call("textDocument/formatting", map[string]any{"textDocument": td, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits); err != nil {
		fmt.Fprintf(out, "formatting: error: %v\n", err)
	} else {
		fmt.Fprintf(out, "formatting: %d edits\n", len(edits))
		for _, e := range edits {
			fmt.Fprintf(out, "  %s:\n    %s\n", pos(e.Range), strings.ReplaceAll(strings.TrimRight(e.NewText, "\n"), "\n", "\n    "))
		}
	}
	var tokens protocol.SemanticTokens
	if err := c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": td}, &tokens); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(out, "semantic tokens:%s\n", decodeTokens(text, tokens.Data))
	for _, m := range findMarkers(text) {
		params := map[string]any{"textDocument": td, "position": m.pos}
		switch m.kind {
		case "hover":
			var h *protocol.Hover
			if err := c.call("textDocument/hover", params, &h); err != nil || h == nil {
				fmt.Fprintf(out, "%s: none (%v)\n", m.label, err)
				continue
			}
			fmt.Fprintf(out, "%s: %s\n  %s\n", m.label, pos(*h.Range), strings.ReplaceAll(h.Contents.Value, "\n", "\n  "))
		case "def":
			var locs []protocol.Location
			_ = c.call("textDocument/definition", params, &locs)
			fmt.Fprintf(out, "%s: %s\n", m.label, locations(locs))
		case "refs":
			params["context"] = map[string]any{"includeDeclaration": true}
			var locs []protocol.Location
			_ = c.call("textDocument/references", params, &locs)
			fmt.Fprintf(out, "%s: %s\n", m.label, locations(locs))
		case "rename":
			params["newName"] = m.arg
			var edit protocol.WorkspaceEdit
			if err := c.call("textDocument/rename", params, &edit); err != nil {
				fmt.Fprintf(out, "%s -> %s: error: %v\n", m.label, m.arg, err)
				continue
			}
			var edits []string
			for _, e := range edit.Changes[protocol.DocumentURI(uri)] {
				edits = append(edits, pos(e.Range))
			}
			sort.Strings(edits)
			fmt.Fprintf(out, "%s -> %s: %s\n", m.label, m.arg, strings.Join(edits, ", "))
		case "complete":
			var items []protocol.CompletionItem
			_ = c.call("textDocument/completion", params, &items)
			var labels []string
			for _, it := range items {
				if it.Kind == protocol.CompletionItemKindVariable {
					labels = append(labels, it.Label+" ("+it.Detail+")")
				}
			}
			fmt.Fprintf(out, "%s: %d items; names in scope: %s\n", m.label, len(items), strings.Join(labels, ", "))
		case "sig":
			var h *protocol.SignatureHelp
			if err := c.call("textDocument/signatureHelp", params, &h); err != nil || h == nil || len(h.Signatures) == 0 {
				fmt.Fprintf(out, "%s: none\n", m.label)
				continue
			}
			s := h.Signatures[0]
			fmt.Fprintf(out, "%s: %s, argument %d (%v)\n", m.label, s.Label, h.ActiveParameter+1, s.Parameters[min(int(h.ActiveParameter), len(s.Parameters)-1)].Label)
		default:
			t.Fatalf("unknown marker %s", m.kind)
		}
	}
}

func locations(locs []protocol.Location) string {
	var parts []string
	for _, l := range locs {
		parts = append(parts, pos(l.Range))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func isNameByte(c byte) bool {
	return c == '_' || c == '\'' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// decodeTokens turns semantic-token data back into "text:type[+modifiers]" words.
func decodeTokens(text string, data []uint32) string {
	f := syntax.NewFile("", []byte(text))
	var b strings.Builder
	var line, char uint32
	for i := 0; i+4 < len(data); i += 5 {
		if data[i] > 0 {
			line, char = line+data[i], data[i+1]
		} else {
			char += data[i+1]
		}
		start := f.Offset(syntax.LSPPosition{Line: int(line), Character: int(char)})
		end := f.Offset(syntax.LSPPosition{Line: int(line), Character: int(char + data[i+2])})
		mods := ""
		if data[i+4]&modDeclaration != 0 {
			mods += "+decl"
		}
		if data[i+4]&modScalar != 0 {
			mods += "+scalar"
		}
		fmt.Fprintf(&b, " %s:%s%s", text[start:end], tokenTypes[data[i+3]], mods)
	}
	return b.String()
}

// hintText prints an inlay hint: its label and tooltip, and for a label of parts, each part's
// value, tooltip and command.
func hintText(h inlayHint) string {
	if parts, ok := h.Label.([]any); ok {
		var out []string
		for _, p := range parts {
			raw, _ := json.Marshal(p)
			var part inlayHintLabelPart
			_ = json.Unmarshal(raw, &part)
			text := fmt.Sprintf("%q (%s)", part.Value, strings.ReplaceAll(part.Tooltip, "\n", " / "))
			if part.Command != nil {
				args, _ := json.Marshal(part.Command.Arguments)
				text += fmt.Sprintf(" -> %s %s", part.Command.Command, args)
			}
			out = append(out, text)
		}
		return strings.Join(out, " + ")
	}
	return fmt.Sprintf("%q (%s)", h.Label, h.Tooltip)
}
