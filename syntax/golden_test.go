package syntax

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
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
			checkFixesClean(t, prog)
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
		// A quick fix applies cleanly and removes its diagnostic: the fixed text has no
		// diagnostic with its message where it was. (A fix may uncover an identical error
		// elsewhere that the first one muted, so counting them would not do.)
		for _, fx := range d.Fixes {
			fixed, err := ApplyFix(prog.File.Src, fx)
			if err != nil {
				t.Errorf("diagnostic %q: %v", d.Message, err)
				continue
			}
			at := mapPos(fx, d.Range.Start)
			for _, e := range Analyze(prog.File.Name, fixed).Diagnostics {
				if e.Message == d.Message && e.Range.Start == at {
					t.Errorf("the fix %q of %q leaves it in place:\n%s", fx.Title, d.Message, fixed)
				}
			}

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

// mapPos returns where offset p of the original text lies after the fix's edits (the start of
// an edit's new text, for p inside it).
func mapPos(fx Fix, p Pos) Pos {
	edits := append([]Edit(nil), fx.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Range.Start < edits[j].Range.Start })
	delta := Pos(0)
	for _, e := range edits {
		switch {
		case e.Range.End <= p && e.Range.Start < p:
			delta += Pos(len(e.NewText)) - (e.Range.End - e.Range.Start)
		case e.Range.Start <= p && p < e.Range.End:
			return e.Range.Start + delta // edits do not overlap, so later ones lie after p
		}
	}
	return p + delta
}

// checkFixesClean checks, on the curated inputs, that no fix writes text that fails to parse:
// the fixed file has no syntax error where the fix's new text lies. (On arbitrary input a fix
// may uncover errors of the surrounding text there, so the fuzz targets do not check this.)
func checkFixesClean(t *testing.T, prog *Program) {
	t.Helper()
	for _, d := range prog.Diagnostics {
		for _, fx := range d.Fixes {
			fixed, err := ApplyFix(prog.File.Src, fx)
			if err != nil {
				continue // checkInvariants reports it
			}
			for _, e := range Analyze(prog.File.Name, fixed).Diagnostics {
				for _, r := range editedSpans(fx) {
					if e.Code == CodeSyntax && e.Range.Start >= r.Start && e.Range.Start <= r.End {
						t.Errorf("the fix %q of %q writes a syntax error (%s):\n%s", fx.Title, d.Message, e.Message, fixed)
					}
				}
			}
		}
	}
}

// editedSpans returns where the fix's new text lies in the fixed file.
func editedSpans(fx Fix) []Range {
	edits := append([]Edit(nil), fx.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Range.Start < edits[j].Range.Start })
	var out []Range
	delta := Pos(0)
	for _, e := range edits {
		start := e.Range.Start + delta
		out = append(out, Range{start, start + Pos(len(e.NewText))})
		delta += Pos(len(e.NewText)) - (e.Range.End - e.Range.Start)
	}
	return out
}
