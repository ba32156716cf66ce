package codegen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// Large programs, whose loops Build compiles in parts, run compiled with the reference's
// results: the parts change where the loops are compiled, not what they compute, and share
// one runtime state (the element limit, the threads, the large blocks).
func TestLargeProgramsCompiledInPartsAgree(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for seed := range uint64(3) {
		src := gen.Program(rand.New(rand.NewPCG(seed, 40)), gen.Options{Bindings: 40, NoExternals: true})
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		f, err := Emit(r, cl, Options{}, HarnessMain)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.NumCPU() < 2 {
			t.Skip("one core: Build compiles every program whole")
		}
		if len(splitParts(f.Source, 2)) != 2 {
			t.Fatalf("seed %d: %d loops, not compiled in parts: the test needs a larger program\n%s", seed, f.Unit.Loops, src)
		}
		agreed := 0
		for k := 0; k < 16 && agreed < 3; k++ {
			in := rapid.Custom(func(t *rapid.T) map[string]fuse.Value { return inputs(t, r) }).Example(int(seed)*10 + k)
			ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
			got, err := Run(context.Background(), r, cl, in, Options{})
			var re *RunError
			switch {
			case err != nil && !errors.As(err, &re):
				t.Fatalf("seed %d: cannot compile: %v\n%s", seed, err, src)
			case (refErr == nil) != (err == nil):
				t.Fatalf("seed %d: compiled gives error %v, the reference %v\n%s\ninputs%s", seed, err, refErr, src, show(in))
			case refErr == nil && !same(ref, got):
				t.Fatalf("seed %d: compiled differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", seed, show(got), show(ref), src, show(in))
			case refErr == nil:
				agreed++
			}
		}
		if agreed == 0 {
			t.Errorf("seed %d: every input failed in both: nothing compared", seed)
		}
	}
}

// The parts of a program hold every loop once, part 0 the rest of the file and the loops'
// prototypes; the same source cuts the same way; what should be compiled whole is not cut; a
// program of one loop is cut in two, the loop and the rest.
func TestSplitParts(t *testing.T) {
	loop := func(k, lines int) string {
		return fmt.Sprintf("/* Loop %d */\n%s%d_p(int64_t *out) {\n%s}\n\n", k, loopFunctionMark, k, strings.Repeat("\tout[0]++;\n", lines))
	}
	prelude := "/* runtime */\n#define CNF_STATE(decl, init) static decl init\n"
	var src strings.Builder
	src.WriteString(prelude)
	sizes := []int{5, 40, 3, 20, 8, 1, 30}
	for k, n := range sizes {
		src.WriteString(loop(k+1, n))
	}
	rest := "static void cnf_p(void) {\n\tcnf_L1_p(0);\n}\nint main(void) { return 0; }\n"
	src.WriteString(rest)
	parts := splitParts(src.String(), 3)
	if len(parts) != 3 {
		t.Fatalf("%d parts, want 3", len(parts))
	}
	if again := splitParts(src.String(), 3); !slices.Equal(parts, again) {
		t.Error("the same source cut two ways")
	}
	for k := range sizes {
		def := fmt.Sprintf("%s%d_p(int64_t *out) {\n", partedLoopMark, k+1)
		proto := fmt.Sprintf("%s%d_p(int64_t *out);\n", partedLoopMark, k+1)
		in := 0
		for p, text := range parts {
			in += strings.Count(text, def)
			if strings.Contains(text, loopFunctionMark) {
				t.Errorf("part %d keeps a static loop function", p)
			}
			if !strings.HasPrefix(text, fmt.Sprintf("#define CNF_PART %d\n%s", p, prelude)) {
				t.Errorf("part %d does not start with its CNF_PART and the prelude:\n%s", p, text)
			}
		}
		if in != 1 {
			t.Errorf("loop %d defined in %d parts", k+1, in)
		}
		if !strings.Contains(parts[0], proto) {
			t.Errorf("part 0 has no prototype of loop %d", k+1)
		}
	}
	if !strings.HasSuffix(parts[0], rest) {
		t.Errorf("part 0 does not end with the rest of the file:\n%s", parts[0])
	}
	for name, s := range map[string]string{
		"no loops":    prelude + rest,
		"a host file": prelude + hostMark + "x.c */\n" + src.String()[len(prelude):],
		"not cnf's":   strings.TrimPrefix(src.String(), prelude),
	} {
		if got := splitParts(s, 3); got != nil {
			t.Errorf("%s: cut into %d parts", name, len(got))
		}
	}
	if got := splitParts(src.String(), 1); got != nil {
		t.Errorf("one core: cut into %d parts", len(got))
	}
	// One loop: itself and the rest, at most.
	if got := splitParts(prelude+loop(1, 5)+rest, 3); len(got) != 2 || !strings.Contains(got[1], partedLoopMark+"1_p(") || !strings.HasSuffix(got[0], rest) {
		t.Errorf("one loop: %d parts:\n%s", len(got), strings.Join(got, "\n----\n"))
	}
}

