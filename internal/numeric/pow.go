package numeric

// PowInt is a ^ n for n >= 0 with Int's wrapping arithmetic: the exact power modulo 2^64, as
// Haskell's (^) on Int computes it (n < 0 is the caller's error). The product modulo 2^64 does
// not depend on the order of the multiplications.
func PowInt(a, n int64) int64 { return power(a, n) }

// PowFloat is x ^ n for n >= 0, each multiplication rounded. The C (cnf_powf_) multiplies in
// the same sequence, so both give the same bits.
func PowFloat(x float64, n int64) float64 { return power(x, n) }

// power is x ^ n by repeated squaring.
func power[T int64 | float64](x T, n int64) T {
	r := T(1)
	for n > 0 {
		if n&1 == 1 {
			r *= x
		}
		n >>= 1
		if n > 0 {
			x *= x
		}
	}
	return r
}
