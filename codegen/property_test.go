package codegen

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
	"github.com/cnf-tools/cnf/types"
	"pgregory.net/rapid"
)

// inputs draws inputs for a definition by their types: arrays of 0, 1, 2, 3 or 7 elements
// (arrays that share a size in the scheme get one length: empty, one element, many), small
// Ints, Floats that are small multiples of a half, Bools and tuples of these.
func inputs(t *rapid.T, r *infer.Result) map[string]fuse.Value {
	in := map[string]fuse.Value{}
	lengths := map[string]int{}
	for _, p := range r.Func.Params {
		ty := r.Types.Types[p.Name]
		if p.Kind != syntax.Array {
			in[p.Name] = element(t, ty, "scalar "+p.Name)
			continue
		}
		size := r.FormatSize(r.Size(p.Name), false)
		n, ok := lengths[size]
		if !ok {
			n = rapid.SampledFrom([]int{0, 1, 2, 3, 7, 1100}).Draw(t, "length of "+size) // 1100: two blocks
			lengths[size] = n
		}
		arr := make(fuse.Array, n)
		for i := range arr {
			arr[i] = element(t, ty.Elem(), "element")
		}
		in[p.Name] = arr
	}
	return in
}

// libraryInputs draws inputs as inputs does, but none past cnf run's element limit in the
// reference: a library has no such limit, only memory (docs/compiling.md), so a call past it
// computes what the reference refuses, and a cross of crosses of 1,100 elements makes about
// 10^9 of them (a Python test's process was killed at 24 GB). It draws again, a few times,
// and gives false when every draw was past the limit.
func libraryInputs(t *rapid.T, r *infer.Result) (map[string]fuse.Value, bool) {
	for range 4 {
		in := inputs(t, r)
		if _, err := fuse.RunReference(context.Background(), r, in, fuse.DefaultExternals()); !fuse.IsElementLimit(err) {
			return in, true
		}
	}
	return nil, false
}

// element draws a value of type ty.
func element(t *rapid.T, ty *types.Type, what string) fuse.Value {
	switch ty.Kind() {
	case "Float":
		return float64(rapid.IntRange(-8, 18).Draw(t, what)) / 2
	case "Bool":
		return rapid.Bool().Draw(t, what)
	case "Tuple":
		tu := make(fuse.Tuple, len(ty.Elems()))
		for i, e := range ty.Elems() {
			tu[i] = element(t, e, what)
		}
		return tu
	}
	return int64(rapid.IntRange(-4, 9).Draw(t, what))
}

func show(m map[string]fuse.Value) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := ""
	for _, k := range keys {
		s += fmt.Sprintf(" %s=%s", k, fuse.FormatValue(m[k]))
	}
	return s
}

func same(a, b map[string]fuse.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !fuse.Equal(v, b[k]) || fuse.FormatValue(v) != fuse.FormatValue(b[k]) {
			return false
		}
	}
	return true
}

// The fourth semantics agrees with the reference interpreter: on generated programs of every
// combinator (both generators' shapes, with divisions that may be by 0) and inputs with empty, one-element and longer arrays,
// the compiled optimal clustering, and the compiled unfused one, give the reference's results,
// printed alike, and fail exactly when the reference fails, on one thread and on teams of 2 and
// 3 (every input split, however small: MinChunk 1), whose results are one thread's to the bit,
// with outputs written by streaming stores (MinStream 1) on 1 and 3 threads and by plain ones
// on 2.
//
//	go test ./codegen -run CompiledAgrees -rapid.checks=500
func TestCompiledAgreesWithReference(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	if _, err := Compiler(); err != nil {
		t.Fatal(err) // the project's scripts install gcc: a missing compiler is a failure
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 10).Draw(t, "bindings")
		src := rapidgen.Program(t, gen.Options{Bindings: n, NoExternals: true, Divisions: true})
		r, rep := analyse(t, src)
		for _, cl := range []*cluster.Clustering{rep.Ours.Clustering, rep.Unfused, rep.Stream} {
			for k := 0; k < 3; k++ {
				in := inputs(t, r)
				ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
				for _, threads := range []int{1, 2, 3} {
					// MinPeel 1: a loop (a chunk) peels whenever it starts off a 64-byte boundary.
					// MinStream 1 (on 1 and 3 threads): outputs go out by streaming stores.
					got, err := Run(context.Background(), r, cl, in, Options{Threads: threads, MinChunk: 1, MinPeel: 1, MinStream: int64(threads % 2)})
					var re *RunError
					if err != nil && !errors.As(err, &re) {
						t.Fatalf("cannot compile: %v\n%s", err, src)
					}
					switch {
					case (refErr == nil) != (err == nil):
						t.Fatalf("compiled on %d threads gives error %v, the reference %v\n%s\ninputs%s", threads, err, refErr, src, show(in))
					case refErr == nil && !same(ref, got):
						t.Fatalf("compiled on %d threads differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", threads, show(got), show(ref), src, show(in))
					}
				}
				if cl == rep.Ours.Clustering {
					checkPrinted(t, r, cl, in, ref, refErr)
				}
			}
		}
	})
}

