package lsp

import (
	"fmt"
	"strings"
)

// markup writes hover text as Markdown, or as plain text for a client that renders only that
// (its hover contentFormat lists plaintext alone).
type markup struct {
	md bool
	b  strings.Builder
}

// code writes a block of code.
func (m *markup) code(lang, text string) {
	if m.md {
		fmt.Fprintf(&m.b, "```%s\n%s\n```\n", lang, text)
		return
	}
	m.b.WriteString(text + "\n")
}

// bold and mono format a phrase for text written with printf.
func (m *markup) bold(s string) string {
	if m.md {
		return "**" + s + "**"
	}
	return s
}

func (m *markup) mono(s string) string {
	if m.md {
		return "`" + s + "`"
	}
	return s
}

func (m *markup) printf(format string, args ...any) { fmt.Fprintf(&m.b, format, args...) }

func (m *markup) String() string { return m.b.String() }

func (m *markup) kind() string {
	if m.md {
		return "markdown"
	}
	return "plaintext"
}
