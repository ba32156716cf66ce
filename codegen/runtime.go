package codegen

// runtimeC is the part of every generated file that does not depend on the program: integer
// division and powers as the reference interpreter defines them (fuse's arith: division by zero
// is an error, MinInt64 / -1 wraps), comparison of Floats as the interpreter compares them (NaN
// is neither smaller nor larger, so it compares equal), Float to Int conversion as Go's on
// amd64 (NaN and out-of-range values give MinInt64), and failing with a located message.
// Generated code is compiled with -fwrapv, so Int arithmetic wraps as Go's does.
const runtimeC = `#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <math.h>

/* cnf_fail reports a run-time error at a binding and ends the program (exit status 3). */
static void cnf_fail(const char *where, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3), cold));
static void cnf_fail(const char *where, const char *fmt, ...) {
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(3);
}

static inline int64_t cnf_quot(int64_t a, int64_t b, const char *w) {
	if (__builtin_expect(b == 0, 0)) cnf_fail(w, "division by zero");
	if (b == -1) return (int64_t)(0 - (uint64_t)a);
	return a / b;
}

static inline int64_t cnf_rem(int64_t a, int64_t b, const char *w) {
	if (__builtin_expect(b == 0, 0)) cnf_fail(w, "division by zero");
	if (b == -1) return 0;
	return a % b;
}

static inline int64_t cnf_div(int64_t a, int64_t b, const char *w) {
	int64_t q = cnf_quot(a, b, w);
	if (cnf_rem(a, b, w) != 0 && ((a < 0) != (b < 0))) q--;
	return q;
}

static inline int64_t cnf_mod(int64_t a, int64_t b, const char *w) {
	int64_t m = cnf_rem(a, b, w);
	if (m != 0 && ((m < 0) != (b < 0))) m += b;
	return m;
}

static inline int64_t cnf_powi(int64_t a, int64_t b, const char *w) {
	if (b < 0) cnf_fail(w, "negative exponent %lld", (long long)b);
	uint64_t r = 1;
	for (int64_t k = 0; k < b && k < 64; k++) r *= (uint64_t)a;
	return (int64_t)r;
}

static inline int cnf_cmp_Int(int64_t a, int64_t b) { return (a > b) - (a < b); }
static inline int cnf_cmp_Float(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }
static inline int cnf_cmp_Bool(bool a, bool b) { return (int)a - (int)b; }

static inline int64_t cnf_f2i(double x) {
	if (isnan(x) || x >= 9223372036854775808.0 || x < -9223372036854775808.0) return INT64_MIN;
	return (int64_t)x;
}

/* cnf_alloc allocates n elements of size bytes for the array of binding w. */
static void *cnf_alloc(int64_t n, size_t size, const char *w) {
	if (n < 0) n = 0;
	if ((uint64_t)n > SIZE_MAX / size) cnf_fail(w, "cannot allocate %lld elements", (long long)n);
	void *p = malloc(n == 0 ? 1 : (size_t)n * size);
	if (p == NULL) cnf_fail(w, "cannot allocate %lld elements (%lld bytes)", (long long)n, (long long)n * (long long)size);
	return p;
}

static inline int64_t cnf_bound_add(int64_t a, int64_t b, const char *w) {
	int64_t r;
	if (__builtin_add_overflow(a, b, &r)) cnf_fail(w, "the array would have more than 2^63 elements");
	return r;
}

static inline int64_t cnf_bound_mul(int64_t a, int64_t b, const char *w) {
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r)) cnf_fail(w, "the array would have more than 2^63 elements");
	return r;
}

/* CNF_AT is xs ! i: the element, or the interpreter's error when i is out of range. */
#define CNF_AT(a, i, w) ({ __typeof__(a) cnf_a_ = (a); int64_t cnf_i_ = (i); \
	if (__builtin_expect(cnf_i_ < 0 || cnf_i_ >= cnf_a_.len, 0)) \
		cnf_fail(w, "index %lld out of range for an array of %lld elements", (long long)cnf_i_, (long long)cnf_a_.len); \
	cnf_a_.data[cnf_i_]; })
`
