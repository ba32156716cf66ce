package numeric

import (
	"fmt"
	"strconv"
	"strings"
)

// C is the C of this package: cnf_powi, cnf_powf, cnf_exp, cnf_log, cnf_sin, cnf_cos and
// cnf_pow, each the same algorithm as its Go function here, line by line, with the same
// tables (written from the Go arrays, so there is one copy of each constant). The code needs
// <stdint.h>, <math.h> (floor, trunc, fabs, copysign, INFINITY, NAN: all exact) and a
// compiler with unsigned __int128 (gcc, clang); it must be compiled with -ffp-contract=off.
func C() string {
	var b strings.Builder
	b.WriteString("/* cnf's arithmetic (internal/numeric): the reference interpreter's algorithms, so that both\n * give the same bits. Compile with -ffp-contract=off. */\n")
	b.WriteString("typedef struct { double hi, lo; } cnf_dd;\n")
	// table writes a C array of n items.
	table := func(ctype, name string, n int, item func(i int) string) {
		fmt.Fprintf(&b, "static const %s %s[%d] = {", ctype, name, n)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(item(i))
		}
		b.WriteString("};\n")
	}
	hex := func(x float64) string { return strconv.FormatFloat(x, 'x', -1, 64) }
	floats := func(name string, xs []float64) {
		table("double", name, len(xs), func(i int) string { return hex(xs[i]) })
	}
	dds := func(name string, xs []dd) {
		table("cnf_dd", name, len(xs), func(i int) string { return "{" + hex(xs[i].hi) + ", " + hex(xs[i].lo) + "}" })
	}
	floats("cnf_expC", expC[:])
	floats("cnf_logC", logC[:])
	floats("cnf_sinC", sinC[:])
	floats("cnf_cosC", cosC[:])
	dds("cnf_expDD", expDD[:])
	dds("cnf_logDD", logDD[:])
	table("uint64_t", "cnf_twoOverPi", len(twoOverPi), func(i int) string { return fmt.Sprintf("0x%016xULL", twoOverPi[i]) })
	consts := []struct {
		name string
		v    float64
	}{
		{"LN2HI", ln2Hi}, {"LN2LO", ln2Lo}, {"INVLN2", invLn2}, {"EXPOVER", expOver},
		{"EXPUNDER", expUnder}, {"SQRT2", sqrt2}, {"PIO2HI", pio2Hi}, {"PIO2LO", pio2Lo},
		{"PIO4", pio4}, {"LN2A", ln2A}, {"LN2B", ln2B}, {"LN2C", ln2C},
	}
	for _, c := range consts {
		fmt.Fprintf(&b, "#define CNF_%s %s\n", c.name, hex(c.v))
	}
	b.WriteString(cFunctions)
	return b.String()
}

