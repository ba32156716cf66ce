package numeric

import "math"

// ln 2 in three parts (ln2A + ln2B is its double-double, ln2C what is left).
const (
	ln2A = 0x1.62e42fefa39efp-1
	ln2B = 0x1.abc9e3b39803fp-56
	ln2C = 0x1.7b57a079a1934p-111
)

// expDD are 1/n! for n = 2..27 and logDD 2/(2n+1) for n = 1..20, as double-doubles: the
// series of expDD and logDD to below 2^-104.
var expDD = [...]dd{
	{0x1.0000000000000p-1, 0}, {0x1.5555555555555p-3, 0x1.5555555555555p-57},
	{0x1.5555555555555p-5, 0x1.5555555555555p-59}, {0x1.1111111111111p-7, 0x1.1111111111111p-63},
	{0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65}, {0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73},
	{0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76}, {0x1.71de3a556c734p-19, -0x1.c154f8ddc6c00p-73},
	{0x1.27e4fb7789f5cp-22, 0x1.cbbc05b4fa99ap-76}, {0x1.ae64567f544e4p-26, -0x1.c062e06d1f209p-80},
	{0x1.1eed8eff8d898p-29, -0x1.2aec959e14c06p-83}, {0x1.6124613a86d09p-33, 0x1.f28e0cc748ebep-87},
	{0x1.93974a8c07c9dp-37, 0x1.05d6f8a2efd1fp-92}, {0x1.ae7f3e733b81fp-41, 0x1.1d8656b0ee8cbp-97},
	{0x1.ae7f3e733b81fp-45, 0x1.1d8656b0ee8cbp-101}, {0x1.952c77030ad4ap-49, 0x1.ac981465ddc6cp-103},
	{0x1.6827863b97d97p-53, 0x1.eec01221a8b0bp-107}, {0x1.2f49b46814157p-57, 0x1.2650f61dbdcb4p-112},
	{0x1.e542ba4020225p-62, 0x1.ea72b4afe3c2fp-120}, {0x1.71b8ef6dcf572p-66, -0x1.d043ae40c4647p-120},
	{0x1.0ce396db7f853p-70, -0x1.aebcdbd20331cp-124}, {0x1.761b41316381ap-75, -0x1.3423c7d91404fp-130},
	{0x1.f2cf01972f578p-80, -0x1.9ada5fcc1ab14p-135}, {0x1.3f3ccdd165fa9p-84, -0x1.58ddadf344487p-139},
	{0x1.88e85fc6a4e5ap-89, -0x1.71c37ebd16540p-143}, {0x1.d1ab1c2dccea3p-94, 0x1.054d0c78aea14p-149},
}

var logDD = [...]dd{
	{0x1.5555555555555p-1, 0x1.5555555555555p-55}, {0x1.999999999999ap-2, -0x1.999999999999ap-56},
	{0x1.2492492492492p-2, 0x1.2492492492492p-56}, {0x1.c71c71c71c71cp-3, 0x1.c71c71c71c71cp-57},
	{0x1.745d1745d1746p-3, -0x1.745d1745d1746p-58}, {0x1.3b13b13b13b14p-3, -0x1.3b13b13b13b14p-57},
	{0x1.1111111111111p-3, 0x1.1111111111111p-59}, {0x1.e1e1e1e1e1e1ep-4, 0x1.e1e1e1e1e1e1ep-60},
	{0x1.af286bca1af28p-4, 0x1.af286bca1af28p-58}, {0x1.8618618618618p-4, 0x1.8618618618618p-58},
	{0x1.642c8590b2164p-4, 0x1.642c8590b2164p-59}, {0x1.47ae147ae147bp-4, -0x1.eb851eb851eb8p-60},
	{0x1.2f684bda12f68p-4, 0x1.2f684bda12f68p-58}, {0x1.1a7b9611a7b96p-4, 0x1.1a7b9611a7b96p-60},
	{0x1.0842108421084p-4, 0x1.0842108421084p-59}, {0x1.f07c1f07c1f08p-5, -0x1.f07c1f07c1f08p-60},
	{0x1.d41d41d41d41dp-5, 0x1.0750750750750p-59}, {0x1.bacf914c1bad0p-5, -0x1.bacf914c1bad0p-59},
	{0x1.a41a41a41a41ap-5, 0x1.0690690690690p-59}, {0x1.8f9c18f9c18fap-5, -0x1.f3831f3831f38p-60},
}

