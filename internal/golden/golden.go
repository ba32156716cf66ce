// Package golden compares test output with golden files and txtar sections, and rewrites them
// when tests run with -update. The tests of every stage use it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Update is set by -update: rewrite golden files with the current output.
var Update = flag.Bool("update", false, "rewrite golden files with the current output")

// File compares got with the file at path, or rewrites the file under -update.
func File(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file %s (run go test -update)", path)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs\n--- got ---\n%s--- want ---\n%s", path, got, want)
	}
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ForEachExample runs f as a subtest for every .cnf file in dir, named after the file.
func ForEachExample(t *testing.T, dir string, f func(t *testing.T, name string, src []byte)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.cnf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", dir, err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".cnf")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f(t, name, src)
		})
	}
}

// Section returns the data of the named file of an archive, or nil.
func Section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// Sections compares got (section name -> data) with the sections of the archive at path, or
// rewrites them under -update (adding sections that are missing). A missing archive is created
// under -update with the given comment.
func Sections(t testing.TB, path, comment string, got map[string][]byte) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		if !*Update {
			t.Fatalf("missing golden file %s (run go test -update)", path)
		}
		ar = &txtar.Archive{Comment: []byte(comment)}
	}
	if *Update {
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
		write(t, path, txtar.Format(ar))
		return
	}
	for name, data := range got {
		want := Section(ar, name)
		if want == nil {
			t.Errorf("%s: no %q section (run go test -update)", path, name)
			continue
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s: %s differs\n--- got ---\n%s--- want ---\n%s", path, name, data, want)
		}
	}
}
