package numeric

import "math"

// Constants of the reductions (exact hexadecimal values, written by hand from 400-digit
// expansions of ln 2 and π). ln2Hi has 42 significant bits, so k * ln2Hi is exact for the
// |k| <= 1100 that exp and log need.
const (
	ln2Hi  = 0x1.62e42fefa3800p-1
	ln2Lo  = 0x1.ef35793c76730p-45
	invLn2 = 0x1.71547652b82fep+0
	// expOver: the largest x whose exp is finite; expUnder: the smallest whose exp does not
	// round to 0 (exp(x) > 2^-1075).
	expOver  = 0x1.62e42fefa39efp+9
	expUnder = -0x1.74910d52d3051p+9
)

// expC are 1/n! for n = 2..14, rounded: Taylor's series of exp on |r| <= ln2/2 to well below
// half an ulp (the first term left out, r^15/15!, is below 1e-19).
var expC = [...]float64{
	0x1.0000000000000p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5, 0x1.1111111111111p-7,
	0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
	0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
	0x1.93974a8c07c9dp-37,
}

// Exp is e^x: x = k ln2 + r with |r| <= ln2/2 (Cody and Waite's two-part ln 2, exact in its
// first part), e^r by its Taylor series, 1 added last so that its rounding is the only large
// one, and 2^k by the exponent's bits.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expOver:
		return math.Inf(1)
	case x < expUnder:
		return 0
	}
	k := math.Floor(float64(x*invLn2) + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	p := expC[len(expC)-1]
	for i := len(expC) - 2; i >= 0; i-- {
		p = expC[i] + float64(r*p)
	}
	y := 1 + (r + float64(float64(r*r)*p))
	return scale(y, int(k))
}

// scale is y * 2^k for 0.5 <= y < 4 and -1100 <= k <= 1100: one rounding, where the result is
// subnormal.
func scale(y float64, k int) float64 {
	switch {
	case k > 1023:
		return y * pow2(1023) * pow2(k-1023)
	case k < -1022:
		return y * pow2(k+1000) * pow2(-1000)
	}
	return y * pow2(k)
}

// pow2 is 2^k for -1022 <= k <= 1023, by its bits.
func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }
