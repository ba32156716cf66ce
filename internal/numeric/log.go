package numeric

import "math"

// logC are 2/(2n+1) for n = 1..11: log(1+f) = 2 atanh(s) with s = f/(2+f) and
// 2 atanh(s) = 2s + s R(s²), R(z) = Σ 2 z^n/(2n+1). With 1+f in [√½, √2], |s| < 0.1716, and
// the first term left out is below 1e-18 of the result.
var logC = [...]float64{
	0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
	0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
	0x1.af286bca1af28p-4, 0x1.8618618618618p-4, 0x1.642c8590b2164p-4,
}

const sqrt2 = 0x1.6a09e667f3bcdp+0

// Log is the natural logarithm: x = 2^k (1+f) with 1+f in [√½, √2] read from the bits, and
// log(1+f) = f - (f²/2 - s (f²/2 + R)), which follows from 2s = f - s f; f is exact, so
// the only large rounding is the last subtraction.
func Log(x float64) float64 {
	switch {
	case x != x || x > math.MaxFloat64:
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	m, k := split2(x)
	f := m - 1
	s := f / (2 + f)
	z := float64(s * s)
	r := logC[len(logC)-1]
	for i := len(logC) - 2; i >= 0; i-- {
		r = logC[i] + float64(z*r)
	}
	r = float64(z * r)
	hfsq := float64(float64(0.5*f) * f)
	dk := float64(k)
	return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(dk*ln2Lo))) - f)
}

// split2 writes a positive finite x as m 2^k with m in [√½, √2], from its bits (subnormals
// scaled first). Both steps are exact.
func split2(x float64) (float64, int) {
	k := 0
	if x < 0x1p-1022 {
		x *= 0x1p54
		k = -54
	}
	b := math.Float64bits(x)
	k += int(b>>52&0x7ff) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52)
	if m > sqrt2 {
		m *= 0.5
		k++
	}
	return m, k
}