// logAbsDD is log|x| as a double-double, for finite x != 0: |x| = 2^k m, m in [√½, √2],
// log m = 2 atanh(s) with s = (m-1)/(m+1) by its series.
func logAbsDD(x float64) dd {
	m, k := split2(math.Abs(x))
	s := ddDiv(dd{m - 1, 0}, twoSum(m, 1))
	z := ddMul(s, s)
	t := logDD[len(logDD)-1]
	for i := len(logDD) - 2; i >= 0; i-- {
		t = ddAdd(logDD[i], ddMul(z, t))
	}
	s2 := dd{2 * s.hi, 2 * s.lo}
	l := ddAdd(s2, ddMul(s2, ddMul(z, dd{0.5 * t.hi, 0.5 * t.lo})))
	dk := float64(k)
	kln2 := ddAdd(twoProd(dk, ln2A), ddAdd(twoProd(dk, ln2B), dd{float64(dk * ln2C), 0}))
	return ddAdd(kln2, l)
}

// expDDToFloat is e^(a.hi + a.lo) rounded once to a double (but where it is subnormal), for
// expUnder <= a.hi <= expOver.
func expDDToFloat(a dd) float64 {
	k := math.Floor(float64(a.hi*invLn2) + 0.5)
	kln2 := ddAdd(twoProd(k, ln2A), ddAdd(twoProd(k, ln2B), dd{float64(k * ln2C), 0}))
	r := ddAdd(a, neg(kln2))
	p := expDD[len(expDD)-1]
	for i := len(expDD) - 2; i >= 0; i-- {
		p = ddAdd(expDD[i], ddMul(r, p))
	}
	y := ddAdd(dd{1, 0}, ddAdd(r, ddMul(ddMul(r, r), p)))
	return scale(y.hi+y.lo, int(k))
}

// isOddInt reports whether y is an odd integer (every double of magnitude 2^53 or more is
// even).
func isOddInt(y float64) bool {
	return math.Abs(y) < 0x1p53 && y == math.Trunc(y) && int64(y)&1 == 1
}

// Pow is x ** y with the special values of C99's pow (Annex F, as Go's math.Pow too):
// e^(y log|x|) with log and exp in double-double arithmetic, the sign from y's parity.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y != y || x != x:
		return math.NaN()
	case x == 0:
		switch {
		case y < 0 && isOddInt(y):
			return math.Copysign(math.Inf(1), x)
		case y < 0:
			return math.Inf(1)
		case isOddInt(y):
			return x
		}
		return 0
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	case math.IsInf(x, 0):
		if x < 0 {
			return Pow(1/x, -y) // -0 ** -y, whose rules give the sign
		}
		if y < 0 {
			return 0
		}
		return math.Inf(1)
	case x < 0 && y != math.Trunc(y):
		return math.NaN()
	}
	sign := 1.0
	if x < 0 && isOddInt(y) {
		sign = -1
	}
	if math.Abs(y) >= 0x1p64 { // |y log|x|| > 2000 for every x != 1: over- or underflows
		if (math.Abs(x) > 1) == (y > 0) {
			return sign * math.Inf(1)
		}
		return sign * 0
	}
	l := logAbsDD(x)
	t := ddAdd(twoProd(y, l.hi), dd{float64(y * l.lo), 0})
	switch {
	case t.hi > expOver+1:
		return sign * math.Inf(1)
	case t.hi < expUnder-1:
		return sign * 0
	}
	return sign * expDDToFloat(t)
}
