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

// table writes a table after a blank line: Markdown's, or aligned columns in plain text.
func (m *markup) table(header []string, rows [][]string) {
	m.b.WriteString("\n\n")
	if m.md {
		m.b.WriteString("| " + strings.Join(header, " | ") + " |\n|" + strings.Repeat(" --- |", len(header)) + "\n")
		for _, r := range rows {
			m.b.WriteString("| " + strings.Join(r, " | ") + " |\n")
		}
		return
	}
	width := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range append([][]string{header}, rows...) {
		var cells []string
		for i, c := range r {
			cells = append(cells, c+strings.Repeat(" ", width[i]-len([]rune(c))))
		}
		m.b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " ") + "\n")
	}
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