// checkPrinted checks RunPrint (cnf run --compiled) against the reference's results: the lines
// cnf run prints for them, or nothing written and an error where the reference fails.
func checkPrinted(t *rapid.T, r *infer.Result, cl *cluster.Clustering, in, ref map[string]fuse.Value, refErr error) {
	var b strings.Builder
	err := RunPrint(context.Background(), &b, r, cl, in, Options{})
	want := ""
	if refErr == nil {
		for _, id := range r.Func.Def.Results {
			want += id.Name + " = " + fuse.FormatValue(ref[id.Name]) + "\n"
		}
	}
	switch {
	case (refErr == nil) != (err == nil):
		t.Fatalf("printed compiled results: error %v, the reference %v\ninputs%s", err, refErr, show(in))
	case b.String() != want:
		t.Fatalf("printed compiled results:\n%s\nwant\n%s\ninputs%s", b.String(), want, show(in))
	}
}

// Every example definition that needs no host functions runs compiled with the reference's
// results on random inputs (at least one run succeeding, so the agreement is about values);
// every other one is refused with a located error naming the host function to implement. So
// does every program of bench/shapes, the shapes written to measure the compiled code on.
func TestExamplesCompiledAgree(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	emit := func(r *infer.Result, cl *cluster.Clustering) error {
		_, err := Emit(r, cl, Options{}, HarnessMain)
		return err
	}
	t.Run("examples", func(t *testing.T) { examplesAgree(t, "../examples", emit) })
	t.Run("shapes", func(t *testing.T) { examplesAgree(t, "../bench/shapes", emit) })
}

func examplesAgree(t *testing.T, dir string, emit func(*infer.Result, *cluster.Clustering) error) {
	eachCompilableIn(t, dir, emit, func(t *testing.T, r *infer.Result, rep *cluster.Report) {
		def := r.Func.Def.Name.Name
		ok := 0
		rapid.Check(t, func(rt *rapid.T) {
			in := inputs(rt, r)
			ref, refErr := fuse.RunReference(context.Background(), r, in, fuse.DefaultExternals())
			got, err := Run(context.Background(), r, rep.Ours.Clustering, in, Options{})
			switch {
			case (refErr == nil) != (err == nil):
				rt.Fatalf("%s: compiled gives error %v, the reference %v\ninputs%s", def, err, refErr, show(in))
			case refErr == nil && !same(ref, got):
				rt.Fatalf("%s: compiled differs:\n got%s\nwant%s\ninputs%s", def, show(got), show(ref), show(in))
			case refErr != nil && err.Error() != refErr.Error():
				rt.Logf("%s: compiled says %q, the reference %q", def, err, refErr)
			}
			checkPrinted(rt, r, rep.Ours.Clustering, in, ref, refErr)
			if refErr == nil {
				ok++
			}
		})
		if ok == 0 {
			t.Errorf("%s: no run succeeded", def)
		}
	})
}

// eachCompilableExample calls f with every accepted definition of the examples that emit
// compiles, with its clustering report; a definition emit refuses must be refused with a
// located error about a host function (one the example needs and has no C for).
func eachCompilableExample(t *testing.T, emit func(*infer.Result, *cluster.Clustering) error, f func(*testing.T, *infer.Result, *cluster.Report)) {
	eachCompilableIn(t, "../examples", emit, f)
}

// eachCompilableIn is eachCompilableExample over the programs of dir.
func eachCompilableIn(t *testing.T, dir string, emit func(*infer.Result, *cluster.Clustering) error, f func(*testing.T, *infer.Result, *cluster.Report)) {
	golden.ForEachExample(t, dir, func(t *testing.T, name string, src []byte) {
		prog := infer.Analyze(name+".cnf", src)
		for _, r := range prog.Funcs {
			if r == nil || !r.OK() {
				continue
			}
			rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := emit(r, rep.Ours.Clustering); err != nil {
				var ce *CompileError
				if !errors.As(err, &ce) || !strings.Contains(ce.Message, "--host") {
					t.Errorf("%s: %v", r.Func.Def.Name.Name, err)
				}
				continue
			}
			f(t, r, rep)
		}
	})
}

