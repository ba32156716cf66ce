package syntax

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
	"pgregory.net/rapid"
)

func genProgram(t *rapid.T) string {
	n := rapid.IntRange(1, 30).Draw(t, "bindings")
	return rapidgen.Program(t, gen.Options{Bindings: n})
}

// Every generated program is clean: no errors and no warnings.
func TestGeneratedProgramsAreClean(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genProgram(t)
		prog := Analyze("gen.cnf", []byte(src))
		if len(prog.Diagnostics) > 0 {
			t.Fatalf("diagnostics for\n%s\n%s", src, renderDiagnostics(prog))
		}
		if len(prog.Funcs) != 1 || !prog.Funcs[0].Valid {
			t.Fatalf("expected one valid definition in\n%s", src)
		}
	})
}

// Formatting is a fixed point after one step and keeps the program's meaning: the same
// bindings with the same combinators, inputs and dependency order.
func TestFormatRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genProgram(t)
		f, diags := Parse("gen.cnf", []byte(src))
		if HasErrors(diags) {
			t.Fatalf("generated program does not parse:\n%s", src)
		}
		once := Format(f)
		f2, diags2 := Parse("gen.cnf", once)
		if HasErrors(diags2) {
			t.Fatalf("formatted program does not parse:\n%s", once)
		}
		if twice := Format(f2); !bytes.Equal(once, twice) {
			t.Fatalf("not idempotent:\n%s\n---\n%s", once, twice)
		}
		if a, b := summary(Check(f)), summary(Check(f2)); a != b {
			t.Fatalf("formatting changed the program:\n%s\n---\n%s", a, b)
		}
	})
}

// Reordering the bindings of a let changes nothing but source order: the same diagnostics
// (none) and, for each binding, the same inputs.
func TestBindingOrderDoesNotMatter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genProgram(t)
		lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
		// lines: signature, header, "  let b1 = ...", "      b2 = ...", ..., "  in  results"
		binds := lines[2 : len(lines)-1]
		for i := range binds {
			binds[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(binds[i]), "let "))
		}
		perm := rapid.Permutation(binds).Draw(t, "order")
		var b strings.Builder
		b.WriteString(lines[0] + "\n" + lines[1] + "\n")
		for i, l := range perm {
			if i == 0 {
				b.WriteString("  let " + l + "\n")
			} else {
				b.WriteString("      " + l + "\n")
			}
		}
		b.WriteString(lines[len(lines)-1] + "\n")
		a := Analyze("a.cnf", []byte(src))
		c := Analyze("b.cnf", []byte(b.String()))
		if len(c.Diagnostics) > 0 {
			t.Fatalf("reordered program has diagnostics:\n%s\n%s", b.String(), renderDiagnostics(c))
		}
		if summary(a) != summary(c) {
			t.Fatalf("reordering changed the program:\n%s\n---\n%s", summary(a), summary(c))
		}
		checkInvariants(t, c)
	})
}

// summary describes a checked program independently of layout and binding order.
func summary(p *Program) string {
	var lines []string
	for _, fn := range p.Funcs {
		for _, b := range fn.Def.Bindings {
			in := fn.Inputs[b]
			var names []string
			for _, s := range in.Arrays {
				names = append(names, "a:"+s.Name)
			}
			for _, s := range in.Scalars {
				names = append(names, "s:"+s.Name)
			}
			kw := "?"
			if b.Rhs != nil {
				kw = FormatCombinator(b.Rhs)
			}
			lines = append(lines, fmt.Sprintf("%s = %s <- %v", binders(b), kw, names))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// A fixed-seed smoke test of large programs, the size clustering benchmarks use.
func TestGeneratedLargePrograms(t *testing.T) {
	for _, n := range []int{50, 200, 1000} {
		src := gen.Program(rand.New(rand.NewPCG(uint64(n), 7)), gen.Options{Bindings: n})
		prog := Analyze("big.cnf", []byte(src))
		if len(prog.Diagnostics) > 0 {
			t.Fatalf("%d bindings: %s", n, renderDiagnostics(prog))
		}
		if got := len(prog.Funcs[0].Order); got != n {
			t.Fatalf("%d bindings: order has %d", n, got)
		}
	}
}
