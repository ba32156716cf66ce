package lsp

import (
	"fmt"
	"strings"
)

// The vocabulary of the clustering that the editor shows (in lenses, hovers and the
// diagram's header), each term explained in one line and at length in a section of
// docs/language.md. One table: hovers link the terms, lenses carry the lines as tooltips, and
// the clustering view gets the table in its result (ClusteringResult.Terms).

// docsURL is docs/language.md as published with the sources.
const docsURL = "https://github.com/cnf-tools/cnf/blob/main/docs/language.md"

// Term is one word of the vocabulary.
type Term struct {
	Line string `json:"line"` // the one-line explanation
	URL  string `json:"url"`  // the section of docs/language.md that explains it
}

// glossaryEntries are the terms, each with its line and the heading of its section.
var glossaryEntries = []struct{ word, line, heading string }{
	{"loops", "the loops of the optimal clustering: bindings that share a loop run as one fused process, one pass over the data", "Loops and clusterings"},
	{"unfused", "baseline: one loop per binding, every array written to memory", "Baselines"},
	{"stream fusion", "baseline: a binding joins its producer's loop only when it consumes a single stream in order", "Baselines"},
	{"Megiddo", "baseline: Megiddo and Sarkar's optimal clustering, which fuses only loops of the same size", "Baselines"},
	{"objective", "what the ILP minimises (Fig 1.14): the arrays written to memory and the pairs of bindings left in different loops, weighted by their sizes", "Objective"},
	{"not proven optimal", "the solver stopped (time limit or cancel) before proving no clustering is better: the best one found is shown", "Objective"},
	{"size scheme", "the size scheme: the sizes of the results as functions of the parameters' sizes (∀ chosen by the caller, ∃ at run time)", "Size scheme"},
	{"transducer", "a combinator whose output size is chosen at run time (filter, take, drop, slice, tail): its consumers iterate at that size", "Iteration sizes and transducers"},
	{"type", "the element type, inferred from the signature, the combinators and the workers: Int, Float, Bool, tuples or a host type", "Element types"},
	{"iteration size", "how many iterations a binding's loop makes", "Iteration sizes and transducers"},
	{"contracted", "an array produced and consumed in one loop: it is never written to memory", "Loops and clusterings"},
	{"materialised", "an array written to memory: a result, or read by another loop", "Loops and clusterings"},
	{"fusion-preventing", "an edge whose ends cannot share a loop (a fold's value is needed, an external runs between loops, ...)", "Loops and clusterings"},
	{"external", "a host function called between loops: never part of a loop", "Loops and clusterings"},
}

// glossary is the table by word.
func glossary() map[string]Term {
	out := make(map[string]Term, len(glossaryEntries))
	for _, e := range glossaryEntries {
		out[e.word] = Term{Line: e.line, URL: docsURL + "#" + anchor(e.heading)}
	}
	return out
}

// anchor is the fragment GitHub gives a Markdown heading: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// term writes a word of the vocabulary: in Markdown a link to its section whose title (shown
// on hover) is its line; in plain text the word.
func (m *markup) term(word string) string {
	t, ok := glossary()[word]
	if !m.md || !ok {
		return word
	}
	return fmt.Sprintf("[%s](%s %q)", word, t.URL, t.Line)
}

// termCount writes n and the vocabulary's plural word, singular when n is 1 ("1 loop", "2
// loops"), linked as term links it.
func (m *markup) termCount(n int, plural string) string {
	t := m.term(plural)
	if n == 1 {
		one := strings.TrimSuffix(plural, "s")
		if m.md {
			t = strings.Replace(t, "["+plural+"]", "["+one+"]", 1)
		} else {
			t = one
		}
	}
	return fmt.Sprintf("%d %s", n, t)
}

// termLines are the lines of some words, one per line: a lens's tooltip.
func termLines(words ...string) string {
	g := glossary()
	var b strings.Builder
	for _, w := range words {
		fmt.Fprintf(&b, "%s: %s\n", w, g[w].Line)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
