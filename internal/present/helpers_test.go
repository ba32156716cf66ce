package present

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// sizesOf is the size analysis of src's first definition, which must be accepted.
func sizesOf(t testing.TB, src string) *infer.Result {
	t.Helper()
	prog := infer.Analyze("test.cnf", []byte(src))
	r := prog.Funcs[0]
	if r == nil || !r.OK() {
		t.Fatalf("rejected:\n%s\n%v", src, prog.Diagnostics)
	}
	return r
}

// genSizes is a random program of at most maxBindings bindings, analysed.
func genSizes(t *rapid.T, maxBindings int) *infer.Result {
	n := rapid.IntRange(1, maxBindings).Draw(t, "bindings")
	src := rapidgen.Program(t, gen.Options{Bindings: n})
	prog := infer.Analyze("gen.cnf", []byte(src))
	r := prog.Funcs[0]
	if r == nil || !r.OK() {
		t.Fatalf("generated program rejected:\n%s\n%v", src, prog.Diagnostics)
	}
	return r
}
