package syntax

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/syntax/golden"
	"golang.org/x/tools/txtar"
)

// TestCheckGolden runs the front end on each testdata/check/*.txtar archive. An archive holds
// `input.cnf` and `diagnostics`, the expected output of `cnf check` for it; a `format` section,
// when present, is the expected output of Format. With -update the expected sections are
// rewritten from the current output.
func TestCheckGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/check/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden archives found: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			input := golden.Section(ar, "input.cnf")
			if input == nil {
				t.Fatalf("%s has no input.cnf section", path)
			}
			prog := Analyze("input.cnf", input)
			checkInvariants(t, prog)
			got := map[string][]byte{"diagnostics": renderDiagnostics(prog)}
			if golden.Section(ar, "format") != nil {
				got["format"] = Format(prog.File)
			}
			golden.Sections(t, path, "", got)
		})
	}
}

// TestExamplesGolden checks every program in examples/: its diagnostics and its canonical
// layout, against testdata/examples/NAME.golden.
func TestExamplesGolden(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		prog := Analyze(name+".cnf", src)
		checkInvariants(t, prog)
		golden.Sections(t, filepath.Join("testdata", "examples", name+".golden"),
			"Diagnostics and canonical layout of examples/"+name+".cnf.\n", map[string][]byte{
				"diagnostics": renderDiagnostics(prog),
				"format":      Format(prog.File),
			})
	})
}

func renderDiagnostics(prog *Program) []byte {
	var b bytes.Buffer
	WriteDiagnostics(&b, prog.File.Name, prog.File, prog.Diagnostics)
	return b.Bytes()
}

// tb is what checkInvariants needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
}

// checkInvariants holds for every analysed file, well-formed or not.
func checkInvariants(t tb, prog *Program) {
	t.Helper()
	n := Pos(len(prog.File.Src))
	for _, d := range prog.Diagnostics {
		if d.Range.Start < 0 || d.Range.End < d.Range.Start || d.Range.End > n {
			t.Errorf("diagnostic %q has range %v outside the file (size %d)", d.Message, d.Range, n)
		}
		if d.Message == "" || d.Code == "" {
			t.Errorf("diagnostic without message or code: %+v", d)
		}
	}
	for _, fn := range prog.Funcs {
		if fn.Valid && len(fn.Order) != len(fn.Def.Bindings) {
			t.Errorf("%s: order has %d bindings, definition %d", fn.Def.Name.Name, len(fn.Order), len(fn.Def.Bindings))
		}
		if fn.Valid {
			seen := map[*Binding]bool{}
			for _, b := range fn.Order {
				for _, in := range append(append([]*Symbol{}, fn.Inputs[b].Arrays...), fn.Inputs[b].Scalars...) {
					if in.Binding != nil && !seen[in.Binding] {
						t.Errorf("%s: %s is ordered before its input %s", fn.Def.Name.Name, b.Name(), in.Name)
					}
				}
				seen[b] = true
			}
		}
	}
}
