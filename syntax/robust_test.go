package syntax

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad input gets diagnostics, never a panic or a hang. These inputs are the ones the front
// end must survive; each also goes through the invariants of every analysis.
func TestRobustInputs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 64<<10)
	for i := range garbage {
		garbage[i] = byte(rnd.UintN(256))
	}
	normalize2, err := os.ReadFile("../examples/normalize2.cnf")
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer // about 10 MB of valid definitions
	for i := 0; big.Len() < 10<<20; i++ {
		big.Write(bytes.Replace(normalize2, []byte("normalize2"), []byte("normalize2_"+itoa(i)), -1))
		big.WriteString("\n")
	}
	cases := []struct {
		name   string
		src    []byte
		errors bool // whether the input must have errors
	}{
		{"empty", nil, false},
		{"only whitespace", []byte(" \n\t\r\n  "), false},
		{"binary garbage", garbage, true},
		{"NUL bytes", bytes.Repeat([]byte{0}, 1000), true},
		{"invalid UTF-8", []byte("f xs =\n  let ys = map (+ 1) xs \xc3\x28 \xa0\xa1\n  in ys\n"), true},
		{"CRLF", bytes.ReplaceAll(normalize2, []byte("\n"), []byte("\r\n")), false},
		{"lone CR", bytes.ReplaceAll(normalize2, []byte("\n"), []byte("\r")), false},
		{"tabs", bytes.ReplaceAll(normalize2, []byte("      "), []byte("\t")), false},
		{"100000 nested parentheses", []byte("f xs =\n  let ys = map " + strings.Repeat("(", 100000) + "x" + strings.Repeat(")", 100000) + " xs\n  in ys\n"), true},
		{"100000 unclosed parentheses", []byte("f xs =\n  let ys = map " + strings.Repeat("(", 100000) + "\n  in ys\n"), true},
		{"100000 negations", []byte("f xs =\n  let ys = map (\\x -> " + strings.Repeat("- ", 100000) + "x) xs\n  in ys\n"), true},
		{"long operator chain", []byte("f xs =\n  let ys = map (\\x -> x" + strings.Repeat(" . x", 100000) + ") xs\n  in ys\n"), true},
		{"deep types", []byte("f :: " + strings.Repeat("Array (", 100000) + "Int" + strings.Repeat(")", 100000) + "\nf xs =\n  let ys = map (+ 1) xs\n  in ys\n"), true},
		{"deep lambda patterns", []byte("f xs =\n  let ys = map (\\" + strings.Repeat("(", 100000) + "x" + strings.Repeat(")", 100000) + " -> x) xs\n  in ys\n"), true},
		{"a sum of a million terms", []byte("f xs =\n  let ys = map (\\x -> x" + strings.Repeat(" + x", 1000000) + ") xs\n  in ys\n"), true},
		{"a sum just deeper than the limit", []byte("f xs =\n  let ys = map (\\x -> x" + strings.Repeat(" + x", MaxNesting) + ") xs\n  in ys\n"), true},
		{"a sum just within the limit", []byte("f xs =\n  let ys = map (\\x -> x" + strings.Repeat(" + x", MaxNesting-3) + ") xs\n  in ys\n"), false},
		{"a million nested lambdas", []byte("f xs =\n  let ys = map (" + strings.Repeat("\\a -> ", 1000000) + "1) xs\n  in ys\n"), true},
		{"a million nested ifs", []byte("f xs =\n  let ys = map (\\x -> " + strings.Repeat("if x > 0 then 1 else ", 1000000) + "0) xs\n  in ys\n"), true},
		{"10 MB file", big.Bytes(), false},
		{"only open braces", bytes.Repeat([]byte("{"), 100000), true},
		{"unterminated comment at EOF", []byte("{-"), true},
		{"dash at EOF", []byte("f xs = let ys = map (+ 1) xs in ys -"), true},
		{"backtick at EOF", []byte("f xs = let ys = map (`"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog := Analyze("input.cnf", c.src)
			checkInvariants(t, prog)
			// Every later pass recurses over expressions: what the parser accepts must be
			// shallow enough for all of them (the printer stands in for them here).
			_ = Format(prog.File)
			if got := HasErrors(prog.Diagnostics); got != c.errors {
				t.Errorf("errors = %v, want %v; diagnostics:\n%s", got, c.errors, renderDiagnostics(prog))
			}
			if len(prog.Diagnostics) > MaxDiagnostics+1 {
				t.Errorf("%d diagnostics, more than the cap %d", len(prog.Diagnostics), MaxDiagnostics)
			}
		})
	}
}

// TestRobustLongDefinitions: 20000 lines of one definition, each with the same mistake. Each
// mistake's own work (a suggestion, a fix) must not scan the whole definition again: the
// suggestions took 207 s here and the unused bindings' fixes 3.8 s. (checkInvariants is not
// run: its re-analysis after each of the 200 quick fixes would take minutes; the fixes are
// checked on the short inputs above.)
func TestRobustLongDefinitions(t *testing.T) {
	lines := func(line func(i int) string) []byte {
		var b strings.Builder
		b.WriteString("f xs =\n  let a0 = map (+ 1) xs\n")
		for i := 1; i < 20000; i++ {
			b.WriteString("      " + line(i) + "\n")
		}
		b.WriteString("  in  a19999\n")
		return []byte(b.String())
	}
	cases := []struct {
		name   string
		src    []byte
		errors bool
	}{
		{"20000 undefined names", lines(func(i int) string { return "a" + itoa(i) + " = map (+ 1) b" + itoa(i-1) }), true},
		{"20000 names where combinators go", lines(func(i int) string { return "a" + itoa(i) + " = a" + itoa(i-1) }), true},
		{"20000 unused bindings", lines(func(i int) string { return "a" + itoa(i) + " = map (+ 1) a0" }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog := Analyze("input.cnf", c.src)
			if got := HasErrors(prog.Diagnostics); got != c.errors {
				t.Errorf("errors = %v, want %v", got, c.errors)
			}
			if len(prog.Diagnostics) > MaxDiagnostics+1 {
				t.Errorf("%d diagnostics, more than the cap %d", len(prog.Diagnostics), MaxDiagnostics)
			}
		})
	}
}

// TestRecoveryKeepsOtherDefinitions: a broken definition in the middle of a file does not
// change what is reported for the definitions around it.
func TestRecoveryKeepsOtherDefinitions(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.cnf")
	broken := []string{
		"broken xs =\n  let ys = map (+ 1\n  in ys\n",
		"broken xs = let\n",
		"broken\n",
		")))\n",
		"broken xs =\n  let ys = map (+ 1) xs +\n  in\n",
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		alone := Analyze("a.cnf", src)
		for _, b := range broken {
			combined := append(append([]byte(b), '\n'), src...)
			prog := Analyze("a.cnf", combined)
			if len(prog.Funcs) < len(alone.Funcs) {
				t.Errorf("%s after %q: %d definitions, want at least %d", path, b, len(prog.Funcs), len(alone.Funcs))
				continue
			}
			offset := Pos(len(b) + 1)
			var after []string
			for _, d := range prog.Diagnostics {
				if d.Range.Start >= offset {
					after = append(after, d.Message)
				}
			}
			var want []string
			for _, d := range alone.Diagnostics {
				want = append(want, d.Message)
			}
			if strings.Join(after, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s after %q:\ngot  %q\nwant %q", path, b, after, want)
			}
		}
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
