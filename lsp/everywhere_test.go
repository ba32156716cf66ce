package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// TestRequestsEverywhere opens random programs (every combinator, externals included) and makes
// every position-based request at the start of every token, and every document request and
// command, after the clustering is done: each must answer without an error, and the server
// must log no panic (it recovers from panics, so only its log shows them).
func TestRequestsEverywhere(t *testing.T) {
	var logs syncBuffer
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	c := startServerLog(t, opts, nil, &logs)
	for seed := uint64(1); seed <= 10; seed++ {
		src := gen.Program(rand.New(rand.NewPCG(seed, 77)), gen.Options{Bindings: 4 + int(seed)*2})
		uri := fmt.Sprintf("file:///everywhere%d.cnf", seed)
		c.open(uri, src)
		c.analysed(uri, 1)
		td := map[string]any{"uri": uri}
		for line, text := range strings.Split(src, "\n") {
			for _, col := range tokenStarts(text) {
				pos := map[string]any{"line": line, "character": col}
				params := map[string]any{"textDocument": td, "position": pos}
				for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/signatureHelp", "textDocument/definition"} {
					var res any
					if err := c.call(method, params, &res); err != nil {
						t.Fatalf("%s at %d:%d of\n%s\n: %v", method, line, col, src, err)
					}
				}
				var actions any
				if err := c.call("textDocument/codeAction", map[string]any{"textDocument": td, "range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}, &actions); err != nil {
					t.Fatalf("codeAction at %d:%d: %v", line, col, err)
				}
				var refs any
				if err := c.call("textDocument/references", map[string]any{"textDocument": td, "position": pos, "context": map[string]any{"includeDeclaration": true}}, &refs); err != nil {
					t.Fatalf("references at %d:%d: %v", line, col, err)
				}
			}
		}
		for _, method := range []string{"textDocument/codeLens", "textDocument/documentSymbol", "textDocument/semanticTokens/full"} {
			var res any
			if err := c.call(method, map[string]any{"textDocument": td}, &res); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
		}
		var edits any
		if err := c.call("textDocument/formatting", map[string]any{"textDocument": td, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits); err != nil {
			t.Fatalf("formatting: %v", err)
		}
		for _, cmd := range [][]any{{"cnf.showClustering", uri, "prog"}, {"cnf.showILP", uri, "prog"}, {"cnf.showFusedProcess", uri, "prog", 1}} {
			var res any
			if err := c.call("workspace/executeCommand", map[string]any{"command": cmd[0], "arguments": cmd[1:]}, &res); err != nil {
				t.Fatalf("%s: %v", cmd[0], err)
			}
		}
	}
	if strings.Contains(logs.String(), "panic") {
		t.Fatalf("the server logged a panic:\n%s", logs.String())
	}
}

// tokenStarts returns the UTF-16 columns where a word or an operator starts in a line, and the
// line's end.
func tokenStarts(line string) []int {
	var cols []int
	prev := ' '
	col := 0
	for _, r := range line {
		word := r == '_' || r == '\'' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
		prevWord := prev == '_' || prev == '\'' || 'a' <= prev && prev <= 'z' || 'A' <= prev && prev <= 'Z' || '0' <= prev && prev <= '9'
		if r != ' ' && (word != prevWord || !word) {
			cols = append(cols, col)
		}
		prev = r
		col++
		if r > 0xFFFF {
			col++
		}
	}
	return append(cols, col)
}