// A run whose arrays of sizes known in advance pass cnf run's element limit is refused compiled,
// as the reference refuses it, though the compiled loop makes only the last array: `map f
// (generate n g)` at n = 2^25 + 1 makes 2^26 + 2 elements in the reference, and was printed
// compiled.
func TestElementLimitAsTheReference(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	r, rep := analyse(t, "big :: Int -> [Int]\nbig n = let xs = generate n (\\i -> i * 2)\n            ys = map (\\x -> x + 1) xs\n        in ys\n")
	in := map[string]fuse.Value{"n": int64(fuse.MaxElements/2 + 1)}
	_, err := Run(context.Background(), r, rep.Ours.Clustering, in, Options{})
	var re *RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "cnf run's limit") {
		t.Fatalf("compiled: %v; want the reference's element limit", err)
	}
	var b strings.Builder
	if err := RunPrint(context.Background(), &b, r, rep.Ours.Clustering, in, Options{}); !errors.As(err, &re) || b.Len() > 0 {
		t.Fatalf("printed compiled: %v, %d bytes written; want the element limit and nothing written", err, b.Len())
	}
}

// A length counts the array the graph says it reads (infer.Length.Source), which its loop can
// read before its argument exists: under stream fusion here, b6 is made with b8 and b11 in a
// loop after the one counting length b6 (b11 reads the count), and the blocked loop counted b6
// itself, which the C compiler rejected (cnf bench failed on such a generated program). Every
// clustering of it compiles and gives the reference's results.
func TestLengthCountsItsSource(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	r, rep := analyse(t, `f :: Array Int -> Int -> Array Int
f xs n =
  let b5 = filter (\x -> x > n) xs
      b6 = map (+ 1) b5
      b8 = map2 (+) b5 b6
      b10 = length b6
      b11 = map2 (\x1 x2 -> x1 + b10) b8 b5
  in  b11
`)
	in := map[string]fuse.Value{"xs": fuse.Array{int64(3), int64(-1), int64(7), int64(2)}, "n": int64(1)}
	ref, err := fuse.RunReference(context.Background(), r, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, cl := range map[string]*cluster.Clustering{"optimal": rep.Ours.Clustering, "stream": rep.Stream, "megiddo": rep.Megiddo.Clustering, "unfused": rep.Unfused} {
		got, err := Run(context.Background(), r, cl, in, Options{})
		if err != nil {
			t.Fatalf("%s (%s): %v", name, cl, err)
		}
		if !same(ref, got) {
			t.Fatalf("%s: got%s, want%s", name, show(got), show(ref))
		}
	}
}

// A reverse of an array made by an earlier loop is blocked beside the maps, filters and folds
// of its loop (element i read at n-1-i of the whole array, on a team from each chunk's
// position): the loop ran an element at a time through a goto state machine, and the optimal
// clustering of such a program took twice Megiddo's time (docs/performance.md). On one thread
// and on a team split into chunks of one element, its results are the reference's.
func TestReverseIsBlocked(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `rev :: Array Int -> (Array Int, Int, Int)
rev xs =
  let ys = map (\x -> x * 3 - 1) xs
      r  = reverse ys
      z  = map2 (\a b -> a - b) r ys
      p  = filter (> 0) z
      s  = fold (+) 0 p
      m  = fold max 0 r
  in  (z, s, m)
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "reverse ys */") || strings.Contains(f.Source, "not blocked") {
		t.Fatalf("the reverse's loop is not blocked:\n%s", f.Source)
	}
	long := fuse.Array{}
	for i := range 5000 {
		long = append(long, int64((i*7919)%201-100))
	}
	for _, xs := range []fuse.Array{{}, {int64(4)}, {int64(3), int64(-1), int64(7), int64(2)}, long} {
		agreesOnThreads(t, r, rep.Ours.Clustering, map[string]fuse.Value{"xs": xs}, src, 1, 1, 3)
	}
}

// A loop whose input only takes and slices read runs over the input up to the furthest end
// they keep, not to its end (a take of no elements read and tested all 10^7 of its input:
// the optimal clustering of such a program took 1.6 times Megiddo's time). Its results are
// the reference's for starts and counts before, inside and past the input, on one thread and
// on a team of chunks of one element.
func TestSlicesBoundTheirLoop(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `sl :: Array Int -> Int -> Int -> (Array Int, Array Int, Int, Int)
sl xs s c =
  let a = take c xs
      b = slice s c xs
      a2 = map (\x -> x * 2 + 1) a
      k = filter (\x -> x > 0) b
      n = fold (+) 0 k
      m = fold max 0 a2
  in  (a2, k, n, m)
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "the furthest end its slices keep") {
		t.Fatalf("no loop is bounded by its slices:\n%s", f.Source)
	}
	xs := fuse.Array{}
	for i := range 3000 {
		xs = append(xs, int64((i*7919)%201-100))
	}
	for _, sc := range [][2]int64{{0, 0}, {0, 5}, {-4, 10}, {10, -3}, {100, 2000}, {2990, 50}, {5000, 10}, {-10, 5000}, {1, 2999}} {
		in := map[string]fuse.Value{"xs": xs, "s": sc[0], "c": sc[1]}
		agreesOnThreads(t, r, rep.Ours.Clustering, in, fmt.Sprintf("%s(s=%d c=%d)", src, sc[0], sc[1]), 1, 1, 3)
	}
}

