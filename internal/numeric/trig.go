package numeric

import (
	"math"
	"math/bits"
)

// twoOverPi holds the bits of 2/π after the binary point, a zero word first (so that reduce
// can start a window before the point): 1280 bits, enough for every finite double.
// TestTwoOverPi recomputes them.
var twoOverPi = [...]uint64{
	0,
	0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561,
	0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484,
	0xe99c7026b45f7e41, 0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f,
	0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d, 0x7527bac7ebe5f17b,
	0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab, 0xf0cfbc209af4361d,
}

// π/2 as a double-double, and the largest double below π/4.
const (
	pio2Hi = 0x1.921fb54442d18p+0
	pio2Lo = 0x1.1a62633145c07p-54
	pio4   = 0x1.921fb54442d18p-1
)

// sinC are (-1)^n/(2n+1)! for n = 1..9, cosC (-1)^n/(2n)! for n = 2..9: Taylor's series on
// |r| <= π/4 to below 1e-18 of the result.
var sinC = [...]float64{
	-0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
	-0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33, -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
	-0x1.2f49b46814157p-57,
}

var cosC = [...]float64{
	0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22,
	0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53,
}

// reduce writes x >= π/4 (finite) as j π/2 + r, |r| <= π/4, r as a double-double and j mod 4:
// Payne and Hanek's reduction. x = m 2^e with m an integer of 53 bits; x 2/π mod 8 needs only
// the 256 bits of 2/π from bit e-3 on (the earlier ones make multiples of 8), so it is the
// integer m times that window, read as a fixed-point number with 253 bits after the point: its
// top 3 bits are j, the rest the fraction, at least 2^-62 away from an integer for any double.
func reduce(x float64) (uint64, dd) {
	b := math.Float64bits(x)
	e := int(b>>52) - 1075
	m := b&(1<<52-1) | 1<<52
	p := e - 3 + 64 // the window's first bit in twoOverPi (>= 8 for x >= π/4)
	w, sh := p/64, uint(p%64)
	var f [4]uint64 // the window, f[0] most significant
	for i := range f {
		f[i] = twoOverPi[w+i] << sh
		if sh > 0 {
			f[i] |= twoOverPi[w+i+1] >> (64 - sh)
		}
	}
	h0, p0 := bits.Mul64(m, f[3])
	h1, l1 := bits.Mul64(m, f[2])
	h2, l2 := bits.Mul64(m, f[1])
	_, l3 := bits.Mul64(m, f[0])
	p1, c := bits.Add64(l1, h0, 0)
	p2, c := bits.Add64(l2, h1, c)
	p3, _ := bits.Add64(l3, h2, c)
	j := p3 >> 61
	g3, g2, g1 := p3<<3|p2>>61, p2<<3|p1>>61, p1<<3|p0>>61
	negative := g3>>63 == 1
	if negative { // fraction >= 1/2: the nearest multiple is the next, r is negative
		j++
		var borrow uint64
		g1, borrow = bits.Sub64(0, g1, 0)
		g2, borrow = bits.Sub64(0, g2, borrow)
		g3, _ = bits.Sub64(0, g3, borrow)
	}
	shift := 0
	for g3 == 0 && shift < 128 {
		g3, g2, g1 = g2, g1, 0
		shift += 64
	}
	if lz := uint(bits.LeadingZeros64(g3)); lz > 0 {
		g3, g2 = g3<<lz|g2>>(64-lz), g2<<lz|g1>>(64-lz)
		shift += int(lz)
	}
	hi := float64(g3>>11) * pow2(-53-shift)
	lo := float64(g3&0x7ff<<53|g2>>11) * pow2(-117-shift)
	r := ddMul(quickTwoSum(hi, lo), dd{pio2Hi, pio2Lo})
	if negative {
		r = neg(r)
	}
	return j & 3, r
}

// sinK is sin(r.hi + r.lo) for |r| <= π/4: sin r.hi + r.lo cos r.hi, with cos r.hi ≈ 1 - r²/2
// in the small term.
func sinK(r dd) float64 {
	x := r.hi
	z := float64(x * x)
	p := sinC[len(sinC)-1]
	for i := len(sinC) - 2; i >= 0; i-- {
		p = sinC[i] + float64(z*p)
	}
	return x + (float64(float64(z*x)*p) + float64(r.lo*(1-float64(0.5*z))))
}

// cosK is cos(r.hi + r.lo) for |r| <= π/4: cos r.hi - r.lo sin r.hi, with 1 - r²/2 rounded
// once and its error carried into the small terms.
func cosK(r dd) float64 {
	x := r.hi
	z := float64(x * x)
	p := cosC[len(cosC)-1]
	for i := len(cosC) - 2; i >= 0; i-- {
		p = cosC[i] + float64(z*p)
	}
	hz := float64(0.5 * z)
	w := 1 - hz
	return w + (((1 - w) - hz) + (float64(float64(z*z)*p) - float64(x*r.lo)))
}

// Sin is the sine, within one ulp for every finite argument.
func Sin(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 0):
		return math.NaN()
	case x == 0:
		return x
	}
	ax := math.Abs(x)
	if ax <= pio4 {
		return sinK(dd{x, 0})
	}
	j, r := reduce(ax)
	var s float64
	switch j {
	case 0:
		s = sinK(r)
	case 1:
		s = cosK(r)
	case 2:
		s = -sinK(r)
	default:
		s = -cosK(r)
	}
	if x < 0 {
		s = -s
	}
	return s
}

// Cos is the cosine, within one ulp for every finite argument.
func Cos(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	ax := math.Abs(x)
	if ax <= pio4 {
		return cosK(dd{ax, 0})
	}
	j, r := reduce(ax)
	switch j {
	case 0:
		return cosK(r)
	case 1:
		return -sinK(r)
	case 2:
		return -cosK(r)
	}
	return sinK(r)
}
