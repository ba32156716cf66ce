package syntax

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Pos is a byte offset into a source file, counting from 0.
type Pos int

// Range is the half-open byte range [Start, End) of a node or diagnostic.
type Range struct {
	Start, End Pos
}

// Span returns the range itself; nodes embed Range and so implement Node.
func (r Range) Span() Range { return r }

// Contains reports whether p lies in [Start, End].
func (r Range) Contains(p Pos) bool { return r.Start <= p && p <= r.End }

// Position is a user-facing source position: 1-based line and 1-based column counted in
// characters (Unicode code points), as compilers print them.
type Position struct {
	Line, Column int
}

// LSPPosition is a Language Server Protocol position: 0-based line and 0-based character
// counted in UTF-16 code units.
type LSPPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// lineTable records the byte offset at which each line starts. A line ends at "\n", "\r\n"
// or a lone "\r".
type lineTable []Pos

func newLineTable(src []byte) lineTable {
	lines := lineTable{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, Pos(i+1))
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			lines = append(lines, Pos(i+1))
		}
	}
	return lines
}

// line returns the 0-based line that holds offset p.
func (t lineTable) line(p Pos) int {
	lo, hi := 0, len(t)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if t[mid] <= p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// clamp limits p to [0, len(src)] and moves it back to the start of a UTF-8 sequence.
func clamp(src []byte, p Pos) Pos {
	if p < 0 {
		return 0
	}
	if int(p) > len(src) {
		return Pos(len(src))
	}
	for p > 0 && int(p) < len(src) && !utf8.RuneStart(src[p]) {
		p--
	}
	return p
}

// Position converts a byte offset to a 1-based line and character column.
func (f *File) Position(p Pos) Position {
	p = clamp(f.Src, p)
	l := f.lines.line(p)
	start := f.lines[l]
	if l == 0 {
		start = min(Pos(bomLen(f.Src)), max(p, 0)) // a byte order mark takes no column
	}
	col := utf8.RuneCount(f.Src[start:p]) + 1
	return Position{Line: l + 1, Column: col}
}

// LSPPosition converts a byte offset to a 0-based line and UTF-16 character offset.
func (f *File) LSPPosition(p Pos) LSPPosition {
	p = clamp(f.Src, p)
	l := f.lines.line(p)
	n := 0
	for b := f.Src[f.lines[l]:p]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			n++ // an invalid byte is shown by editors as one replacement character
		} else {
			n += utf16.RuneLen(r)
		}
		b = b[size:]
	}
	return LSPPosition{Line: l, Character: n}
}

// Offset converts an LSP position back to a byte offset. Positions past the end of a line
// map to the line's end; lines past the end of the file map to the end of the file.
func (f *File) Offset(pos LSPPosition) Pos {
	if pos.Line < 0 {
		return 0
	}
	if pos.Line >= len(f.lines) {
		return Pos(len(f.Src))
	}
	start := f.lines[pos.Line]
	end := Pos(len(f.Src))
	if pos.Line+1 < len(f.lines) {
		end = f.lines[pos.Line+1]
	}
	p, units := start, 0
	for p < end && units < pos.Character {
		c := f.Src[p]
		if c == '\n' || c == '\r' {
			break
		}
		r, size := utf8.DecodeRune(f.Src[p:end])
		if r == utf8.RuneError && size <= 1 {
			units++
		} else {
			units += utf16.RuneLen(r)
		}
		p += Pos(size)
	}
	return p
}

// LineCount returns the number of lines in the file.
func (f *File) LineCount() int { return len(f.lines) }
