package numeric

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ulps is the distance between a and b in units in the last place (0 for equal bits, for two
// NaNs, and for +0 against -0 only where both are zero).
func ulps(a, b float64) float64 {
	if a == b || a != a && b != b {
		return 0
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || a != a || b != b {
		return math.Inf(1)
	}
	ord := func(x float64) int64 {
		u := int64(math.Float64bits(x))
		if u < 0 {
			u = math.MinInt64 - u
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return float64(d)
}

// inputs draws n arguments of the shapes that break such functions: small, near multiples of
// π/2, huge, subnormal, integers, and uniformly random bits.
func inputs(r *rand.Rand, n int) []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, math.Pi, math.Pi / 2, math.Pi / 4,
		1e22, 1e300, -1e300, 6381956970095103 * math.Pow(2, 797), 5e-324, 2.2250738585072014e-308,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 709.782712893384, -745.13321910194122,
		-708.5, 1e-10, 0x1p-30, 3.14159265358979, 1.5707963267948966, 2.0 / 3}
	for len(xs) < n {
		var x float64
		switch r.IntN(6) {
		case 0:
			x = (r.Float64()*2 - 1) * 10
		case 1:
			x = float64(r.IntN(1<<20)) * math.Pi / 2 * (1 + (r.Float64()-0.5)*1e-12)
		case 2:
			x = math.Float64frombits(r.Uint64())
		case 3:
			x = (r.Float64()*2 - 1) * 800
		case 4:
			x = math.Ldexp(r.Float64(), r.IntN(200)-100)
		default:
			x = float64(r.IntN(2000) - 1000)
		}
		xs = append(xs, x)
	}
	return xs
}

const harness = `
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
%s
int main(void) {
	char op[8];
	double a, b;
	uint64_t in[2];
	while (fread(op, 1, 8, stdin) == 8 && fread(in, 8, 2, stdin) == 2) {
		memcpy(&a, &in[0], 8); memcpy(&b, &in[1], 8);
		double r = 0;
		int64_t ri = 0;
		if (!strcmp(op, "exp")) r = cnf_exp(a);
		else if (!strcmp(op, "log")) r = cnf_log(a);
		else if (!strcmp(op, "sin")) r = cnf_sin(a);
		else if (!strcmp(op, "cos")) r = cnf_cos(a);
		else if (!strcmp(op, "pow")) r = cnf_pow(a, b);
		else if (!strcmp(op, "powf")) r = cnf_powf_(a, (int64_t)in[1]);
		else if (!strcmp(op, "Lexp")) r = exp(a);
		else if (!strcmp(op, "Llog")) r = log(a);
		else if (!strcmp(op, "Lsin")) r = sin(a);
		else if (!strcmp(op, "Lcos")) r = cos(a);
		else if (!strcmp(op, "Lpow")) r = pow(a, b);
		else if (!strcmp(op, "powi")) { ri = cnf_powi_((int64_t)in[0], (int64_t)in[1]); memcpy(&r, &ri, 8); }
		fwrite(&r, 8, 1, stdout);
	}
	return 0;
}
`

type call struct {
	op   string
	a, b uint64
}

// runC runs the C of this package on the calls and returns each result's bits.
func runC(t *testing.T, calls []call) []uint64 {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "h.c")
	if err := os.WriteFile(src, []byte(strings.Replace(harness, "%s", C(), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O3", "-march=native", "-std=gnu11", "-fwrapv", "-ffp-contract=off", "-o", exe, src, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	var in []byte
	for _, c := range calls {
		var op [8]byte
		copy(op[:], c.op)
		in = append(in, op[:]...)
		in = binary.LittleEndian.AppendUint64(in, c.a)
		in = binary.LittleEndian.AppendUint64(in, c.b)
	}
	cmd := exec.Command(exe)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	res := make([]uint64, len(calls))
	for i := range res {
		res[i] = binary.LittleEndian.Uint64(out[8*i:])
	}
	return res
}

// TestCAgreesWithGo runs every function in C and in Go on the same inputs: the same bits.
func TestCAgreesWithGo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	xs := inputs(r, n)
	var calls []call
	var want []uint64
	f := math.Float64bits
	for i, x := range xs {
		y := xs[(i*7+3)%len(xs)]
		switch i % 4 {
		case 1:
			y = float64(r.IntN(41) - 20)
		case 2:
			y = (r.Float64() - 0.5) * 8
		}
		for _, op := range []string{"exp", "log", "sin", "cos"} {
			calls = append(calls, call{op, f(x), 0})
		}
		want = append(want, f(Exp(x)), f(Log(x)), f(Sin(x)), f(Cos(x)))
		n := int64(r.IntN(70))
		calls = append(calls, call{"pow", f(x), f(y)}, call{"powf", f(x), uint64(n)}, call{"powi", uint64(int64(x)), uint64(n)})
		want = append(want, f(Pow(x, y)), f(PowFloat(x, n)), uint64(PowInt(int64(x), n)))
	}
	got := runC(t, calls)
	bad := 0
	for i, c := range calls {
		if got[i] != want[i] && !(math.IsNaN(math.Float64frombits(got[i])) && math.IsNaN(math.Float64frombits(want[i])) && c.op != "powi") {
			bad++
			if bad <= 10 {
				t.Errorf("%s(%v, %v): C %v, Go %v", c.op, math.Float64frombits(c.a), math.Float64frombits(c.b), math.Float64frombits(got[i]), math.Float64frombits(want[i]))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d calls differ", bad, len(calls))
	}
}

// TestAccuracy bounds each function against the C library's (glibc's are within about half
// an ulp of the exact result, so a function within an ulp is within 2 of them), and counts
// how often they differ.
func TestAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := inputs(r, 100000)
	ys := []float64{2.5, 0.5, -1.5, 3, 1.0 / 3}
	var calls []call
	f := math.Float64bits
	for i, x := range xs {
		for _, op := range []string{"exp", "log", "sin", "cos"} {
			calls = append(calls, call{op, f(x), 0}, call{"L" + op, f(x), 0})
		}
		// pow: x ** y for a few ys, and 1.0001 ** x, (-2) ** integers
		y := ys[i%len(ys)]
		calls = append(calls, call{"pow", f(x), f(y)}, call{"Lpow", f(x), f(y)},
			call{"pow", f(1.0001), f(x)}, call{"Lpow", f(1.0001), f(x)},
			call{"pow", f(-2), f(float64(i%2100 - 1050))}, call{"Lpow", f(-2), f(float64(i%2100 - 1050))})
	}
	got := runC(t, calls)
	worst := map[string]float64{}
	differ, total := map[string]int{}, map[string]int{}
	for i := 0; i < len(calls); i += 2 {
		c := calls[i]
		d := ulps(math.Float64frombits(got[i]), math.Float64frombits(got[i+1]))
		if d > worst[c.op] {
			worst[c.op] = d
		}
		total[c.op]++
		if d > 0 {
			differ[c.op]++
		}
		if d > 2 && (c.op == "sin" || c.op == "cos") {
			// glibc is off by several ulps near some multiples of π/2 of huge arguments:
			// the exact value decides.
			if e := ulps(math.Float64frombits(got[i]), exactSinCos(c.op, math.Float64frombits(c.a))); e > 1 {
				t.Errorf("%s(%v) = %v, %v ulps from the exact value", c.op, math.Float64frombits(c.a), math.Float64frombits(got[i]), e)
			}
			continue
		}
		if d > 2 {
			t.Errorf("%s(%v, %v) = %v, the C library says %v", c.op, math.Float64frombits(c.a), math.Float64frombits(c.b), math.Float64frombits(got[i]), math.Float64frombits(got[i+1]))
		}
	}
	for op, w := range worst {
		t.Logf("%s: worst %v ulps from the C library, %d of %d differ", op, w, differ[op], total[op])
	}
}

// TestExactCases: powers that are exact and special values follow C99's pow.
func TestExactCases(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	for _, c := range []struct{ x, y, want float64 }{
		{3, 2, 9}, {2, 10, 1024}, {2, -2, 0.25}, {10, 3, 1000}, {-2, 3, -8}, {-2, 2, 4}, {4, 0.5, 2},
		{nan, 0, 1}, {1, nan, 1}, {-1, inf, 1}, {0, -1, inf}, {negZero, -1, -inf}, {negZero, 3, negZero},
		{0, 2, 0}, {-inf, -1, negZero}, {-inf, 3, -inf}, {-inf, 2, inf}, {inf, -2, 0}, {0.5, inf, 0},
		{2, inf, inf}, {0.5, -inf, inf}, {-8, 1.0 / 3, nan}, {10, 400, inf}, {10, -400, 0}, {-10, 401, -inf},
	} {
		if got := Pow(c.x, c.y); ulps(got, c.want) != 0 || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if Log(1) != 0 || math.Signbit(Log(1)) || Exp(0) != 1 || Sin(negZero) != 0 || !math.Signbit(Sin(negZero)) || Cos(0) != 1 {
		t.Errorf("log 1 = %v, exp 0 = %v, sin -0 = %v, cos 0 = %v", Log(1), Exp(0), Sin(negZero), Cos(0))
	}
	if PowInt(-1, 65) != -1 || PowInt(3, 65) == PowInt(3, 64) || PowInt(2, 64) != 0 || PowInt(7, 0) != 1 {
		t.Errorf("PowInt: (-1)^65 = %d, 3^65 = %d, 3^64 = %d", PowInt(-1, 65), PowInt(3, 65), PowInt(3, 64))
	}
}

// machinPi is π * 2^bits, by Machin's formula in integers.
func machinPi(bits uint) *big.Int {
	atanInv := func(n int64) *big.Int { // atan(1/n) * 2^bits
		one := new(big.Int).Lsh(big.NewInt(1), bits)
		x := new(big.Int).Quo(one, big.NewInt(n))
		sum := new(big.Int).Set(x)
		n2 := big.NewInt(n * n)
		for k, sign := int64(3), -1; x.Sign() != 0; k, sign = k+2, -sign {
			x.Quo(x, n2)
			term := new(big.Int).Quo(x, big.NewInt(k))
			if sign < 0 {
				sum.Sub(sum, term)
			} else {
				sum.Add(sum, term)
			}
		}
		return sum
	}
	return new(big.Int).Sub(new(big.Int).Mul(big.NewInt(16), atanInv(5)), new(big.Int).Mul(big.NewInt(4), atanInv(239)))
}

// exactSinCos is sin or cos of x rounded to the nearest double: reduction by a 2200-bit π and
// Taylor's series in 300-bit floats.
func exactSinCos(op string, x float64) float64 {
	const bits = 2200
	pi := new(big.Float).SetPrec(bits).SetInt(machinPi(bits))
	pi.SetMantExp(pi, -bits)
	halfPi := new(big.Float).SetPrec(bits).Quo(pi, big.NewFloat(2))
	bx := new(big.Float).SetPrec(bits).SetFloat64(x)
	q := new(big.Float).SetPrec(bits).Quo(bx, halfPi)
	k, _ := new(big.Float).SetPrec(bits).Add(q, big.NewFloat(0.5)).Int(nil) // floor for x > 0
	if x < 0 {
		k, _ = new(big.Float).SetPrec(bits).Sub(q, big.NewFloat(0.5)).Int(nil)
	}
	r := new(big.Float).SetPrec(bits).Sub(bx, new(big.Float).SetPrec(bits).Mul(new(big.Float).SetPrec(bits).SetInt(k), halfPi))
	r.SetPrec(300)
	series := func(start int) *big.Float { // Σ (-1)^n r^(2n+start)/(2n+start)!
		sum := new(big.Float).SetPrec(300)
		term := new(big.Float).SetPrec(300).SetFloat64(1)
		if start == 1 {
			term.Set(r)
		}
		r2 := new(big.Float).SetPrec(300).Mul(r, r)
		for n := start; n < start+80; n += 2 {
			sum.Add(sum, term)
			term.Mul(term, r2)
			term.Quo(term, big.NewFloat(float64(-(n+1)*(n+2))))
		}
		return sum
	}
	j := new(big.Int).Mod(k, big.NewInt(4)).Int64()
	if op == "cos" {
		j++
	}
	var v *big.Float
	switch j % 4 {
	case 0:
		v = series(1)
	case 1:
		v = series(0)
	case 2:
		v = series(1).Neg(series(1))
	default:
		v = series(0).Neg(series(0))
	}
	f, _ := v.Float64()
	return f
}

// TestTwoOverPi recomputes the table's bits: 2/π from Machin's formula in integers.
func TestTwoOverPi(t *testing.T) {
	const bits uint = 64*uint(len(twoOverPi)) + 64
	pi := machinPi(bits)
	// 2/π * 2^(64 words) = 2^(bits + 1 + 64 words) / (π 2^bits)
	words := len(twoOverPi) - 1
	q := new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), bits+1+64*uint(words)), pi)
	for i := words; i >= 1; i-- {
		w := new(big.Int).And(q, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		if w != twoOverPi[i] && i < words { // the last word may differ in its last bit by the truncation of π
			t.Errorf("word %d: %#016x, computed %#016x", i, twoOverPi[i], w)
		}
		q.Rsh(q, 64)
	}
	if exactSinCos("sin", math.Pi) != 1.2246467991473532e-16 {
		t.Errorf("the exact sine of math.Pi is %v", exactSinCos("sin", math.Pi))
	}
}
