/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* normalizeInc, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* ys */ } cnf_result_normalizeInc;

/* Loop 1:
 *   sum1 = fold (+) 0 xs
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_normalizeInc(const Arr_Int v_xs, int64_t *restrict out_v_sum1) {
	int64_t v_sum1 = *out_v_sum1;
	{
	enum { L1_B = CNF_BLOCK(1 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_xs.len;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_xs = v_xs;
	int64_t L1_p_v_sum1[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L1_T)
	for (int L1_c = cnf_thread_num(); L1_c < L1_T; L1_c += cnf_num_threads()) {
		const int64_t L1_lo = cnf_chunk(L1_n, L1_T, L1_c), L1_hi = cnf_chunk(L1_n, L1_T, L1_c + 1);
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_acc_sum1 = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* sum1's accumulator */
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_n; L1_base < L1_n; L1_base += L1_step, L1_step = L1_n - L1_base) { /* one block, or a peel and one: no buffers */
			const int64_t L1_n_root = L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			/* The block's two halves read side by side, two streams from memory (interleave.go);
			 * the second half's folds combined into the first's after them, in order. */
			const int64_t L1_half = L1_n_root / 2;
			const int64_t *restrict L1_h2_b_xs = L1_b_xs + L1_half;
			int64_t L1_h2_acc_sum1 = INT64_C(0); /* the second half's, from the identity */
			CNF_IVDEP
			for (int64_t L1_j = 0; L1_j < L1_half; L1_j++) {
				{ /* the first half */
					const int64_t L1_k = L1_j;
					/* sum1 = fold (+) 0 xs */
					L1_acc_sum1 = (L1_acc_sum1 + L1_b_xs[L1_k]);
				}
				{ /* the second half */
					const int64_t L1_k = L1_j;
					const int64_t *restrict L1_b_xs = L1_h2_b_xs;
					int64_t L1_acc_sum1 = L1_h2_acc_sum1;
					/* sum1 = fold (+) 0 xs */
					L1_acc_sum1 = (L1_acc_sum1 + L1_b_xs[L1_k]);
					L1_h2_acc_sum1 = L1_acc_sum1;
				}
			}
			L1_acc_sum1 = (L1_acc_sum1 + L1_h2_acc_sum1);
			for (int64_t L1_k = 2 * L1_half; L1_k < L1_n_root; L1_k++) { /* the odd last element */
				/* sum1 = fold (+) 0 xs */
				L1_acc_sum1 = (L1_acc_sum1 + L1_b_xs[L1_k]);
			}
		}
		__asm__("" : "+r"(L1_acc_sum1)); /* in a general register (inRegister) */
		L1_p_v_sum1[L1_c] = L1_acc_sum1;
	}
	}
	cnf_team_done(L1_T);
	int64_t L1_acc_sum1 = L1_p_v_sum1[0]; /* sum1: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_T; L1_c++) L1_acc_sum1 = (L1_acc_sum1 + L1_p_v_sum1[L1_c]);
	v_sum1 = L1_acc_sum1;
	}
	*out_v_sum1 = v_sum1;
}

/* Loop 2:
 *   incs = map (+ 1) xs
 *   ys = map (/ sum1) incs
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L2_normalizeInc(const Arr_Int v_xs, const int64_t v_sum1, Arr_Int *restrict out_v_ys) {
	Arr_Int v_ys = *out_v_ys;
	{
	enum { L2_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L2_n = v_xs.len;
	static cnf_tune L2_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L2_moved = L2_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t));
	const int L2_pick = cnf_stream_pick(&L2_tune, L2_moved);
	const int L2_stream = L2_pick & 1; /* outputs by streaming stores */
	const double L2_t0 = L2_pick & 2 ? cnf_now() : 0;
	const int64_t L2_bstep = L2_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L2_B) : L2_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_ys.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ys", v_xs.data);
	v_ys.len = 0;
	const cnf_divider dv_sum1 = cnf_divider_for(v_sum1);
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	int L2_T = dv_sum1.d == 0 ? 1 : cnf_team(L2_n);
	const Arr_Int L2_o_v_xs = v_xs;
	const Arr_Int L2_o_v_ys = v_ys;
	int64_t L2_cnt_v_ys[CNF_MAX_THREADS];
	int L2_failed = 0; /* a chunk failed: the loop runs again on one thread */
	for (;;) { /* once; again on one thread if a chunk failed */
	#pragma omp parallel num_threads(L2_T)
	for (int L2_c = cnf_thread_num(); L2_c < L2_T; L2_c += cnf_num_threads()) {
		const int64_t L2_lo = cnf_chunk(L2_n, L2_T, L2_c), L2_hi = cnf_chunk(L2_n, L2_T, L2_c + 1);
		jmp_buf L2_jump;
		if (setjmp(L2_jump) != 0) { /* it failed: the loop runs again on one thread */
			cnf_team_jump = NULL;
			__atomic_store_n(&L2_failed, 1, __ATOMIC_RELAXED);
			if (L2_T <= 1) break; /* one thread: the first failure in order, reported as it is */
			continue;
		}
		cnf_team_jump = &L2_jump;
		const Arr_Int v_xs = {L2_o_v_xs.data + L2_lo, L2_hi - L2_lo};
		Arr_Int v_ys = {L2_o_v_ys.data + L2_lo, 0};
		const int64_t L2_n = L2_hi - L2_lo;
		int64_t L2_w_ys[L2_B]; /* a block of ys, written out by streaming stores */
		cnf_carry L2_cy_ys; /* and its last partial line */
		L2_cy_ys.n = 0;
		const int64_t L2_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L2_n);
		for (int64_t L2_base = 0, L2_step = L2_peel > 0 ? L2_peel : L2_stream ? L2_bstep : L2_n; L2_base < L2_n; L2_base += L2_step, L2_step = L2_stream ? L2_bstep : L2_n - L2_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L2_n_root = L2_n - L2_base < L2_step ? L2_n - L2_base : L2_step;
			const int64_t *restrict L2_b_xs = v_xs.data + L2_base;
			int64_t *restrict L2_b_ys = L2_stream ? L2_w_ys : v_ys.data + v_ys.len;
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* incs = map (+ 1) xs */
				const int64_t L2_v_incs = (L2_b_xs[L2_k] + INT64_C(1));
				/* ys = map (/ sum1) incs */
				const int64_t L2_v_ys = cnf_quot_by(L2_v_incs, dv_sum1, "ys");
				L2_b_ys[L2_k] = L2_v_ys;
			}
			if (L2_stream) cnf_stream_carry(&L2_cy_ys, v_ys.data + v_ys.len, L2_w_ys, (size_t)L2_n_root * sizeof *v_ys.data);
			v_ys.len += L2_n_root;
		}
		if (L2_stream) cnf_stream_flush(&L2_cy_ys, v_ys.data + v_ys.len);
		if (L2_stream) cnf_stream_fence();
		L2_cnt_v_ys[L2_c] = v_ys.len;
		cnf_team_jump = NULL;
	}
	if (!L2_failed) break;
	if (L2_T <= 1) cnf_refail(); /* the first failure in order, as one thread reports it */
	cnf_team_done(L2_T);
	L2_T = 1;
	L2_failed = 0;
	}
	/* ys: each chunk's piece after the ones before it */
	v_ys.len = cnf_team_move((char *)v_ys.data, sizeof *v_ys.data, L2_cnt_v_ys, L2_n, L2_T);
	cnf_team_done(L2_T);
	if (L2_pick & 2) cnf_stream_took(&L2_tune, L2_pick, L2_moved, L2_t0);
	}
	*out_v_ys = v_ys;
}

static cnf_result_normalizeInc cnf_normalizeInc(Arr_Int v_xs) {
	int64_t v_sum1 = 0;
	Arr_Int v_ys = {0};
	cnf_L1_normalizeInc(v_xs, &v_sum1); /* loop 1: sum1 */
	cnf_L2_normalizeInc(v_xs, v_sum1, &v_ys); /* loop 2: incs, ys */
	return (cnf_result_normalizeInc){v_ys};
}