// A program compiled in parts shares one runtime state: the bytes its loops count (cnf bench's
// "bytes" line, counted in every part, printed by part 0's main) and its results are those of
// the program compiled whole.
func TestPartsShareTheRuntimeState(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := "p :: Array Int -> (Array Int, Int)\np xs =\n  let a = map (\\x -> x * 3) xs\n      b = filter (\\x -> x > 0) a\n      c = map (\\x -> x + 1) b\n      d = fold (+) 0 c\n      e = map (\\x -> x - d) a\n      f = fold max 0 e\n      g = map (\\x -> x * f) c\n  in (g, f)\n"
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Unfused, Options{CountBytes: true}, BenchMain)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(splitParts(f.Source, 2)); n != 2 {
		t.Fatalf("%d parts of %d loops, want 2", n, f.Unit.Loops)
	}
	var out [2]string
	for i, cpus := range []int{1, 2} {
		exe, err := build(context.Background(), f.Source, cpus)
		if err != nil {
			t.Fatal(err)
		}
		b, err := exec.Command(exe, "100000", "1", "7", "0").Output()
		if err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "bytes ") || strings.HasPrefix(line, "checksum ") {
				out[i] += line + "\n"
			}
		}
	}
	if out[0] != out[1] || !strings.Contains(out[0], "bytes ") {
		t.Errorf("in parts:\n%s\nwhole:\n%s", out[1], out[0])
	}
}

// The parts are dealt out by compile time, not text: a long state machine (gcc compiles its
// gotos five times faster a byte than blocked loops' dense inner loops) weighs less than two
// short blocked loops of many inner loops, and the loops are spread so that no part is
// left with all the dear ones.
func TestPartsDealtOutByCompileCost(t *testing.T) {
	blocked := func(k, inner int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "/* Loop %d */\n%s%d_p(int64_t *out) {\n", k, loopFunctionMark, k)
		for range inner {
			b.WriteString("\tfor (int64_t i = 0; i < 8; i++) { if (out[i] > 0) out[i]++; }\n")
		}
		b.WriteString("}\n\n")
		return b.String()
	}
	machine := func(k, states int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "/* Loop %d */\n%s%d_p(int64_t *out) {\n", k, loopFunctionMark, k)
		for s := range states {
			fmt.Fprintf(&b, "s%d:\n\tout[0] += out[%d] * 3 - out[%d];\n\tif (out[0] > 0) goto s%d;\n", s, s%7, s%5, (s+1)%states)
		}
		b.WriteString("}\n\n")
		return b.String()
	}
	prelude := "/* runtime */\n#define CNF_STATE(decl, init) static decl init\n"
	long := machine(1, 400)
	short := blocked(2, 12)
	if len(long) < 8*len(short) {
		t.Fatalf("the state machine (%d bytes) should be far longer than the blocked loop (%d)", len(long), len(short))
	}
	if compileCost(long) >= 2*compileCost(short) {
		t.Errorf("a state machine of %d bytes costs %d, two blocked loops of %d bytes %d: the machine should cost less", len(long), compileCost(long), len(short), 2*compileCost(short))
	}
	src := prelude + long + short + blocked(3, 12) + blocked(4, 12) + "int main(void) { return 0; }\n"
	parts := splitParts(src, 2)
	if len(parts) != 2 {
		t.Fatalf("%d parts, want 2", len(parts))
	}
	// By text the machine alone outweighs the three blocked loops, which would all go to one
	// part; by cost the blocked loops are spread over both parts.
	for p, text := range parts {
		if n := strings.Count(text, "for (int64_t i"); n == 0 || n == 36 {
			t.Errorf("part %d has %d of the blocked loops' 36 inner loops: they should be spread over both parts", p, n)
		}
	}
}
