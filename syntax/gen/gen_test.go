package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/cnf-tools/cnf/syntax"
)

// The generator produces every combinator of the table (so every property test covers all of
// them), and its programs are clean.
func TestEveryCombinatorGenerated(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(40) {
		src := Program(rand.New(rand.NewPCG(seed, 1)), Options{Bindings: 60})
		prog := syntax.Analyze("g.cnf", []byte(src))
		if syntax.HasErrors(prog.Diagnostics) {
			t.Fatalf("a generated program has errors: %v\n%s", prog.Diagnostics, src)
		}
		for _, fn := range prog.Funcs {
			for _, b := range fn.Def.Bindings {
				info, ok := syntax.LookupCombinator(syntax.CallOf(b.Rhs).Keyword.Name)
				if ok {
					seen[info.Name] = true
				}
			}
		}
	}
	for _, c := range syntax.CombinatorTable {
		if !seen[c.Name] {
			t.Errorf("the generator never writes %s", c.Name)
		}
	}
}

// Every shape of the second generator makes clean programs of the size asked for.
func TestShapedProgramsAreClean(t *testing.T) {
	for _, shape := range Shapes {
		for seed := range uint64(30) {
			n := 5 + int(seed)*7
			src := Program(rand.New(rand.NewPCG(seed, 2)), Options{Bindings: n, Shape: shape})
			prog := syntax.Analyze("g.cnf", []byte(src))
			if syntax.HasErrors(prog.Diagnostics) || len(prog.Diagnostics) > 0 {
				t.Fatalf("%s, seed %d: %v\n%s", shape, seed, prog.Diagnostics, src)
			}
			if got := len(prog.Funcs[0].Def.Bindings); got != n {
				t.Fatalf("%s, seed %d: %d bindings, want %d", shape, seed, got, n)
			}
		}
	}
}
