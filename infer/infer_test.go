package infer

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
	"pgregory.net/rapid"
)

func analyze(t *testing.T, src string) *Result {
	t.Helper()
	prog := Analyze("t.cnf", []byte(src))
	if len(prog.Funcs) == 0 || prog.Funcs[0] == nil {
		t.Fatalf("not analysed:\n%s", src)
	}
	return prog.Funcs[0]
}

func binding(t *testing.T, r *Result, name string) *syntax.Binding {
	t.Helper()
	b := r.Func.Binding(name)
	if b == nil {
		t.Fatalf("no binding %s", name)
	}
	return b
}

// The thesis's own examples (section 1.3.6): in normalize2 the parent transducer of sum2 is gts,
// and concestors(sum1, sum2) = (sum1, gts).
func TestNormalize2Transducers(t *testing.T) {
	src, err := os.ReadFile("../examples/normalize2.cnf")
	if err != nil {
		t.Fatal(err)
	}
	r := analyze(t, string(src))
	sum1, gts, sum2 := binding(t, r, "sum1"), binding(t, r, "gts"), binding(t, r, "sum2")
	if got := r.Trans(sum2); got != gts {
		t.Errorf("trans(sum2) = %s, want gts", bname(got))
	}
	for _, b := range []string{"sum1", "gts", "ys1", "ys2"} {
		if got := r.Trans(binding(t, r, b)); got != nil {
			t.Errorf("trans(%s) = %s, want none", b, got.Name())
		}
	}
	ca, cb, d, ok := r.Concestors(sum1, sum2)
	if !ok || ca != sum1 || cb != gts || d != 1 {
		t.Errorf("concestors(sum1, sum2) = (%s, %s, %d, %v), want (sum1, gts, 1, true)", bname(ca), bname(cb), d, ok)
	}
	if got := r.Scheme.String(); got != "normalize2 :_s ∀k1. (xs : k1) → (ys1 : k1, ys2 : k1)" {
		t.Errorf("scheme = %s", got)
	}
}

// Fig 1.8 chooses the closest pair. Here the pair reached through b's transducer (b, f2) is at
// distance 1, the one reached through a's first, (f1, f1), at distance 3: an implementation that
// took the first pair found would answer (f1, f1).
func TestConcestorsClosest(t *testing.T) {
	r := analyze(t, `f xs =
  let f1 = filter (> 0) xs
      f2 = filter (> 1) f1
      a  = fold (+) 0 f2
      b  = fold (+) 0 f1
  in  (a, b)`)
	a, b, f2 := binding(t, r, "a"), binding(t, r, "b"), binding(t, r, "f2")
	ca, cb, d, ok := r.Concestors(b, a)
	if !ok || ca != b || cb != f2 || d != 1 {
		t.Errorf("concestors(b, a) = (%s, %s, %d, %v), want (b, f2, 1, true)", bname(ca), bname(cb), d, ok)
	}
	ca, cb, d, ok = r.Concestors(a, b)
	if !ok || ca != f2 || cb != b || d != 1 {
		t.Errorf("concestors(a, b) = (%s, %s, %d, %v), want (f2, b, 1, true)", bname(ca), bname(cb), d, ok)
	}
}

// Bindings whose sizes have no common ancestor have no concestors: generate and a parameter,
// and externals with anything.
func TestNoConcestors(t *testing.T) {
	r := analyze(t, `f xs n =
  let g = generate n (\i -> i)
      s = fold (+) 0 g
      t = fold (+) 0 xs
      e = external host xs
  in  (s, t, e)`)
	s, tt, e := binding(t, r, "s"), binding(t, r, "t"), binding(t, r, "e")
	if _, _, _, ok := r.Concestors(s, tt); ok {
		t.Error("concestors(s, t) exist, want none")
	}
	if _, _, _, ok := r.Concestors(e, e); ok {
		t.Error("an external has concestors with itself: its iteration size is unknown")
	}
}

func TestSchemeNotation(t *testing.T) {
	r := analyze(t, `filterLeft xs =
  let ys1 = map (+ 1) xs
      ys2 = filter even xs
  in  (ys1, ys2)`)
	if got, want := r.Scheme.Format(true), "∀k1. ∃k2. (xs : k1) → (ys1 : k1, ys2 : k2)"; got != want {
		t.Errorf("unicode: %s, want %s", got, want)
	}
	if got, want := r.Scheme.Format(false), "forall k1. exists k2. (xs : k1) -> (ys1 : k1, ys2 : k2)"; got != want {
		t.Errorf("ascii: %s, want %s", got, want)
	}
}

func genProgram(t *rapid.T) string {
	return rapidgen.Program(t, gen.Options{Bindings: rapid.IntRange(1, 40).Draw(t, "bindings")})
}

// Every generated program is well-sized by construction, so size inference must accept it, and
// every analysis invariant (constraints satisfied, sole transducers agreeing with Fig 1.7's
// structure, consistent concestors) must hold.
func TestGeneratedProgramsInfer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genProgram(t)
		prog := Analyze("gen.cnf", []byte(src))
		if len(prog.Diagnostics) > 0 || prog.Funcs[0] == nil || !prog.Funcs[0].OK() {
			t.Fatalf("rejected:\n%s\n%v", src, prog.Diagnostics)
		}
		checkResults(t, prog)
	})
}

