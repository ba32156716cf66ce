package syntax

import (
	"strings"
	"testing"
)

// What belongs where, while a program is being typed: | is the cursor.
func TestExpectedAt(t *testing.T) {
	head := "f xs n =\n  let s = fold (+) 0 xs\n"
	for _, c := range []struct {
		text string
		slot Slot
		comb string
		arg  int
	}{
		{"      ys = |", SlotCombinator, "", 0},
		{"      ys = ma|", SlotCombinator, "", 0},
		{"      ys = map |", SlotWorker, "map", 0},
		{"      ys = map (+ |", SlotWorker, "", 0},
		{"      ys = map (+ 1) |", SlotArray, "map", 1},
		{"      ys = map (+ 1) x|", SlotArray, "map", 1},
		{"      ys = map (+ 1)\n                 x|", SlotArray, "map", 1},
		{"      ys = mapp (\\x -> x * x) |", SlotArray, "map", 1},
		{"      ys = map2 (+) xs |", SlotArray, "mapN", 2},
		{"      ys = fold (+) |", SlotWorker, "fold", 1},
		{"      ys = fold (+) 0 |", SlotArray, "fold", 2},
		{"      ys = gather |", SlotArray, "gather", 0},
		{"      ys = generate |", SlotWorker, "generate", 0},
		{"      ys = external |", SlotHost, "external", 0},
		{"      ys = external h |", SlotName, "external", 1},
		{"      y|", SlotNone, "", 0},
		{"      ys|", SlotNone, "", 0},
		{"  in  (s, |", SlotName, "", 0},
		{"  in  |", SlotName, "", 0},
		{"      ys = filter (\\x -> x > |", SlotWorker, "", 0},
	} {
		text := head + c.text
		off := strings.Index(text, "|")
		src := []byte(strings.Replace(text, "|", "", 1))
		e := ExpectedAt(src, Pos(off))
		comb := ""
		if e.Combinator != nil {
			comb = e.Combinator.Name
		}
		if e.Slot != c.slot || comb != c.comb || comb != "" && e.Arg != c.arg {
			t.Errorf("%q: got slot %d, %q, argument %d; want slot %d, %q, argument %d", c.text, e.Slot, comb, e.Arg, c.slot, c.comb, c.arg)
		}
	}
}
