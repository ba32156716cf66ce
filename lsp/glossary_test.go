package lsp

import (
	"os"
	"strings"
	"testing"
)

// Every term links to a heading that docs/language.md has, and every line says something.
func TestGlossaryLinksExist(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			anchors[anchor(h)] = true
		}
	}
	for word, term := range glossary() {
		_, frag, _ := strings.Cut(term.URL, "#")
		if !strings.HasPrefix(term.URL, docsURL+"#") || !anchors[frag] {
			t.Errorf("%s links to %s: docs/language.md has no such heading", word, term.URL)
		}
		if len(term.Line) < 20 || strings.Contains(term.Line, "\n") {
			t.Errorf("%s: %q is not a one-line explanation", word, term.Line)
		}
		if !strings.Contains(strings.ToLower(string(doc)), strings.ToLower(word)) {
			t.Errorf("docs/language.md never mentions %q", word)
		}
	}
}

func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{"Loops and clusterings": "loops-and-clusterings", "Size scheme": "size-scheme", "Files, definitions and signatures": "files-definitions-and-signatures"} {
		if got := anchor(heading); got != want {
			t.Errorf("anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}
