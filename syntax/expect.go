package syntax

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Slot is the kind of thing that belongs at a position of a program being typed, for
// completion: what to offer there, and what never to offer (a completion list open where the
// user is naming something new would replace the new name on Enter).
type Slot int

const (
	SlotNone       Slot = iota // nothing to offer: a binder or a definition's name is being written
	SlotCombinator             // the right side of a binding, before its combinator
	SlotArray                  // an array argument of a combinator
	SlotWorker                 // a worker, or a scalar argument: scalars in scope and host functions
	SlotHost                   // the host function of an external
	SlotName                   // a result after in, or an external's argument: any name in scope
)

// Expectation is what belongs at a position: the slot, and for a combinator's argument the
// combinator (the nearest known one when the keyword is misspelt, so that a typo does not turn
// the next names into combinator suggestions).
type Expectation struct {
	Slot       Slot
	Combinator *CombinatorInfo
	Arg        int // the argument's index
}

// ExpectedAt reads the text before off, back to the start of the binding (or the in) it is in,
// and says what belongs at off. It works on text that does not parse, as it is while typed.
func ExpectedAt(src []byte, off Pos) Expectation {
	if off < 0 || int(off) > len(src) {
		return Expectation{}
	}
	stmt, eq, ok := statement(src, int(off))
	if !ok {
		return Expectation{}
	}
	if strings.HasPrefix(strings.TrimSpace(stmt), "in ") || strings.TrimSpace(stmt) == "in" {
		return Expectation{Slot: SlotName}
	}
	if eq < 0 {
		return Expectation{} // a binder is being named
	}
	rhs := stmt[eq+1:]
	words, depth, inWord := arguments(rhs)
	switch {
	case len(words) == 0 || len(words) == 1 && inWord:
		return Expectation{Slot: SlotCombinator}
	case depth > 0:
		return Expectation{Slot: SlotWorker}
	}
	kw := words[0]
	info, ok := LookupCombinator(kw)
	if !ok {
		if near := nearestCombinator(kw); near != "" {
			info, _ = LookupCombinator(near)
			kw = near
		}
	}
	if info == nil {
		return Expectation{Slot: SlotWorker}
	}
	arg := len(words) - 1 // arguments before the cursor
	if inWord {
		arg-- // the cursor is inside (at the end of) the last one
	}
	e := Expectation{Combinator: info, Arg: arg}
	switch {
	case info.Name == "external":
		e.Slot = SlotName
		if arg == 0 {
			e.Slot = SlotHost
		}
	case info.Name == "mapN" || info.Name == "map" && kw != "map":
		e.Slot = SlotArray
		if arg == 0 {
			e.Slot = SlotWorker
		}
	default:
		e.Slot = SlotWorker
		// Arrays are the last parameters; a worker may take scalar arguments first, so count
		// from the end when the argument is beyond the table's parameters.
		params := info.Params
		if arg < len(params) && strings.Contains(params[arg], "Array") {
			e.Slot = SlotArray
		}
		if arg >= len(params) && strings.Contains(params[len(params)-1], "Array") {
			e.Slot = SlotArray
		}
	}
	return e
}

// statement returns the text from the start of the binding (or in) that contains off up to
// off, and the index of its binding's = in it (-1 before it).
func statement(src []byte, off int) (string, int, bool) {
	start := off
	for {
		ls := int(lineStart(src, Pos(start)))
		line := string(src[ls:off])
		if ls < lineStartInt(src, off) {
			line = string(src[ls:lineEnd(src, Pos(ls))])
		}
		trimmed := strings.TrimSpace(line)
		if i := bindingEquals(line); i >= 0 || strings.HasPrefix(trimmed, "in ") || trimmed == "in" || strings.HasPrefix(trimmed, "let ") {
			if cur := lineStartInt(src, off); ls < cur && indent(string(src[cur:off])) <= nameColumn(line) {
				// The cursor's line is no deeper than the binding above: a new binding,
				// whose name is being written.
				return string(src[cur:off]), -1, true
			}
			text := string(src[ls:off])
			if strings.HasPrefix(strings.TrimSpace(text), "let ") {
				text = strings.Replace(text, "let ", "    ", 1)
			}
			return text, bindingEquals(text), true
		}
		if ls == 0 || ls < len(src) && !unicode.IsSpace(rune(src[ls])) && ls != lineStartInt(src, off) {
			// A line in column 1 begins a declaration: off is not inside a let.
			text := string(src[lineStartInt(src, off):off])
			return text, bindingEquals(text), bindingEquals(text) >= 0
		}
		start = ls - 1
	}
}

func lineStartInt(src []byte, off int) int { return int(lineStart(src, Pos(off))) }

// indent is the width of a line's leading white space (a tab counts as 8).
func indent(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 8
		default:
			return n
		}
	}
	return n
}

// nameColumn is the indentation of the first name of a binding line ("  let s = ..." gives
// 6, the column of s).
func nameColumn(line string) int {
	n := indent(line)
	rest := strings.TrimLeft(line, " \t")
	if after, ok := strings.CutPrefix(rest, "let"); ok && (after == "" || after[0] == ' ' || after[0] == '\t') {
		n += 3 + indent(after)
	}
	return n
}

// bindingEquals is the index of the = of a binding in a line, or -1: an = that is not part of
// ==, <=, >=, /= or =>, outside parentheses.
func bindingEquals(line string) int {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '=':
			prev, next := byte(' '), byte(' ')
			if i > 0 {
				prev = line[i-1]
			}
			if i+1 < len(line) {
				next = line[i+1]
			}
			if depth == 0 && !strings.ContainsRune("=<>/!:", rune(prev)) && !strings.ContainsRune("=>", rune(next)) {
				return i
			}
		}
	}
	return -1
}

// arguments splits the right side of a binding, as typed so far, into its top-level words
// (parenthesised groups and lambdas count as one), and says how deep in parentheses the end is
// and whether it is inside a word.
func arguments(rhs string) (words []string, depth int, inWord bool) {
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(rhs); {
		r, size := utf8.DecodeRuneInString(rhs[i:])
		i += size
		switch {
		case r == '(' || r == '[':
			if depth == 0 {
				flush()
			}
			depth++
			cur.WriteRune(r)
		case r == ')' || r == ']':
			depth--
			cur.WriteRune(r)
			if depth <= 0 {
				depth = 0
				flush()
			}
		case unicode.IsSpace(r) && depth == 0:
			flush()
		case r == '\\' && depth == 0:
			flush()
			depth = 1 // a lambda runs to the end of the binding
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
	}
	inWord = cur.Len() > 0 && depth == 0
	flush()
	return words, depth, inWord
}
