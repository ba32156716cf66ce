package syntax

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

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
			input := section(ar, "input.cnf")
			if input == nil {
				t.Fatalf("%s has no input.cnf section", path)
			}
			prog := Analyze("input.cnf", input)
			checkInvariants(t, prog)
			got := map[string][]byte{"diagnostics": renderDiagnostics(prog)}
			if section(ar, "format") != nil {
				got["format"] = Format(prog.File)
			}
			compareSections(t, path, ar, got)
		})
	}
}

// TestExamplesGolden checks every program in examples/: its diagnostics and its canonical
// layout, against testdata/examples/NAME.golden.
func TestExamplesGolden(t *testing.T) {
	files, err := filepath.Glob("../examples/*.cnf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".cnf")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			prog := Analyze(filepath.Base(path), src)
			checkInvariants(t, prog)
			golden := filepath.Join("testdata", "examples", name+".golden")
			ar := &txtar.Archive{Comment: []byte("Diagnostics and canonical layout of examples/" + name + ".cnf.\n")}
			if old, err := txtar.ParseFile(golden); err == nil {
				ar = old
			} else if !*update {
				t.Fatalf("missing golden file %s (run go test -update)", golden)
			}
			compareSections(t, golden, ar, map[string][]byte{
				"diagnostics": renderDiagnostics(prog),
				"format":      Format(prog.File),
			})
		})
	}
}

func renderDiagnostics(prog *Program) []byte {
	var b bytes.Buffer
	WriteDiagnostics(&b, prog.File.Name, prog.File, prog.Diagnostics)
	return b.Bytes()
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// compareSections compares got against the archive's sections, or rewrites them with -update.
func compareSections(t *testing.T, path string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	if *update {
		for name, data := range got {
			found := false
			for i := range ar.Files {
				if ar.Files[i].Name == name {
					ar.Files[i].Data = data
					found = true
				}
			}
			if !found {
				ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, data := range got {
		want := section(ar, name)
		if want == nil {
			t.Errorf("%s: no %q section (run go test -update)", path, name)
			continue
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s: %s differs\n--- got ---\n%s--- want ---\n%s", path, name, data, want)
		}
	}
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