// A fold under a filter whose test nests an if in another adds its term under a mask that gcc
// cannot see through (fullMask): under the plain mask gcc threaded the nested branches of the
// test into the accumulator (c ? acc + a : acc), a reduction it does not vectorise, and left
// the loop scalar (unseen seed mixed 49: the optimal clustering 2.4 times slower than
// Megiddo's). The block's loop must vectorise (gcc only: the report is gcc's), and the results
// are the reference's on one thread and on teams, for that loop and for one with flat branches.
func TestBranchyMaskedFoldsVectorise(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	const src = `br :: Array Int -> Int -> (Array Int, Int, Int, Int)
br xs n =
  let a = filter (\x -> (max x x) /= (if ((max x x) /= (if ((max x n) < (n - x)) && (5 /= x) then x else 2)) && (4 >= x) then x else 0)) xs
      b = filter (\x -> 9 == (abs x)) xs
      s = fold (\acc x -> acc + x * 2) 0 a
      c = fold (\acc x -> acc + 7) 0 b
      m = fold max 0 a
  in  (a, s, c, m)
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{}, HarnessMain)
	if err != nil {
		t.Fatal(err)
	}
	if cc, err := Compiler(); err == nil && !strings.Contains(cc, "clang") {
		if out, err := exec.Command(cc, "--version").Output(); err == nil && strings.Contains(string(out), "Free Software Foundation") {
			dir := t.TempDir()
			path := filepath.Join(dir, "br.c")
			if err := os.WriteFile(path, []byte(f.Source), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(slices.Clone(Flags), "-fopt-info-vec-optimized", "-c", path, "-o", filepath.Join(dir, "br.o"))
			report, err := exec.Command(cc, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", cc, err, report)
			}
			// The line of the block's loop that tests a: the for after CNF_IVDEP.
			lines := strings.Split(f.Source, "\n")
			at := 0
			for i, l := range lines {
				if strings.Contains(l, "/* a = filter") && i >= 2 && strings.Contains(lines[i-2], "CNF_IVDEP") {
					at = i // 1-based line of the for, i-1 0-based
					break
				}
			}
			if at == 0 {
				t.Fatalf("no block loop testing a:\n%s", f.Source)
			}
			if want := fmt.Sprintf("br.c:%d:", at); !strings.Contains(string(report), want) {
				t.Errorf("the block's loop at line %d is not vectorised; gcc says:\n%s", at, report)
			}
		}
	}
	const flat = `fl :: Array Int -> (Int, Int)
fl xs =
  let a = filter (\x -> (x > -400 && x < 600) || (if x > 0 then x else 0) == 7) xs
      s = fold (+) 0 a
      c = length a
  in  (s, c)
`
	fr, frep := analyse(t, flat)
	long := fuse.Array{}
	for i := range 5000 {
		long = append(long, int64((i*7919)%41-20))
	}
	for _, xs := range []fuse.Array{{}, {int64(7), int64(-500), int64(3)}, long} {
		agreesOnThreads(t, fr, frep.Ours.Clustering, map[string]fuse.Value{"xs": xs}, flat, 1, 1, 3)
	}
	for _, in := range []map[string]fuse.Value{
		{"xs": fuse.Array{}, "n": int64(3)},
		{"xs": fuse.Array{int64(9), int64(-9), int64(4), int64(0)}, "n": int64(-2)},
		{"xs": long, "n": int64(7)},
	} {
		agreesOnThreads(t, r, rep.Ours.Clustering, in, src, 1, 1, 3)
	}
}
