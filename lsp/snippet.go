package lsp

import (
	"strconv"
	"strings"
)

// combinatorSnippet is the completion's snippet for a combinator (in VS Code's snippet syntax):
// the application of syntax's table example, each argument a placeholder ("filter ${1:(> 0)}
// ${2:xs}$0"); "" for an empty example. The application only, not a binding: it is chosen
// where the user types the combinator, after "name = ".
func combinatorSnippet(example string) string {
	args := splitTopLevel(example)
	if len(args) == 0 {
		return ""
	}
	body := args[0]
	for i, a := range args[1:] {
		body += " ${" + strconv.Itoa(i+1) + ":" + escapeSnippet(a) + "}"
	}
	return body + "$0"
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
