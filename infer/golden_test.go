package infer

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/syntax"
	"golang.org/x/tools/txtar"
)

// report is what the golden files hold: every diagnostic, then each definition's analysis in
// both notations' ASCII form (the unicode form is checked by TestSchemeNotation).
func report(prog *Program) []byte {
	var b bytes.Buffer
	syntax.WriteDiagnostics(&b, prog.Syntax.File.Name, prog.Syntax.File, prog.Diagnostics)
	for i, r := range prog.Funcs {
		if r == nil {
			b.WriteString(prog.Syntax.Funcs[i].Def.Name.Name + ": not analysed (it has errors)\n")
			continue
		}
		r.WriteText(&b, false)
	}
	return b.Bytes()
}

// TestInferGolden: testdata/infer/*.txtar hold a program (input.cnf) and the expected report
// (infer). go test -update rewrites the reports; review the diff.
func TestInferGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/infer/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden archives")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			input := golden.Section(ar, "input.cnf")
			prog := Analyze("input.cnf", input)
			checkResults(t, prog)
			golden.Sections(t, path, "", map[string][]byte{"infer": report(prog)})
		})
	}
}

// TestExamplesGolden: the report of every program in examples/.
func TestExamplesGolden(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		prog := Analyze(name+".cnf", src)
		checkResults(t, prog)
		golden.Sections(t, filepath.Join("testdata", "examples", name+".golden"),
			"Size inference report of examples/"+name+".cnf.\n", map[string][]byte{"infer": report(prog)})
	})
}

type tb interface {
	Helper()
	Errorf(format string, args ...any)
}

// checkResults holds for every analysis: solved constraints satisfy every generated constraint,
// transducers agree with the structural reading of Fig 1.7 and are sole, and concestors are
// consistent.
func checkResults(t tb, prog *Program) {
	t.Helper()
	for _, r := range prog.Funcs {
		if r == nil {
			continue
		}
		name := r.Func.Def.Name.Name
		if r.OK() == syntax.HasErrors(r.Diagnostics) {
			t.Errorf("%s: OK() = %v with %d diagnostics", name, r.OK(), len(r.Diagnostics))
		}
		if !r.OK() {
			continue
		}
		for _, c := range r.Constraints {
			if left, right := r.Size(c.Array), r.s.resolve(c.Size); !Equal(left, right) {
				t.Errorf("%s: constraint k_%s = %s not satisfied: k_%s = %s", name, c.Array,
					r.FormatSize(right, false), c.Array, r.FormatSize(left, false))
			}
		}
		for _, p := range r.Scheme.Params {
			if p.Size != nil && len(rigidVars(p.Size)) > 0 {
				t.Errorf("%s: parameter %s has a rigid size in an accepted scheme", name, p.Name)
			}
		}
		for _, b := range r.Func.Def.Bindings {
			st := r.structuralTrans(b)
			if len(st) > 1 {
				t.Errorf("%s: %s has %d parent transducers: the sole-transducer property fails", name, b.Name(), len(st))
			}
			var want *syntax.Binding
			if len(st) == 1 {
				want = st[0]
			}
			if got := r.Trans(b); got != want {
				t.Errorf("%s: trans(%s) = %v by sizes, %v by structure", name, b.Name(), bname(got), bname(want))
			}
		}
		for _, a := range r.Func.Def.Bindings {
			for _, b := range r.Func.Def.Bindings {
				ca, cb, d, ok := r.Concestors(a, b)
				_, _, d2, ok2 := r.Concestors(b, a)
				if ok != ok2 || d != d2 {
					t.Errorf("%s: concestors(%s, %s) and concestors(%s, %s) disagree", name, a.Name(), b.Name(), b.Name(), a.Name())
				}
				if !ok {
					continue
				}
				if !r.SameIter(ca, cb) {
					t.Errorf("%s: concestors(%s, %s) = (%s, %s) with different iteration sizes", name, a.Name(), b.Name(), ca.Name(), cb.Name())
				}
				if !r.ancestor(ca, a) || !r.ancestor(cb, b) {
					t.Errorf("%s: concestors(%s, %s) = (%s, %s) are not ancestor transducers", name, a.Name(), b.Name(), ca.Name(), cb.Name())
				}
			}
		}
	}
}

// ancestor reports whether anc is b or one of b's ancestor transducers.
func (r *Result) ancestor(anc, b *syntax.Binding) bool {
	for x := b; x != nil; x = r.Trans(x) {
		if x == anc {
			return true
		}
	}
	return false
}

func bname(b *syntax.Binding) string {
	if b == nil {
		return "none"
	}
	return b.Name()
}
