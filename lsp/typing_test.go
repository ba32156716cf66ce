package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// Typing a binding key by key: while the line is incomplete its error is reported once, at
// its end (not squiggles that come, go and move with every key); errors elsewhere stay.
func TestTypingReportsTheEditedLineOnce(t *testing.T) {
	c := startServer(t, DefaultOptions(), nil)
	uri := "file:///typing.cnf"
	head := "f xs =\n  let ys = map (+ 1) xs\n      "
	tail := "\n  in  ys\n"
	line := "zs = zip (map (+ q"
	c.open(uri, head+tail)
	c.analysed(uri, 1)
	moved := 0
	for i := 1; i <= len(line); i++ {
		v := i + 1
		c.change(uri, v, head+line[:i]+tail)
		p := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == int32(v) })
		var onLine []int
		for _, raw := range p.Diagnostics {
			var d struct {
				Severity int `json:"severity"`
				Range    struct {
					Start struct{ Line, Character int } `json:"start"`
				} `json:"range"`
			}
			json.Unmarshal(raw, &d)
			if d.Severity == 1 && d.Range.Start.Line == 2 {
				onLine = append(onLine, d.Range.Start.Character)
			}
		}
		if len(onLine) > 1 || len(onLine) == 1 && onLine[0] != 6+i {
			t.Errorf("after typing %q: errors at columns %v of the line, want at most one, at its end (%d)", line[:i], onLine, 6+i)
		}
		moved += len(onLine)
	}
	if moved == 0 {
		t.Fatal("no step had an error: the test types nothing incomplete")
	}
}

// collapseEditedLine moves a single error of the edited line to its end (keeping its message
// and fixes), collapses several into one counted there, and leaves other lines alone.
func TestCollapseEditedLine(t *testing.T) {
	text := []byte("f xs =\n  let ys = map (+\n      zs = 1\n  in  ys\n")
	lineStart := strings.Index(string(text), "  let")
	lineEnd := strings.Index(string(text), "(+") + 2
	other := strings.Index(string(text), "zs")
	errs := func(starts ...int) []syntaxDiag {
		var out []syntaxDiag
		for _, s := range starts {
			out = append(out, mkError(s, "e"))
		}
		return out
	}
	got := collapseEditedLine(errs(lineStart+8, lineStart+12, other), text, lineStart+10)
	if len(got) != 2 {
		t.Fatalf("got %d diagnostics, want 2: %+v", len(got), got)
	}
	last := got[len(got)-1]
	if int(last.Range.Start) != lineEnd || last.Message != "e (and 1 more error on this line)" {
		t.Errorf("collapsed: %+v (line ends at %d)", last, lineEnd)
	}
	if got[0].Range.Start != errs(other)[0].Range.Start {
		t.Errorf("the other line's error moved: %+v", got[0])
	}
	if one := collapseEditedLine(errs(lineStart+8), text, lineStart+10); one[0].Message != "e" || int(one[0].Range.Start) != lineEnd {
		t.Errorf("a single error: %+v", one)
	}
	if none := collapseEditedLine(errs(lineStart+8, lineStart+12), text, -1); len(none) != 2 {
		t.Errorf("without an edit: %+v", none)
	}
}

type syntaxDiag = syntax.Diagnostic

func mkError(at int, msg string) syntax.Diagnostic {
	return syntax.Diagnostic{Range: syntax.Range{Start: syntax.Pos(at), End: syntax.Pos(at + 1)}, Severity: syntax.Error, Message: msg}
}

// An error of the line being typed is published at the line's end, and its quick fix is
// offered there as well as at the misspelt word.
func TestQuickFixWhereTheErrorIsPublished(t *testing.T) {
	c := startServer(t, DefaultOptions(), nil)
	uri := "file:///fix.cnf"
	c.open(uri, "f xs =\n  let ys = map (+ 1) xs\n  in  ys\n")
	c.analysed(uri, 1)
	c.change(uri, 2, "f xs =\n  let ys = mapp (+ 1) xs\n  in  ys\n")
	p := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 2 && len(p.Diagnostics) > 0 })
	var d struct {
		Range protocol.Range `json:"range"`
	}
	json.Unmarshal(p.Diagnostics[0], &d)
	if d.Range.Start.Character != 24 {
		t.Errorf("published at %+v, want the line's end (24)", d.Range)
	}
	for _, at := range []protocol.Range{d.Range, {Start: protocol.Position{Line: 1, Character: 11}, End: protocol.Position{Line: 1, Character: 11}}} {
		var actions []protocol.CodeAction
		if err := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": at,
			"context": map[string]any{"diagnostics": []any{}}}, &actions); err != nil {
			t.Fatal(err)
		}
		if len(actions) != 1 || actions[0].Title != "change to map" {
			t.Errorf("actions at %+v: %+v", at, actions)
		}
	}
}

// Closing a document clears its diagnostics with an empty list (the client's check rejects a
// null one, which vscode-languageclient throws on).
func TestCloseClearsDiagnostics(t *testing.T) {
	c := startServer(t, DefaultOptions(), nil)
	uri := "file:///close.cnf"
	c.open(uri, "f xs =\n  let ys = mapp (+ 1) xs\n  in  ys\n")
	c.analysed(uri, 1)
	since := c.published(uri)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.waitAfter(uri, since, func(p diagParams) bool { return len(p.Diagnostics) == 0 })
}
