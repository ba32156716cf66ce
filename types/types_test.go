package types_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// report prints the type of every parameter and binder of each definition, then the type
// errors with their positions.
func report(name string, src []byte) []byte {
	var b strings.Builder
	prog := syntax.Analyze(name, src)
	for _, fn := range prog.Funcs {
		if !fn.Valid {
			fmt.Fprintf(&b, "%s: not checked (front-end errors)\n", fn.Def.Name.Name)
			continue
		}
		info, diags := types.Check(fn, nil)
		fmt.Fprintf(&b, "%s\n", fn.Def.Name.Name)
		for _, s := range fn.Params {
			fmt.Fprintf(&b, "  %s : %s\n", s.Name, info.TypeOf(s.Name))
		}
		for _, bd := range fn.Def.Bindings {
			for _, id := range bd.Names {
				fmt.Fprintf(&b, "  %s : %s\n", id.Name, info.TypeOf(id.Name))
			}
		}
		for _, d := range diags {
			p := prog.File.Position(d.Range.Start)
			fmt.Fprintf(&b, "  %d:%d: %s\n", p.Line, p.Column, d.Message)
		}
	}
	return []byte(b.String())
}

// The types of every example (regenerate with go test ./types -update).
func TestExamples(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		golden.File(t, filepath.Join("testdata", name+".types"), report(name+".cnf", src))
	})
}

// Programs with type errors: each error is reported where it shows, saying both types.
func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string // "line:col: part of the message", in order
	}{
		{"f :: Array Int -> Array Int\nf xs = let ys = map (* 1.5) xs in ys\n",
			[]string{"2:21: type mismatch", "Float is not Int", "convert with toFloat"}},
		{"f :: Array Int -> Array Bool\nf xs = let ys = map (+ 1) xs in ys\n",
			[]string{"2:12: type mismatch: map makes an array of its worker's results", "Bool is not Int"}},
		{"f xs = let ys = filter (+ 1) xs in ys\n",
			[]string{"1:24: type mismatch: filter's predicate takes an element of xs", "returns a Bool"}},
		{"f xs = let s = fold (&&) 0 xs in s\n",
			[]string{"1:21: type mismatch: fold's worker takes the accumulator", "Bool -> Bool -> Bool", "Bool is not a number"}},
		{"f xs ys = let zs = append xs ys\n              us = map even xs\n              vs = map not ys\n          in (us, vs)\n",
			[]string{"3:24: type mismatch: map's worker takes an element of ys (Int)", "Bool is not Int"}},
		{"f xs = let ys = map (\\x -> if x then 1 else 2.5) xs\n           zs = map (+ 1) xs\n       in (ys, zs)\n",
			[]string{"2:21: type mismatch", "Bool is not a number"}},
		{"g :: Int -> Bool\nf xs = let ys = map g xs\n           zs = map sqrt xs\n       in (ys, zs)\n",
			[]string{"3:21: type mismatch", "Float is not Int"}},
		{"f xs = let ys = map (\\(a, b) -> a + b) xs\n           n = fold (+) 0 xs\n       in (ys, n)\n",
			[]string{"2:21: type mismatch: fold's worker takes the accumulator", "(Int, Int) is not a number"}},
	}
	for _, tc := range tests {
		got := string(report("t.cnf", []byte(tc.src)))
		rest := got
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%q:\nwant %q in order in\n%s", tc.src, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}

// Well-typed programs get no error: numeric literals follow their use, host functions their
// signatures, tuples and lambdas with patterns, sections on either side, composition.
func TestNoErrors(t *testing.T) {
	for _, src := range []string{
		"f :: Array Float -> Array Float\nf xs = let ys = map (* 2) xs in ys\n",
		"f :: Array Int -> Float\nf xs = let s = fold (\\acc x -> acc + toFloat x) 0 xs in s\n",
		"f xs = let ps = indexed xs\n           qs = filter (\\(i, x) -> even i && x > 0.5) ps\n       in qs\n",
		"dist :: (Float, Float) -> Float\nf ps = let ds = map dist ps\n           m = fold min infinity ds\n       in m\n",
		"f xs = let ys = map (negate . abs) xs\n           zs = map (subtract 1) ys\n           s = fold max 0 zs\n       in s\n",
		"f n = let ys = generate n (\\i -> (i, i * i))\n          (as, bs) = unzip ys\n      in (as, bs)\n",
	} {
		got := string(report("t.cnf", []byte(src)))
		if strings.Contains(got, "mismatch") || strings.Contains(got, "not checked") {
			t.Errorf("%s\n%s", src, got)
		}
	}
}
