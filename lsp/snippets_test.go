package lsp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/syntax"
)

// The extension's snippets (vscode-extension/snippets/cnf.json) are made from syntax's table of
// combinators: one per combinator, an application whose arguments are the table's example, each
// a placeholder, plus a definition skeleton. Regenerate with go test ./lsp -run Snippets -update.
func TestSnippetsFromCombinatorTable(t *testing.T) {
	type snippet struct {
		Prefix      string   `json:"prefix"`
		Body        []string `json:"body"`
		Description string   `json:"description"`
	}
	snippets := map[string]snippet{
		"definition": {Prefix: "def", Description: "A definition: a signature, then a let-block of combinator bindings and its results.",
			Body: []string{
				"${1:name} :: Array ${2:Int} -> Array ${3:Int}",
				"${1:name} ${4:xs} =",
				"  let ${5:ys} = map ${6:(+ 1)} ${4:xs}",
				"  in  ${5:ys}",
				"$0"}},
	}
	for _, c := range syntax.CombinatorTable {
		args := splitTopLevel(c.Example)
		if len(args) == 0 {
			t.Fatalf("%s: empty example", c.Name)
		}
		// The application only, not a binding: the snippet is chosen where the user types the
		// combinator, after "name = ".
		body := args[0]
		for i, a := range args[1:] {
			body += " ${" + strconv.Itoa(i+1) + ":" + escapeSnippet(a) + "}"
		}
		snippets[c.Name] = snippet{Prefix: args[0], Body: []string{body + "$0"}, Description: c.Signature() + "\n" + c.Doc}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(snippets); err != nil {
		t.Fatal(err)
	}
	golden.File(t, "../vscode-extension/snippets/cnf.json", b.Bytes())
}

// splitTopLevel splits an application at the spaces outside parentheses and brackets.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ' ':
			if depth == 0 {
				if i > start {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// escapeSnippet escapes what VS Code's snippet syntax treats specially inside a placeholder.
func escapeSnippet(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}
