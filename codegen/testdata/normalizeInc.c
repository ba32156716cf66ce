/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* normalizeInc, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* ys */ } cnf_result_normalizeInc;

static cnf_result_normalizeInc cnf_normalizeInc(Arr_Int v_xs) {
	int64_t v_sum1;
	Arr_Int v_ys = {0};

	/* Loop 1:
	 *   sum1 = fold (+) 0 xs
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	const int64_t L1_n = v_xs.len;
	int64_t L1_acc_sum1 = INT64_C(0); /* sum1's accumulator */
	for (int64_t L1_base = 0; L1_base < L1_n; L1_base += L1_n) { /* one block: no buffers */
		const int64_t L1_n_root = L1_n;
		const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
		for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
			/* sum1 = fold (+) 0 xs */
			L1_acc_sum1 = (L1_acc_sum1 + L1_b_xs[L1_k]);
		}
	}
	v_sum1 = L1_acc_sum1;
	}

	/* Loop 2:
	 *   incs = map (+ 1) xs
	 *   ys = map (/ sum1) incs
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	const int64_t L2_n = v_xs.len;
	v_ys.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys"), sizeof(int64_t), "ys");
	v_ys.len = 0;
	const cnf_divider dv_sum1 = cnf_divider_for(v_sum1);
	for (int64_t L2_base = 0; L2_base < L2_n; L2_base += L2_n) { /* one block: no buffers */
		const int64_t L2_n_root = L2_n;
		const int64_t *restrict L2_b_xs = v_xs.data + L2_base;
		int64_t *restrict L2_b_ys = v_ys.data + v_ys.len;
		for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
			/* incs = map (+ 1) xs */
			const int64_t L2_v_incs = (L2_b_xs[L2_k] + INT64_C(1));
			/* ys = map (/ sum1) incs */
			const int64_t L2_v_ys = cnf_quot_by(L2_v_incs, dv_sum1, "ys");
			L2_b_ys[L2_k] = L2_v_ys;
		}
		v_ys.len += L2_n_root;
	}
	}
	return (cnf_result_normalizeInc){v_ys};
}

