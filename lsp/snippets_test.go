package lsp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/syntax"
)

// The extension's snippets (vscode-extension/snippets/cnf.json) are the definition skeleton
// only: a snippet is offered wherever its prefix is typed, so the combinators' (which offered
// postscanl where an array belongs) come from the server's completion, in the combinator slot
// only (combinatorSnippet). Regenerate with go test ./lsp -run Snippets -update.
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
		if combinatorSnippet(c.Example) == "" {
			t.Fatalf("%s: empty example", c.Name)
		}
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
