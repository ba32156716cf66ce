package codegen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"pgregory.net/rapid"
)

// floatExpr draws a Float expression over x (Float) and n (Int) of the operations whose
// results C's libm and Go's math round differently: exp, log, sin, cos, **, ^ (and sqrt and
// the rest, which are exact in both).
func floatExpr(t *rapid.T, depth int) string {
	if depth == 0 || rapid.IntRange(0, 3).Draw(t, "leaf") == 0 {
		return rapid.SampledFrom([]string{"x", "x", "1.5", "0.1", "fromIntegral n", "1e300", "(0.0 / 0.0)", "(negate 0.0)", "0.0"}).Draw(t, "fleaf")
	}
	a := floatExpr(t, depth-1)
	switch rapid.IntRange(0, 3).Draw(t, "fkind") {
	case 3:
		// min, max and if choose by a mask (cnf_select_Float): NaN and signed zeros as the
		// interpreter chooses them.
		b := floatExpr(t, depth-1)
		switch rapid.IntRange(0, 2).Draw(t, "choice") {
		case 0:
			return fmt.Sprintf("min (%s) (%s)", a, b)
		case 1:
			return fmt.Sprintf("max (%s) (%s)", a, b)
		}
		return fmt.Sprintf("if (%s) %s (%s) then (%s) else (%s)", a, rapid.SampledFrom([]string{"<", ">", "<=", "==", "/="}).Draw(t, "cmp"), b, b, a)
	case 0:
		f := rapid.SampledFrom([]string{"sin", "cos", "exp", "log", "sqrt", "abs", "negate"}).Draw(t, "fun")
		return fmt.Sprintf("%s (%s)", f, a)
	case 1:
		return fmt.Sprintf("(%s) ^ %s", a, rapid.SampledFrom([]string{"n", "7", "2", "65", "0"}).Draw(t, "exponent"))
	}
	op := rapid.SampledFrom([]string{"+", "-", "*", "/", "**"}).Draw(t, "op")
	return fmt.Sprintf("(%s) %s (%s)", a, op, floatExpr(t, depth-1))
}

// intExpr draws an Int expression over n and m with powers of large exponents and division.
func intExpr(t *rapid.T, depth int) string {
	if depth == 0 || rapid.IntRange(0, 3).Draw(t, "leaf") == 0 {
		return rapid.SampledFrom([]string{"n", "m", "3", "(-1)", "9223372036854775807", "(negate 9223372036854775807 - 1)"}).Draw(t, "ileaf")
	}
	op := rapid.SampledFrom([]string{"+", "-", "*", "^", "div", "mod", "quot", "rem"}).Draw(t, "iop")
	a, b := intExpr(t, depth-1), intExpr(t, depth-1)
	if op == "div" || op == "mod" || op == "quot" || op == "rem" {
		return fmt.Sprintf("(%s) `%s` (%s)", a, op, b)
	}
	return fmt.Sprintf("(%s) %s (%s)", a, op, b)
}

// edgeFloat draws a Float input: ordinary, huge, tiny, negative, near multiples of π/2.
func edgeFloat(t *rapid.T) float64 {
	switch rapid.IntRange(0, 4).Draw(t, "fclass") {
	case 0:
		return rapid.Float64Range(-10, 10).Draw(t, "small")
	case 1:
		return rapid.Float64Range(-1e300, 1e300).Draw(t, "huge")
	case 2:
		return float64(rapid.IntRange(-1<<20, 1<<20).Draw(t, "multiple")) * math.Pi / 2
	case 3:
		return rapid.Float64Range(-1e-300, 1e-300).Draw(t, "tiny")
	}
	return float64(rapid.IntRange(-3, 3).Draw(t, "int")) / 2
}

func edgeInt(t *rapid.T) int64 {
	return rapid.OneOf(rapid.Int64Range(-3, 70), rapid.SampledFrom([]int64{math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, 64, 65, -1})).Draw(t, "n")
}

// The four semantics (the reference, fused processes, process networks, compiled C) give the
// same bits, or the same error, on the operations where they once differed: exp, log, sin,
// cos, ** and ^ over Floats (C's libm against Go's math), min, max and if over Floats with NaNs
// and signed zeros (chosen by masks in C), Int ^ with exponents of 64 and more
// (they wrapped the exponent), slice with counts near maxBound (start + count wrapped), and
// map2 and zip over arrays of different lengths (the fused and network semantics truncated).
//
//	go test ./codegen -run EdgeArithmetic -rapid.checks=500
func TestEdgeArithmeticAgrees(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	rapid.Check(t, func(t *rapid.T) {
		src := fmt.Sprintf(`f :: Array Float -> Array Int -> Array Int -> Int -> Int -> (Array Float, Array Int, Array Int, Array (Int, Int))
f xs ns ms s k =
  let a = map2 (\x n -> %s) xs ns
      b = map2 (\n m -> %s) ns ms
      c = slice s k ms
      d = zip ns ms
  in (a, b, c, d)
`, floatExpr(t, 3), intExpr(t, 3))
		r, rep := analyse(t, src)
		n := rapid.IntRange(0, 4).Draw(t, "length")
		lengths := []int{n, n, n}
		if rapid.IntRange(0, 9).Draw(t, "mismatch") == 0 {
			lengths[rapid.IntRange(0, 2).Draw(t, "which")] = n + 1
		}
		xs, ns, ms := make(fuse.Array, lengths[0]), make(fuse.Array, lengths[1]), make(fuse.Array, lengths[2])
		for i := range xs {
			xs[i] = edgeFloat(t)
		}
		for i := range ns {
			ns[i] = edgeInt(t)
		}
		for i := range ms {
			ms[i] = edgeInt(t)
		}
		in := map[string]fuse.Value{"xs": xs, "ns": ns, "ms": ms, "s": edgeInt(t), "k": edgeInt(t)}
		ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
		check := func(what string, got map[string]fuse.Value, err error) {
			var re *RunError
			if err != nil && strings.Contains(what, "compiled") && !errors.As(err, &re) {
				t.Fatalf("cannot compile: %v\n%s", err, src)
			}
			switch {
			case (refErr == nil) != (err == nil):
				t.Fatalf("%s gives error %v, the reference %v\n%s\ninputs%s", what, err, refErr, src, show(in))
			case refErr == nil && !same(ref, got):
				t.Fatalf("%s differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", what, show(got), show(ref), src, show(in))
			}
		}
		fused, err := fuse.RunClusters(context.Background(), r.Func, rep.Ours.Clustering, in, nil, fuse.RunFused)
		check("fused", fused, err)
		network, err := fuse.RunClusters(context.Background(), r.Func, rep.Ours.Clustering, in, nil, fuse.RunNetwork)
		check("network", network, err)
		compiled, err := Run(context.Background(), r, rep.Ours.Clustering, in, Options{})
		check("compiled", compiled, err)
	})
}
