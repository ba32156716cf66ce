package numeric

// Double-double arithmetic: a value is hi + lo with |lo| <= ulp(hi)/2, about 106 bits. Products
// are exact by Dekker's splitting (no fused multiply-add, so the C gives the same bits).
type dd struct{ hi, lo float64 }

// twoSum is a + b exactly, as the rounded sum and its error (Knuth).
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// quickTwoSum is twoSum for |a| >= |b| (or a = 0).
func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// split is a as two halves of 26 bits each (Veltkamp); |a| < 2^995.
func split(a float64) (float64, float64) {
	t := float64(134217729 * a)
	hi := t - (t - a)
	return hi, a - hi
}

// twoProd is a * b exactly, as the rounded product and its error (Dekker).
func twoProd(a, b float64) dd {
	p := float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	return dd{p, ((float64(ah*bh) - p) + float64(ah*bl) + float64(al*bh)) + float64(al*bl)}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s = quickTwoSum(s.hi, s.lo+t.hi)
	return quickTwoSum(s.hi, s.lo+t.lo)
}

func ddMul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	return quickTwoSum(p.hi, p.lo+(float64(a.hi*b.lo)+float64(a.lo*b.hi)))
}

func ddMulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	return quickTwoSum(p.hi, p.lo+float64(a.lo*b))
}

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddAdd(a, neg(ddMulF(b, q1)))
	q2 := r.hi / b.hi
	r = ddAdd(r, neg(ddMulF(b, q2)))
	q3 := r.hi / b.hi
	q := quickTwoSum(q1, q2)
	return ddAdd(q, dd{q3, 0})
}

func neg(a dd) dd { return dd{-a.hi, -a.lo} }
