package syntax

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxFileSize is the largest source the front end reads. Offsets are stored in 32 bits.
const MaxFileSize = 1 << 30

// lexer turns source bytes into tokens. Comments are collected separately. Lexical errors
// (illegal characters, invalid UTF-8, unterminated comments) are reported once per run of bad
// input and the offending bytes are skipped, so that lexing always terminates and always
// produces a token stream the parser can recover on.
type lexer struct {
	src      []byte
	pos      int
	lineHead bool // no token yet on the current line
	atCol1   bool // the current position is the start of a line
	toks     []token
	comments []*Comment
	report   func(Range, string)
}

func lex(src []byte, report func(Range, string)) ([]token, []*Comment) {
	lx := &lexer{src: src, lineHead: true, atCol1: true, report: report}
	lx.pos = bomLen(src) // a byte order mark, as some Windows editors write, is not program text
	// A rough guess that avoids most re-allocation: one token per four bytes.
	lx.toks = make([]token, 0, len(src)/4+1)
	lx.run()
	return lx.toks, lx.comments
}

func isSymbolChar(r rune) bool {
	switch r {
	case '!', '#', '$', '%', '&', '*', '+', '.', '/', '<', '=', '>', '?', '@', '\\', '^', '|', '-', '~', ':':
		return true
	case '∘', '≤', '≥', '≠', '→', '×':
		return true
	}
	return false
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) && r != 'λ' }
func isIdentRest(r rune) bool {
	return r == '_' || r == '\'' || unicode.IsLetter(r) && r != 'λ' || unicode.IsDigit(r)
}

func (lx *lexer) emit(kind tokenKind, start int) {
	var flags uint8
	if lx.lineHead {
		flags |= flagFirst
	}
	if lx.atCol1 && lx.isLineStart(start) {
		flags |= flagCol1
	}
	lx.toks = append(lx.toks, token{kind: kind, flags: flags, pos: int32(start), end: int32(lx.pos)})
	lx.lineHead = false
	lx.atCol1 = false
}

func (lx *lexer) isLineStart(p int) bool {
	return p == bomLen(lx.src) || p > 0 && (lx.src[p-1] == '\n' || lx.src[p-1] == '\r')
}

// bomLen is the length of the UTF-8 byte order mark that src starts with, or 0.
func bomLen(src []byte) int {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return 3
	}
	return 0
}

func (lx *lexer) newline() {
	lx.lineHead = true
	lx.atCol1 = true
}

func (lx *lexer) peekRune(off int) (rune, int) {
	if lx.pos+off >= len(lx.src) {
		return -1, 0
	}
	return utf8.DecodeRune(lx.src[lx.pos+off:])
}

func (lx *lexer) run() {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\n':
			lx.pos++
			lx.newline()
			continue
		case c == '\r':
			lx.pos++
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
				lx.pos++
			}
			lx.newline()
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			lx.pos++
			lx.atCol1 = false
			continue
		}
		r, size := utf8.DecodeRune(lx.src[lx.pos:])
		start := lx.pos
		switch {
		case r == '-' && lx.isLineComment():
			lx.lineComment()
		case r == '—': // the papers' typeset "--" arrives as an em dash in pasted listings
			lx.lineComment()
		case c == '{' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '-':
			lx.blockComment()
		case isIdentStart(r):
			lx.pos += size
			for {
				r, size := lx.peekRune(0)
				if r < 0 || !isIdentRest(r) {
					break
				}
				lx.pos += size
			}
			text := string(lx.src[start:lx.pos])
			if kw, ok := keywords[text]; ok {
				lx.emit(kw, start)
			} else if text == "_" {
				lx.emit(tUnderscore, start)
			} else {
				lx.emit(tIdent, start)
			}
		case c >= '0' && c <= '9':
			lx.number()
		case r == '(':
			lx.pos++
			lx.emit(tLParen, start)
		case r == ')':
			lx.pos++
			lx.emit(tRParen, start)
		case r == ',':
			lx.pos++
			lx.emit(tComma, start)
		case r == ';':
			lx.pos++
			lx.emit(tSemi, start)
		case r == '[':
			lx.pos++
			lx.emit(tLBracket, start)
		case r == ']':
			lx.pos++
			lx.emit(tRBracket, start)
		case r == '{':
			lx.pos++
			lx.emit(tLBrace, start)
		case r == '}':
			lx.pos++
			lx.emit(tRBrace, start)
		case r == '"':
			lx.stringLiteral()
		case r == '`':
			lx.backtick()
		case r == 'λ':
			lx.pos += size
			lx.emit(tLambda, start)
		case isSymbolChar(r):
			lx.symbol()
		default:
			lx.illegal()
		}
	}
	lx.pos = len(lx.src)
	lx.toks = append(lx.toks, token{kind: tEOF, flags: flagFirst, pos: int32(len(lx.src)), end: int32(len(lx.src))})
}

// isLineComment reports whether the dashes at pos start a comment: two or more dashes not
// followed by another symbol character (Haskell's rule: "-->" is an operator).
func (lx *lexer) isLineComment() bool {
	i := lx.pos
	for i < len(lx.src) && lx.src[i] == '-' {
		i++
	}
	if i-lx.pos < 2 {
		return false
	}
	if i == len(lx.src) {
		return true
	}
	r, _ := utf8.DecodeRune(lx.src[i:])
	return !isSymbolChar(r)
}

func (lx *lexer) lineComment() {
	start := lx.pos
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
		lx.pos++
	}
	lx.comments = append(lx.comments, &Comment{Range: Range{Pos(start), Pos(lx.pos)}, Text: string(lx.src[start:lx.pos])})
}