// cFunctions mirrors pow.go, exp.go, log.go (split2 first), dd.go, trig.go and fpow.go in
// that order.
const cFunctions = `
static inline int64_t cnf_powi_(int64_t a, int64_t n) {
	uint64_t r = 1, x = (uint64_t)a;
	while (n > 0) {
		if (n & 1) r *= x;
		n >>= 1;
		if (n > 0) x *= x;
	}
	return (int64_t)r;
}

static inline double cnf_powf_(double x, int64_t n) {
	double r = 1.0;
	while (n > 0) {
		if (n & 1) r *= x;
		n >>= 1;
		if (n > 0) x *= x;
	}
	return r;
}

static inline double cnf_bits2f(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }
static inline uint64_t cnf_f2bits(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static inline double cnf_pow2(int k) { return cnf_bits2f((uint64_t)(k + 1023) << 52); }

static inline double cnf_scale(double y, int k) {
	if (k > 1023) return y * cnf_pow2(1023) * cnf_pow2(k - 1023);
	if (k < -1022) return y * cnf_pow2(k + 1000) * cnf_pow2(-1000);
	return y * cnf_pow2(k);
}

static double cnf_exp(double x) {
	if (x != x) return x;
	if (x > CNF_EXPOVER) return INFINITY;
	if (x < CNF_EXPUNDER) return 0;
	double k = floor(x * CNF_INVLN2 + 0.5);
	double r = (x - k * CNF_LN2HI) - k * CNF_LN2LO;
	int n = sizeof cnf_expC / sizeof cnf_expC[0];
	double p = cnf_expC[n - 1];
	for (int i = n - 2; i >= 0; i--) p = cnf_expC[i] + r * p;
	double y = 1 + (r + (r * r) * p);
	return cnf_scale(y, (int)k);
}

static inline double cnf_split2(double x, int *kp) {
	int k = 0;
	if (x < 0x1p-1022) { x *= 0x1p54; k = -54; }
	uint64_t b = cnf_f2bits(x);
	k += (int)(b >> 52 & 0x7ff) - 1023;
	double m = cnf_bits2f((b & ((1ULL << 52) - 1)) | (1023ULL << 52));
	if (m > CNF_SQRT2) { m *= 0.5; k++; }
	*kp = k;
	return m;
}

static double cnf_log(double x) {
	if (x != x || x > 0x1.fffffffffffffp+1023) return x;
	if (x < 0) return NAN;
	if (x == 0) return -INFINITY;
	int k;
	double m = cnf_split2(x, &k);
	double f = m - 1;
	double s = f / (2 + f);
	double z = s * s;
	int n = sizeof cnf_logC / sizeof cnf_logC[0];
	double r = cnf_logC[n - 1];
	for (int i = n - 2; i >= 0; i--) r = cnf_logC[i] + z * r;
	r = z * r;
	double hfsq = (0.5 * f) * f;
	double dk = (double)k;
	return dk * CNF_LN2HI - ((hfsq - (s * (hfsq + r) + dk * CNF_LN2LO)) - f);
}

static inline cnf_dd cnf_dd_of(double hi, double lo) { cnf_dd r = { hi, lo }; return r; }
static inline cnf_dd cnf_two_sum(double a, double b) {
	double s = a + b, bb = s - a;
	return cnf_dd_of(s, (a - (s - bb)) + (b - bb));
}
static inline cnf_dd cnf_quick_two_sum(double a, double b) {
	double s = a + b;
	return cnf_dd_of(s, b - (s - a));
}
static inline void cnf_split(double a, double *hi, double *lo) {
	double t = 134217729 * a;
	*hi = t - (t - a);
	*lo = a - *hi;
}
static inline cnf_dd cnf_two_prod(double a, double b) {
	double p = a * b, ah, al, bh, bl;
	cnf_split(a, &ah, &al);
	cnf_split(b, &bh, &bl);
	return cnf_dd_of(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}
static inline cnf_dd cnf_dd_add(cnf_dd a, cnf_dd b) {
	cnf_dd s = cnf_two_sum(a.hi, b.hi), t = cnf_two_sum(a.lo, b.lo);
	s = cnf_quick_two_sum(s.hi, s.lo + t.hi);
	return cnf_quick_two_sum(s.hi, s.lo + t.lo);
}
static inline cnf_dd cnf_dd_mul(cnf_dd a, cnf_dd b) {
	cnf_dd p = cnf_two_prod(a.hi, b.hi);
	return cnf_quick_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}
static inline cnf_dd cnf_dd_mulf(cnf_dd a, double b) {
	cnf_dd p = cnf_two_prod(a.hi, b);
	return cnf_quick_two_sum(p.hi, p.lo + a.lo * b);
}
static inline cnf_dd cnf_dd_neg(cnf_dd a) { return cnf_dd_of(-a.hi, -a.lo); }
static inline cnf_dd cnf_dd_div(cnf_dd a, cnf_dd b) {
	double q1 = a.hi / b.hi;
	cnf_dd r = cnf_dd_add(a, cnf_dd_neg(cnf_dd_mulf(b, q1)));
	double q2 = r.hi / b.hi;
	r = cnf_dd_add(r, cnf_dd_neg(cnf_dd_mulf(b, q2)));
	double q3 = r.hi / b.hi;
	cnf_dd q = cnf_quick_two_sum(q1, q2);
	return cnf_dd_add(q, cnf_dd_of(q3, 0));
}

static unsigned cnf_reduce(double x, cnf_dd *out) {
	uint64_t b = cnf_f2bits(x);
	int e = (int)(b >> 52) - 1075;
	uint64_t m = (b & ((1ULL << 52) - 1)) | (1ULL << 52);
	int p = e - 3 + 64;
	int w = p / 64;
	unsigned sh = (unsigned)(p % 64);
	uint64_t f[4];
	for (int i = 0; i < 4; i++) {
		f[i] = cnf_twoOverPi[w + i] << sh;
		if (sh > 0) f[i] |= cnf_twoOverPi[w + i + 1] >> (64 - sh);
	}
	unsigned __int128 q0 = (unsigned __int128)m * f[3], q1 = (unsigned __int128)m * f[2];
	unsigned __int128 q2 = (unsigned __int128)m * f[1], q3 = (unsigned __int128)m * f[0];
	uint64_t p0 = (uint64_t)q0;
	unsigned __int128 acc = (unsigned __int128)(uint64_t)q1 + (uint64_t)(q0 >> 64);
	uint64_t p1 = (uint64_t)acc;
	acc = (unsigned __int128)(uint64_t)q2 + (uint64_t)(q1 >> 64) + (uint64_t)(acc >> 64);
	uint64_t p2 = (uint64_t)acc;
	uint64_t p3 = (uint64_t)q3 + (uint64_t)(q2 >> 64) + (uint64_t)(acc >> 64);
	uint64_t j = p3 >> 61;
	uint64_t g3 = p3 << 3 | p2 >> 61, g2 = p2 << 3 | p1 >> 61, g1 = p1 << 3 | p0 >> 61;
	int negative = (int)(g3 >> 63);
	if (negative) {
		j++;
		uint64_t borrow = g1 != 0;
		g1 = 0 - g1;
		uint64_t borrow2 = (g2 != 0) | borrow;
		g2 = 0 - g2 - borrow;
		g3 = 0 - g3 - borrow2;
	}
	int shift = 0;
	while (g3 == 0 && shift < 128) { g3 = g2; g2 = g1; g1 = 0; shift += 64; }
	unsigned lz = g3 ? (unsigned)__builtin_clzll(g3) : 0;
	if (lz > 0) {
		g3 = g3 << lz | g2 >> (64 - lz);
		g2 = g2 << lz | g1 >> (64 - lz);
		shift += (int)lz;
	}
	double hi = (double)(g3 >> 11) * cnf_pow2(-53 - shift);
	double lo = (double)((g3 & 0x7ff) << 53 | g2 >> 11) * cnf_pow2(-117 - shift);
	cnf_dd r = cnf_dd_mul(cnf_quick_two_sum(hi, lo), cnf_dd_of(CNF_PIO2HI, CNF_PIO2LO));
	if (negative) r = cnf_dd_neg(r);
	*out = r;
	return (unsigned)(j & 3);
}

static inline double cnf_sin_k(cnf_dd r) {
	double x = r.hi, z = x * x;
	int n = sizeof cnf_sinC / sizeof cnf_sinC[0];
	double p = cnf_sinC[n - 1];
	for (int i = n - 2; i >= 0; i--) p = cnf_sinC[i] + z * p;
	return x + (((z * x) * p) + r.lo * (1 - 0.5 * z));
}

static inline double cnf_cos_k(cnf_dd r) {
	double x = r.hi, z = x * x;
	int n = sizeof cnf_cosC / sizeof cnf_cosC[0];
	double p = cnf_cosC[n - 1];
	for (int i = n - 2; i >= 0; i--) p = cnf_cosC[i] + z * p;
	double hz = 0.5 * z, w = 1 - hz;
	return w + (((1 - w) - hz) + ((z * z) * p - x * r.lo));
}

static double cnf_sin(double x) {
	if (x != x || x - x != 0) return NAN;
	if (x == 0) return x;
	double ax = fabs(x);
	if (ax <= CNF_PIO4) return cnf_sin_k(cnf_dd_of(x, 0));
	cnf_dd r;
	unsigned j = cnf_reduce(ax, &r);
	double s;
	switch (j) {
	case 0: s = cnf_sin_k(r); break;
	case 1: s = cnf_cos_k(r); break;
	case 2: s = -cnf_sin_k(r); break;
	default: s = -cnf_cos_k(r); break;
	}
	return x < 0 ? -s : s;
}

static double cnf_cos(double x) {
	if (x != x || x - x != 0) return NAN;
	double ax = fabs(x);
	if (ax <= CNF_PIO4) return cnf_cos_k(cnf_dd_of(ax, 0));
	cnf_dd r;
	unsigned j = cnf_reduce(ax, &r);
	switch (j) {
	case 0: return cnf_cos_k(r);
	case 1: return -cnf_sin_k(r);
	case 2: return -cnf_cos_k(r);
	}
	return cnf_sin_k(r);
}

static cnf_dd cnf_log_abs_dd(double x) {
	int k;
	double m = cnf_split2(fabs(x), &k);
	cnf_dd s = cnf_dd_div(cnf_dd_of(m - 1, 0), cnf_two_sum(m, 1));
	cnf_dd z = cnf_dd_mul(s, s);
	int n = sizeof cnf_logDD / sizeof cnf_logDD[0];
	cnf_dd t = cnf_logDD[n - 1];
	for (int i = n - 2; i >= 0; i--) t = cnf_dd_add(cnf_logDD[i], cnf_dd_mul(z, t));
	cnf_dd s2 = cnf_dd_of(2 * s.hi, 2 * s.lo);
	cnf_dd l = cnf_dd_add(s2, cnf_dd_mul(s2, cnf_dd_mul(z, cnf_dd_of(0.5 * t.hi, 0.5 * t.lo))));
	double dk = (double)k;
	cnf_dd kln2 = cnf_dd_add(cnf_two_prod(dk, CNF_LN2A), cnf_dd_add(cnf_two_prod(dk, CNF_LN2B), cnf_dd_of(dk * CNF_LN2C, 0)));
	return cnf_dd_add(kln2, l);
}

static double cnf_exp_dd(cnf_dd a) {
	double k = floor(a.hi * CNF_INVLN2 + 0.5);
	cnf_dd kln2 = cnf_dd_add(cnf_two_prod(k, CNF_LN2A), cnf_dd_add(cnf_two_prod(k, CNF_LN2B), cnf_dd_of(k * CNF_LN2C, 0)));
	cnf_dd r = cnf_dd_add(a, cnf_dd_neg(kln2));
	int n = sizeof cnf_expDD / sizeof cnf_expDD[0];
	cnf_dd p = cnf_expDD[n - 1];
	for (int i = n - 2; i >= 0; i--) p = cnf_dd_add(cnf_expDD[i], cnf_dd_mul(r, p));
	cnf_dd y = cnf_dd_add(cnf_dd_of(1, 0), cnf_dd_add(r, cnf_dd_mul(cnf_dd_mul(r, r), p)));
	return cnf_scale(y.hi + y.lo, (int)k);
}

static inline int cnf_is_odd_int(double y) {
	return fabs(y) < 0x1p53 && y == trunc(y) && ((int64_t)y & 1) == 1;
}

static double cnf_pow(double x, double y) {
	if (y == 0 || x == 1) return 1;
	if (y != y || x != x) return NAN;
	if (x == 0) {
		if (y < 0 && cnf_is_odd_int(y)) return copysign(INFINITY, x);
		if (y < 0) return INFINITY;
		if (cnf_is_odd_int(y)) return x;
		return 0;
	}
	if (y - y != 0) {
		if (x == -1) return 1;
		if ((fabs(x) < 1) == (y > 0)) return 0;
		return INFINITY;
	}
	if (x - x != 0) {
		if (x < 0) return cnf_pow(1 / x, -y);
		if (y < 0) return 0;
		return INFINITY;
	}
	if (x < 0 && y != trunc(y)) return NAN;
	double sign = 1.0;
	if (x < 0 && cnf_is_odd_int(y)) sign = -1;
	if (fabs(y) >= 0x1p64) {
		if ((fabs(x) > 1) == (y > 0)) return sign * INFINITY;
		return sign * 0;
	}
	cnf_dd l = cnf_log_abs_dd(x);
	cnf_dd t = cnf_dd_add(cnf_two_prod(y, l.hi), cnf_dd_of(y * l.lo, 0));
	if (t.hi > CNF_EXPOVER + 1) return sign * INFINITY;
	if (t.hi < CNF_EXPUNDER - 1) return sign * 0;
	return sign * cnf_exp_dd(t);
}
`
