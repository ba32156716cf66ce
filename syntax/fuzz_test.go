package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
	"golang.org/x/tools/txtar"
)

// FuzzAnalyze feeds arbitrary bytes to the front end, seeded with the examples and the inputs
// of the golden tests. It checks that analysis terminates without panicking, that diagnostics
// lie inside the file, and that formatting a file without syntax errors gives a file that parses
// without errors and formats to the same text.
//
//	go test ./syntax -run '^$' -fuzz FuzzAnalyze -fuzztime 3m
func FuzzAnalyze(f *testing.F) {
	examples, _ := filepath.Glob("../examples/*.cnf")
	for _, path := range examples {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	archives, _ := filepath.Glob("testdata/check/*.txtar")
	for _, path := range archives {
		if ar, err := txtar.ParseFile(path); err == nil {
			if src := golden.Section(ar, "input.cnf"); src != nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		prog := Analyze("fuzz.cnf", src)
		checkInvariants(t, prog)
		// Completion reads any text at any offset (here a few) without failing.
		for _, off := range []int{0, len(src) / 3, len(src) / 2, len(src)} {
			_ = ExpectedAt(src, Pos(off))
		}
		file, diags := Parse("fuzz.cnf", src)
		if HasErrors(diags) {
			return
		}
		out := Format(file)
		again, diags2 := Parse("fuzz.cnf", out)
		if HasErrors(diags2) {
			t.Fatalf("formatted output does not parse:\n%s\n--- diagnostics:\n%s", out, render(again, diags2))
		}
		if out2 := Format(again); !bytes.Equal(out, out2) {
			t.Fatalf("formatting is not idempotent:\n--- first:\n%s\n--- second:\n%s", out, out2)
		}
	})
}

func render(f *File, ds []Diagnostic) string {
	var b bytes.Buffer
	WriteDiagnostics(&b, f.Name, f, ds)
	return b.String()
}