func (lx *lexer) blockComment() {
	start := lx.pos
	depth := 0
	for lx.pos < len(lx.src) {
		switch {
		case lx.hasPrefix("{-"):
			depth++
			lx.pos += 2
		case lx.hasPrefix("-}"):
			depth--
			lx.pos += 2
			if depth == 0 {
				lx.comments = append(lx.comments, &Comment{Range: Range{Pos(start), Pos(lx.pos)}, Text: string(lx.src[start:lx.pos])})
				lx.afterBlock(start)
				return
			}
		default:
			lx.pos++
		}
	}
	lx.report(Range{Pos(start), Pos(start + 2)}, "unterminated block comment: this {- has no matching -}")
	lx.comments = append(lx.comments, &Comment{Range: Range{Pos(start), Pos(lx.pos)}, Text: string(lx.src[start:lx.pos])})
}

// afterBlock keeps line-start bookkeeping right when a block comment spans lines.
func (lx *lexer) afterBlock(start int) {
	for i := start; i < lx.pos; i++ {
		if lx.src[i] == '\n' || lx.src[i] == '\r' {
			lx.lineHead = true
			lx.atCol1 = false
			return
		}
	}
	lx.atCol1 = false
}

func (lx *lexer) hasPrefix(s string) bool {
	return len(lx.src)-lx.pos >= len(s) && string(lx.src[lx.pos:lx.pos+len(s)]) == s
}

func (lx *lexer) number() {
	start := lx.pos
	digits := func() int {
		n := 0
		for lx.pos < len(lx.src) && (lx.src[lx.pos] >= '0' && lx.src[lx.pos] <= '9' || lx.src[lx.pos] == '_' && n > 0) {
			lx.pos++
			n++
		}
		return n
	}
	digits()
	kind := tInt
	if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == '.' && lx.src[lx.pos+1] >= '0' && lx.src[lx.pos+1] <= '9' {
		lx.pos++
		digits()
		kind = tFloat
	}
	if lx.pos < len(lx.src) && (lx.src[lx.pos] == 'e' || lx.src[lx.pos] == 'E') {
		save := lx.pos
		lx.pos++
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '+' || lx.src[lx.pos] == '-') {
			lx.pos++
		}
		if digits() > 0 {
			kind = tFloat
		} else {
			lx.pos = save
		}
	}
	lx.emit(kind, start)
}

func (lx *lexer) backtick() {
	start := lx.pos
	lx.pos++
	r, size := lx.peekRune(0)
	if r < 0 || !isIdentStart(r) {
		lx.report(Range{Pos(start), Pos(start + 1)}, "a backtick must enclose a function name, as in `div`")
		return
	}
	lx.pos += size
	for {
		r, size := lx.peekRune(0)
		if r < 0 || !isIdentRest(r) {
			break
		}
		lx.pos += size
	}
	if lx.pos >= len(lx.src) || lx.src[lx.pos] != '`' {
		lx.report(Range{Pos(start), Pos(lx.pos)}, "missing closing backtick")
		lx.emit(tBacktick, start)
		return
	}
	lx.pos++
	lx.emit(tBacktick, start)
}

func (lx *lexer) symbol() {
	start := lx.pos
	for {
		r, size := lx.peekRune(0)
		if r < 0 || !isSymbolChar(r) {
			break
		}
		// "--" inside a symbol run starts a comment only at the run's start (handled by run).
		lx.pos += size
	}
	switch string(lx.src[start:lx.pos]) {
	case "=":
		lx.emit(tEquals, start)
	case "::":
		lx.emit(tDColon, start)
	case "->", "→":
		lx.emit(tArrow, start)
	case `\`:
		lx.emit(tLambda, start)
	case "|":
		lx.emit(tBar, start)
	default:
		lx.emit(tOp, start)
	}
}

// stringLiteral skips a string literal (up to the closing quote or the end of the line) and
// reports it once: CNF workers compute on numbers and booleans.
func (lx *lexer) stringLiteral() {
	start := lx.pos
	lx.pos++
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if c == '\n' || c == '\r' {
			break
		}
		lx.pos++
		if c == '\\' && lx.pos < len(lx.src) {
			lx.pos++
		} else if c == '"' {
			break
		}
	}
	lx.report(Range{Pos(start), Pos(lx.pos)}, "strings are not part of CNF: workers compute on numbers and booleans")
	lx.emit(tBad, start)
}

// illegal skips a run of characters that cannot start a token and reports it once.
func (lx *lexer) illegal() {
	start := lx.pos
	r, size := utf8.DecodeRune(lx.src[lx.pos:])
	var msg string
	switch {
	case r == utf8.RuneError && size <= 1:
		msg = fmt.Sprintf("invalid UTF-8: byte 0x%02x is not part of any character", lx.src[lx.pos])
	case r == '\'':
		msg = "character literals are not part of CNF"
	case unicode.IsControl(r) || !unicode.IsPrint(r):
		msg = fmt.Sprintf("illegal character U+%04X in program text", r)
	default:
		msg = fmt.Sprintf("unexpected character %q", r)
	}
	lx.pos += size
	// Swallow the rest of the run so that a block of binary data gives one error.
	for lx.pos < len(lx.src) {
		r, size := utf8.DecodeRune(lx.src[lx.pos:])
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' || lx.startsToken(r, size) {
			break
		}
		lx.pos += size
	}
	lx.report(Range{Pos(start), Pos(lx.pos)}, msg)
	lx.atCol1 = false
}

func (lx *lexer) startsToken(r rune, size int) bool {
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	switch r {
	case '(', ')', ',', ';', '[', ']', '`', '{', '}', '"', 'λ', '—':
		return true
	}
	return isIdentStart(r) || unicode.IsDigit(r) || isSymbolChar(r)
}
