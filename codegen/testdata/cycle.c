/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* cycle, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* zs */ } cnf_result_cycle;

/* Loop 1:
 *   ys = map (+ 1) xs
 *   sum = fold (+) 0 ys
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_cycle(const Arr_Int v_xs, Arr_Int *restrict out_v_ys, int64_t *restrict out_v_sum) {
	Arr_Int v_ys = *out_v_ys;
	int64_t v_sum = *out_v_sum;
	{
	enum { L1_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_xs.len;
	static cnf_tune L1_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L1_moved = L1_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t));
	const int L1_pick = cnf_stream_pick(&L1_tune, L1_moved);
	const int L1_stream = L1_pick & 1; /* outputs by streaming stores */
	const double L1_t0 = L1_pick & 2 ? cnf_now() : 0;
	const int64_t L1_bstep = L1_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L1_B) : L1_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_ys.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ys", v_xs.data);
	v_ys.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_xs = v_xs;
	const Arr_Int L1_o_v_ys = v_ys;
	int64_t L1_cnt_v_ys[CNF_MAX_THREADS];
	int64_t L1_p_v_sum[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L1_T)
	for (int L1_c = cnf_thread_num(); L1_c < L1_T; L1_c += cnf_num_threads()) {
		const int64_t L1_lo = cnf_chunk(L1_n, L1_T, L1_c), L1_hi = cnf_chunk(L1_n, L1_T, L1_c + 1);
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ys = {L1_o_v_ys.data + L1_lo, 0};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_w_ys[L1_B]; /* a block of ys, written out by streaming stores */
		cnf_carry L1_cy_ys; /* and its last partial line */
		L1_cy_ys.n = 0;
		int64_t L1_acc_sum = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* sum's accumulator */
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_stream ? L1_bstep : L1_n; L1_base < L1_n; L1_base += L1_step, L1_step = L1_stream ? L1_bstep : L1_n - L1_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			int64_t *restrict L1_b_ys = L1_stream ? L1_w_ys : v_ys.data + v_ys.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* ys = map (+ 1) xs */
				const int64_t L1_v_ys = (L1_b_xs[L1_k] + INT64_C(1));
				L1_b_ys[L1_k] = L1_v_ys;
				/* sum = fold (+) 0 ys */
				L1_acc_sum = (L1_acc_sum + L1_v_ys);
			}
			if (L1_stream) cnf_stream_carry(&L1_cy_ys, v_ys.data + v_ys.len, L1_w_ys, (size_t)L1_n_root * sizeof *v_ys.data);
			v_ys.len += L1_n_root;
		}
		if (L1_stream) cnf_stream_flush(&L1_cy_ys, v_ys.data + v_ys.len);
		if (L1_stream) cnf_stream_fence();
		L1_cnt_v_ys[L1_c] = v_ys.len;
		__asm__("" : "+r"(L1_acc_sum)); /* in a general register (inRegister) */
		L1_p_v_sum[L1_c] = L1_acc_sum;
	}
	}
	/* ys: each chunk's piece after the ones before it */
	v_ys.len = cnf_team_move((char *)v_ys.data, sizeof *v_ys.data, L1_cnt_v_ys, L1_n, L1_T);
	cnf_team_done(L1_T);
	int64_t L1_acc_sum = L1_p_v_sum[0]; /* sum: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_T; L1_c++) L1_acc_sum = (L1_acc_sum + L1_p_v_sum[L1_c]);
	v_sum = L1_acc_sum;
	if (L1_pick & 2) cnf_stream_took(&L1_tune, L1_pick, L1_moved, L1_t0);
	}
	*out_v_ys = v_ys;
	*out_v_sum = v_sum;
}

/* Loop 2:
 *   zs = map (+ sum) ys
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L2_cycle(const Arr_Int v_ys, const int64_t v_sum, Arr_Int *restrict out_v_zs) {
	Arr_Int v_zs = *out_v_zs;
	{
	enum { L2_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L2_n = v_ys.len;
	static cnf_tune L2_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L2_moved = L2_n * (int64_t)(sizeof *v_ys.data + sizeof(int64_t));
	const int L2_pick = cnf_stream_pick(&L2_tune, L2_moved);
	const int L2_stream = L2_pick & 1; /* outputs by streaming stores */
	const double L2_t0 = L2_pick & 2 ? cnf_now() : 0;
	const int64_t L2_bstep = L2_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L2_B) : L2_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_zs.data = cnf_alloc_slack_at(v_ys.len, sizeof(int64_t), "zs", v_ys.data);
	v_zs.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L2_T = cnf_team(L2_n);
	const Arr_Int L2_o_v_ys = v_ys;
	const Arr_Int L2_o_v_zs = v_zs;
	int64_t L2_cnt_v_zs[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L2_T)
	for (int L2_c = cnf_thread_num(); L2_c < L2_T; L2_c += cnf_num_threads()) {
		const int64_t L2_lo = cnf_chunk(L2_n, L2_T, L2_c), L2_hi = cnf_chunk(L2_n, L2_T, L2_c + 1);
		const Arr_Int v_ys = {L2_o_v_ys.data + L2_lo, L2_hi - L2_lo};
		Arr_Int v_zs = {L2_o_v_zs.data + L2_lo, 0};
		const int64_t L2_n = L2_hi - L2_lo;
		int64_t L2_w_zs[L2_B]; /* a block of zs, written out by streaming stores */
		cnf_carry L2_cy_zs; /* and its last partial line */
		L2_cy_zs.n = 0;
		const int64_t L2_peel = cnf_peel(v_ys.data, sizeof *v_ys.data, L2_n);
		for (int64_t L2_base = 0, L2_step = L2_peel > 0 ? L2_peel : L2_stream ? L2_bstep : L2_n; L2_base < L2_n; L2_base += L2_step, L2_step = L2_stream ? L2_bstep : L2_n - L2_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L2_n_root = L2_n - L2_base < L2_step ? L2_n - L2_base : L2_step;
			const int64_t *restrict L2_b_ys = v_ys.data + L2_base;
			int64_t *restrict L2_b_zs = L2_stream ? L2_w_zs : v_zs.data + v_zs.len;
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* zs = map (+ sum) ys */
				const int64_t L2_v_zs = (L2_b_ys[L2_k] + v_sum);
				L2_b_zs[L2_k] = L2_v_zs;
			}
			if (L2_stream) cnf_stream_carry(&L2_cy_zs, v_zs.data + v_zs.len, L2_w_zs, (size_t)L2_n_root * sizeof *v_zs.data);
			v_zs.len += L2_n_root;
		}
		if (L2_stream) cnf_stream_flush(&L2_cy_zs, v_zs.data + v_zs.len);
		if (L2_stream) cnf_stream_fence();
		L2_cnt_v_zs[L2_c] = v_zs.len;
	}
	}
	/* zs: each chunk's piece after the ones before it */
	v_zs.len = cnf_team_move((char *)v_zs.data, sizeof *v_zs.data, L2_cnt_v_zs, L2_n, L2_T);
	cnf_team_done(L2_T);
	if (L2_pick & 2) cnf_stream_took(&L2_tune, L2_pick, L2_moved, L2_t0);
	}
	*out_v_zs = v_zs;
}

static cnf_result_cycle cnf_cycle(Arr_Int v_xs) {
	Arr_Int v_ys = {0};
	int64_t v_sum = 0;
	Arr_Int v_zs = {0};
	cnf_L1_cycle(v_xs, &v_ys, &v_sum); /* loop 1: ys, sum */
	cnf_L2_cycle(v_ys, v_sum, &v_zs); /* loop 2: zs */
	cnf_free(v_ys.data);
	return (cnf_result_cycle){v_zs};
}

