package syntax

import (
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestPositions(t *testing.T) {
	// "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 UTF-16 units; "\r\n" ends a line.
	src := []byte("ab\r\né😀x\rlast\n")
	f := NewFile("p.cnf", src)
	cases := []struct {
		off  Pos
		pos  Position
		lsp  LSPPosition
		name string
	}{
		{0, Position{1, 1}, LSPPosition{0, 0}, "start"},
		{2, Position{1, 3}, LSPPosition{0, 2}, "before CRLF"},
		{4, Position{2, 1}, LSPPosition{1, 0}, "after CRLF"},
		{6, Position{2, 2}, LSPPosition{1, 1}, "after é"},
		{10, Position{2, 3}, LSPPosition{1, 3}, "after emoji"},
		{12, Position{3, 1}, LSPPosition{2, 0}, "after lone CR"},
		{Pos(len(src)), Position{4, 1}, LSPPosition{3, 0}, "end"},
	}
	for _, c := range cases {
		if got := f.Position(c.off); got != c.pos {
			t.Errorf("%s: Position(%d) = %v, want %v", c.name, c.off, got, c.pos)
		}
		if got := f.LSPPosition(c.off); got != c.lsp {
			t.Errorf("%s: LSPPosition(%d) = %v, want %v", c.name, c.off, got, c.lsp)
		}
		if got := f.Offset(c.lsp); got != c.off {
			t.Errorf("%s: Offset(%v) = %d, want %d", c.name, c.lsp, got, c.off)
		}
	}
	// Out-of-range LSP positions clamp to the line's end or the file's end.
	if got := f.Offset(LSPPosition{0, 99}); got != 2 {
		t.Errorf("Offset past line end = %d, want 2", got)
	}
	if got := f.Offset(LSPPosition{99, 0}); got != Pos(len(src)) {
		t.Errorf("Offset past file end = %d, want %d", got, len(src))
	}
}

// Offsets at character boundaries survive a round trip through LSP positions, whatever the text.
func TestPositionRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := []rune{'a', ' ', '\n', '\r', '\t', 'é', '€', '😀', 'λ', '→'}
		runes := rapid.SliceOf(rapid.SampledFrom(alphabet)).Draw(t, "runes")
		src := []byte(string(runes))
		f := NewFile("p.cnf", src)
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			// The middle of "\r\n" is not a position an editor can name.
			if off > 0 && off < len(src) && src[off-1] == '\r' && src[off] == '\n' {
				continue
			}
			lp := f.LSPPosition(Pos(off))
			if back := f.Offset(lp); back != Pos(off) {
				t.Fatalf("offset %d -> %v -> %d in %q", off, lp, back, src)
			}
		}
	})
}