var identRE = regexp.MustCompile(`\b(xs|n|b)(\d+)\b`)

// The scheme does not depend on the names of variables nor on the order of bindings.
func TestSchemeInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genProgram(t)
		want := Analyze("a.cnf", []byte(src)).Funcs[0].Scheme.Format(false)

		rename := func(s string) string { return identRE.ReplaceAllString(s, "${1}_renamed_$2") }
		renamed := Analyze("b.cnf", []byte(rename(src))).Funcs[0]
		if renamed.Scheme == nil || renamed.Scheme.Format(false) != rename(want) {
			t.Fatalf("renaming changed the scheme:\n%s\nvs\n%v", rename(want), renamed.Scheme)
		}

		lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
		binds := lines[2 : len(lines)-1]
		for i := range binds {
			binds[i] = strings.TrimPrefix(strings.TrimSpace(binds[i]), "let ")
		}
		perm := rapid.Permutation(binds).Draw(t, "order")
		reordered := lines[0] + "\n" + lines[1] + "\n  let " + strings.Join(perm, "\n      ") + "\n" + lines[len(lines)-1] + "\n"
		r := Analyze("c.cnf", []byte(reordered)).Funcs[0]
		if r == nil || r.Scheme == nil || r.Scheme.Format(false) != want {
			t.Fatalf("reordering changed the scheme:\n%s\n%s", want, reordered)
		}
	})
}

// TestResultConcurrentReads reads one finished Result from several goroutines, as the language
// server's requests do: sizes, their printing, iteration sizes, concestors and lengths. Under
// the race detector this fails if reading writes (resolving once compressed paths and filled
// memo tables on every call).
func TestResultConcurrentReads(t *testing.T) {
	src, err := os.ReadFile("../examples/everything.cnf")
	if err != nil {
		t.Fatal(err)
	}
	prog := Analyze("everything.cnf", src)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range prog.Funcs {
				if r == nil {
					continue
				}
				for _, a := range r.Func.Def.Bindings {
					for _, id := range a.Names {
						_ = r.FormatSize(r.Size(id.Name), true)
					}
					_, _ = r.LengthOf(a)
					for _, b := range r.Func.Def.Bindings {
						_, _, _, _ = r.Concestors(a, b)
						_ = r.SameIter(a, b)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestEqualIsStructural: sizes are hash-consed, so Equal compares them by identity; on random
// programs that must agree with comparing them as trees, for every pair of array sizes and
// iteration sizes of a definition.
func TestEqualIsStructural(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := rapidgen.Program(t, gen.Options{Bindings: rapid.IntRange(1, 30).Draw(t, "bindings")})
		prog := Analyze("g.cnf", []byte(src))
		for _, r := range prog.Funcs {
			if r == nil {
				continue
			}
			var sizes []Size
			for _, b := range r.Func.Def.Bindings {
				for _, id := range b.Names {
					sizes = append(sizes, r.Size(id.Name))
				}
				sizes = append(sizes, r.Iter(b))
			}
			for _, p := range r.Func.Params {
				sizes = append(sizes, r.Size(p.Name))
			}
			for _, a := range sizes {
				for _, b := range sizes {
					if Equal(a, b) != equalTrees(a, b) {
						t.Fatalf("Equal(%s, %s) = %v, but as trees %v\n%s", r.FormatSize(a, false), r.FormatSize(b, false), Equal(a, b), equalTrees(a, b), src)
					}
				}
			}
		}
	})
}

// The transducers of size inference (Fig 1.7 as extended by section 1.7) are the combinators
// the table marks as transducers: a map over a transducer's output has it as its parent
// transducer, and over any other combinator's output it has none.
func TestTransducersMatchTable(t *testing.T) {
	for _, c := range syntax.CombinatorTable {
		var rhs string
		switch c.Name {
		case "filter":
			rhs = "filter (> 0) xs"
		case "take", "drop":
			rhs = c.Name + " 2 xs"
		case "slice":
			rhs = "slice 1 2 xs"
		case "tail", "reverse", "indexed":
			rhs = c.Name + " xs"
		case "map":
			rhs = "map (+ 1) xs"
		case "mapN":
			rhs = "map2 (+) xs xs"
		case "postscanl", "prescanl":
			rhs = c.Name + " (+) 0 xs"
		case "generate":
			rhs = "generate 3 (\\i -> i)"
		case "gather":
			rhs = "gather xs xs"
		case "append":
			rhs = "append xs xs"
		case "zip":
			rhs = "zip xs xs"
		case "cross":
			rhs = "cross xs xs"
		case "external":
			rhs = "external h xs"
		default:
			continue // fold, length: scalars; unzip: two outputs (a map's rule)
		}
		r := analyze(t, "f xs =\n  let y = "+rhs+"\n      z = map (\\v -> v) y\n  in  z\n")
		y, z := binding(t, r, "y"), binding(t, r, "z")
		if got := r.Trans(z) == y; got != c.Transducer {
			t.Errorf("%s: the parent transducer of a map over it is itself: %v; the table says transducer: %v", c.Name, got, c.Transducer)
		}
	}
}
