/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { double f0; double f1; } Tup2_Float_Float;
typedef struct { Tup2_Float_Float *data; int64_t len; } Arr_Tup2_Float_Float;

/* Helpers */
static inline double cnf_select_Float(int c, double x, double y) {
	uint64_t m = -(uint64_t)(c != 0), a, b;
	memcpy(&a, &x, 8);
	memcpy(&b, &y, 8);
	a = (a & m) | (b & ~m);
	double r;
	memcpy(&r, &a, 8);
	return r;
}
static inline double cnf_min_Float(double a, double b) { return cnf_select_Float(a > b, b, a); }
static inline double cnf_max_Float(double a, double b) { return cnf_select_Float(a > b, a, b); }
#if defined(__AVX512F__) && defined(__x86_64__)
static inline double cnf_min_Float_sse(double a, double b) { double r; __asm__("vminsd %2, %1, %0" : "=v"(r) : "v"(b), "v"(a)); return r; }
#elif defined(__AVX__) && (defined(__x86_64__) || defined(__i386__))
static inline double cnf_min_Float_sse(double a, double b) { double r; __asm__("vminsd %2, %1, %0" : "=x"(r) : "x"(b), "x"(a)); return r; }
#elif defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
static inline double cnf_min_Float_sse(double a, double b) { __asm__("minsd %1, %0" : "+x"(b) : "x"(a)); return b; }
#else
static inline double cnf_min_Float_sse(double a, double b) { return cnf_min_Float(a, b); }
#endif
#if defined(__AVX512F__) && defined(__x86_64__)
static inline double cnf_max_Float_sse(double a, double b) { double r; __asm__("vmaxsd %2, %1, %0" : "=v"(r) : "v"(a), "v"(b)); return r; }
#elif defined(__AVX__) && (defined(__x86_64__) || defined(__i386__))
static inline double cnf_max_Float_sse(double a, double b) { double r; __asm__("vmaxsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
#elif defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
static inline double cnf_max_Float_sse(double a, double b) { __asm__("maxsd %1, %0" : "+x"(a) : "x"(b)); return a; }
#else
static inline double cnf_max_Float_sse(double a, double b) { return cnf_max_Float(a, b); }
#endif

/* initialBounds, compiled from its clustering into 1 loops. */
typedef struct { double r0; /* x1 */ double r1; /* y1 */ double r2; /* x2 */ double r3; /* y2 */ } cnf_result_initialBounds;

/* Loop 1:
 *   xs = map fst pts
 *   ys = map snd pts
 *   x1 = fold min infinity xs
 *   x2 = fold max negInfinity xs
 *   y1 = fold min infinity ys
 *   y2 = fold max negInfinity ys
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_initialBounds(const Arr_Tup2_Float_Float v_pts, double *restrict out_v_x1, double *restrict out_v_x2, double *restrict out_v_y1, double *restrict out_v_y2) {
	double v_x1 = *out_v_x1;
	double v_x2 = *out_v_x2;
	double v_y1 = *out_v_y1;
	double v_y2 = *out_v_y2;
	{
	/* On one thread: x1 is a Float fold, which is not reassociated without --reassociate-floats (its rounding would change). */
	enum { L1_B = CNF_BLOCK(1 * sizeof(Tup2_Float_Float)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_pts.len;
	double L1_acc_x1 = INFINITY; /* x1's accumulator */
	double L1_acc_x2 = (-INFINITY); /* x2's accumulator */
	double L1_acc_y1 = INFINITY; /* y1's accumulator */
	double L1_acc_y2 = (-INFINITY); /* y2's accumulator */
	const int64_t L1_peel = cnf_peel(v_pts.data, sizeof *v_pts.data, L1_n);
	for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_n; L1_base < L1_n; L1_base += L1_step, L1_step = L1_n - L1_base) { /* one block, or a peel and one: no buffers */
		const int64_t L1_n_root = L1_step;
		const Tup2_Float_Float *restrict L1_b_pts = v_pts.data + L1_base;
		CNF_IVDEP
		for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
			/* xs = map fst pts */
			const double L1_v_xs = (L1_b_pts[L1_k]).f0;
			/* ys = map snd pts */
			const double L1_v_ys = (L1_b_pts[L1_k]).f1;
			/* x1 = fold min infinity xs */
			L1_acc_x1 = cnf_min_Float_sse(L1_acc_x1, L1_v_xs);
			/* x2 = fold max negInfinity xs */
			L1_acc_x2 = cnf_max_Float_sse(L1_acc_x2, L1_v_xs);
			/* y1 = fold min infinity ys */
			L1_acc_y1 = cnf_min_Float_sse(L1_acc_y1, L1_v_ys);
			/* y2 = fold max negInfinity ys */
			L1_acc_y2 = cnf_max_Float_sse(L1_acc_y2, L1_v_ys);
		}
	}
	v_x1 = L1_acc_x1;
	v_x2 = L1_acc_x2;
	v_y1 = L1_acc_y1;
	v_y2 = L1_acc_y2;
	}
	*out_v_x1 = v_x1;
	*out_v_x2 = v_x2;
	*out_v_y1 = v_y1;
	*out_v_y2 = v_y2;
}

static cnf_result_initialBounds cnf_initialBounds(Arr_Tup2_Float_Float v_pts) {
	double v_x1 = 0;
	double v_x2 = 0;
	double v_y1 = 0;
	double v_y2 = 0;
	cnf_L1_initialBounds(v_pts, &v_x1, &v_x2, &v_y1, &v_y2); /* loop 1: xs, ys, x1, x2, y1, y2 */
	return (cnf_result_initialBounds){v_x1, v_y1, v_x2, v_y2};
}

/* go: cannot compile: quadtree:16:35: unknown host function splitbox: give its C implementation with --host FILE.c */

