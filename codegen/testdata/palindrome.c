/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* palindrome, compiled from its clustering into 3 loops. */
typedef struct { Arr_Int r0; /* pal */ int64_t r1; /* n */ int64_t r2; /* total */ Arr_Int r3; /* middle */ } cnf_result_palindrome;

/* Loop 1:
 *   doubled = map (* 2) xs
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_palindrome(const Arr_Int v_xs, Arr_Int *restrict out_v_doubled) {
	Arr_Int v_doubled = *out_v_doubled;
	{
	enum { L1_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_xs.len;
	static cnf_tune L1_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L1_moved = L1_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t));
	const int L1_pick = cnf_stream_pick(&L1_tune, L1_moved);
	const int L1_stream = L1_pick & 1; /* outputs by streaming stores */
	const double L1_t0 = L1_pick & 2 ? cnf_now() : 0;
	const int64_t L1_bstep = L1_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L1_B) : L1_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_doubled.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "doubled", v_xs.data);
	v_doubled.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_xs = v_xs;
	const Arr_Int L1_o_v_doubled = v_doubled;
	int64_t L1_cnt_v_doubled[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L1_T)
	for (int L1_c = cnf_thread_num(); L1_c < L1_T; L1_c += cnf_num_threads()) {
		const int64_t L1_lo = cnf_chunk(L1_n, L1_T, L1_c), L1_hi = cnf_chunk(L1_n, L1_T, L1_c + 1);
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_doubled = {L1_o_v_doubled.data + L1_lo, 0};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_w_doubled[L1_B]; /* a block of doubled, written out by streaming stores */
		cnf_carry L1_cy_doubled; /* and its last partial line */
		L1_cy_doubled.n = 0;
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_stream ? L1_bstep : L1_n; L1_base < L1_n; L1_base += L1_step, L1_step = L1_stream ? L1_bstep : L1_n - L1_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			int64_t *restrict L1_b_doubled = L1_stream ? L1_w_doubled : v_doubled.data + v_doubled.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* doubled = map (* 2) xs */
				const int64_t L1_v_doubled = (L1_b_xs[L1_k] * INT64_C(2));
				L1_b_doubled[L1_k] = L1_v_doubled;
			}
			if (L1_stream) cnf_stream_carry(&L1_cy_doubled, v_doubled.data + v_doubled.len, L1_w_doubled, (size_t)L1_n_root * sizeof *v_doubled.data);
			v_doubled.len += L1_n_root;
		}
		if (L1_stream) cnf_stream_flush(&L1_cy_doubled, v_doubled.data + v_doubled.len);
		if (L1_stream) cnf_stream_fence();
		L1_cnt_v_doubled[L1_c] = v_doubled.len;
	}
	}
	/* doubled: each chunk's piece after the ones before it */
	v_doubled.len = cnf_team_move((char *)v_doubled.data, sizeof *v_doubled.data, L1_cnt_v_doubled, L1_n, L1_T);
	cnf_team_done(L1_T);
	if (L1_pick & 2) cnf_stream_took(&L1_tune, L1_pick, L1_moved, L1_t0);
	}
	*out_v_doubled = v_doubled;
}

/* Loop 2:
 *   back = reverse doubled
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L2_palindrome(const Arr_Int v_doubled, Arr_Int *restrict out_v_back) {
	Arr_Int v_back = *out_v_back;
	{
	enum { L2_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L2_n = v_doubled.len;
	static cnf_tune L2_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L2_moved = L2_n * (int64_t)(sizeof *v_doubled.data + sizeof(int64_t));
	const int L2_pick = cnf_stream_pick(&L2_tune, L2_moved);
	const int L2_stream = L2_pick & 1; /* outputs by streaming stores */
	const double L2_t0 = L2_pick & 2 ? cnf_now() : 0;
	const int64_t L2_bstep = L2_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L2_B) : L2_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_back.data = cnf_alloc_slack_at(v_doubled.len, sizeof(int64_t), "back", v_doubled.data);
	v_back.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L2_T = cnf_team(L2_n);
	const Arr_Int L2_o_v_doubled = v_doubled;
	const Arr_Int L2_o_v_back = v_back;
	int64_t L2_cnt_v_back[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L2_T)
	for (int L2_c = cnf_thread_num(); L2_c < L2_T; L2_c += cnf_num_threads()) {
		const int64_t L2_lo = cnf_chunk(L2_n, L2_T, L2_c), L2_hi = cnf_chunk(L2_n, L2_T, L2_c + 1);
		const Arr_Int v_doubled = {L2_o_v_doubled.data + L2_lo, L2_hi - L2_lo};
		Arr_Int v_back = {L2_o_v_back.data + L2_lo, 0};
		const int64_t L2_n = L2_hi - L2_lo;
		int64_t L2_w_back[L2_B]; /* a block of back, written out by streaming stores */
		cnf_carry L2_cy_back; /* and its last partial line */
		L2_cy_back.n = 0;
		const int64_t L2_peel = cnf_peel(v_doubled.data, sizeof *v_doubled.data, L2_n);
		for (int64_t L2_base = 0, L2_step = L2_peel > 0 ? L2_peel : L2_stream ? L2_bstep : L2_n; L2_base < L2_n; L2_base += L2_step, L2_step = L2_stream ? L2_bstep : L2_n - L2_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L2_n_root = L2_n - L2_base < L2_step ? L2_n - L2_base : L2_step;
			const int64_t *restrict L2_b_doubled = v_doubled.data + L2_base;
			int64_t *restrict L2_b_back = L2_stream ? L2_w_back : v_back.data + v_back.len;
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* back = reverse doubled */
				const int64_t L2_v_back = L2_o_v_doubled.data[L2_o_v_doubled.len - 1 - (L2_lo + L2_base + L2_k)];
				L2_b_back[L2_k] = L2_v_back;
			}
			if (L2_stream) cnf_stream_carry(&L2_cy_back, v_back.data + v_back.len, L2_w_back, (size_t)L2_n_root * sizeof *v_back.data);
			v_back.len += L2_n_root;
		}
		if (L2_stream) cnf_stream_flush(&L2_cy_back, v_back.data + v_back.len);
		if (L2_stream) cnf_stream_fence();
		L2_cnt_v_back[L2_c] = v_back.len;
	}
	}
	/* back: each chunk's piece after the ones before it */
	v_back.len = cnf_team_move((char *)v_back.data, sizeof *v_back.data, L2_cnt_v_back, L2_n, L2_T);
	cnf_team_done(L2_T);
	if (L2_pick & 2) cnf_stream_took(&L2_tune, L2_pick, L2_moved, L2_t0);
	}
	*out_v_back = v_back;
}

/* Loop 3:
 *   pal = append doubled back
 *   total = fold (+) 0 pal
 *   middle = slice half 1 pal
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L3_palindrome(const Arr_Int v_doubled, const Arr_Int v_back, const int64_t v_half, Arr_Int *restrict out_v_pal, int64_t *restrict out_v_total, Arr_Int *restrict out_v_middle) {
	Arr_Int v_pal = *out_v_pal;
	int64_t v_total = *out_v_total;
	Arr_Int v_middle = *out_v_middle;
	{
	enum { L3_B = CNF_BLOCK(2 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L3_n = v_doubled.len + v_back.len;
	static cnf_tune L3_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L3_moved = L3_n * (int64_t)(sizeof *v_doubled.data + sizeof(int64_t) + sizeof(int64_t));
	const int L3_pick = cnf_stream_pick(&L3_tune, L3_moved);
	const int L3_stream = L3_pick & 1; /* outputs by streaming stores */
	const double L3_t0 = L3_pick & 2 ? cnf_now() : 0;
	const int64_t L3_bstep = L3_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t) + sizeof(int64_t)), L3_B) : L3_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_pal.data = cnf_alloc_slack(cnf_bound_add(v_doubled.len, v_back.len, "pal"), sizeof(int64_t), "pal");
	v_pal.len = 0;
	v_middle.data = cnf_alloc_slack(cnf_bound_add(v_doubled.len, v_back.len, "pal"), sizeof(int64_t), "middle");
	v_middle.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L3_T = cnf_team(L3_n);
	const Arr_Int L3_o_v_middle = v_middle;
	const Arr_Int L3_o_v_pal = v_pal;
	int64_t L3_cnt_v_middle[CNF_MAX_THREADS];
	int64_t L3_cnt_v_pal[CNF_MAX_THREADS];
	int64_t L3_p_v_total[CNF_MAX_THREADS];
	int L3_Tc = L3_T;
	{
	/* In tiles (codegen/parallel.go, tiledLoop): each filtered output written once, in place. */
	const int64_t L3_tile = cnf_tile(), L3_K = L3_n > 0 ? (L3_n + L3_tile - 1) / L3_tile : 1;
	int64_t *L3_at = cnf_alloc_made(0, (L3_K + 1) * 1, sizeof(int64_t), "tiles", 0); /* where each tile's outputs start */
	int *L3_ready = cnf_alloc_made(0, L3_K + 1, sizeof(int), "tiles", 0); /* tile k's starts are published */
	memset(L3_ready, 0, (size_t)(L3_K + 1) * sizeof(int));
	for (int L3_i = 0; L3_i < 1; L3_i++) L3_at[L3_i] = 0;
	L3_ready[0] = 1;
	int64_t *L3_pt_v_total = cnf_alloc_made(0, L3_K, sizeof(int64_t), "tiles", 0);
	int64_t *L3_buf_v_middle = cnf_alloc_made(0, (L3_tile + 1) * L3_T, sizeof(int64_t), "tiles", 0); /* a tile's middle, a thread's buffer each */
	int64_t L3_next = 0;
	#pragma omp parallel num_threads(L3_T)
	for (int64_t L3_c = __atomic_fetch_add(&L3_next, 1, __ATOMIC_RELAXED); L3_c < L3_K; L3_c = __atomic_fetch_add(&L3_next, 1, __ATOMIC_RELAXED)) {
		const int64_t L3_lo = L3_c * L3_tile, L3_hi = L3_lo + L3_tile < L3_n ? L3_lo + L3_tile : L3_n;
		Arr_Int v_middle = {L3_T > 1 ? L3_buf_v_middle + (L3_tile + 1) * cnf_thread_num() : L3_o_v_middle.data + L3_at[L3_c * 1 + 0], 0};
		Arr_Int v_pal = {L3_o_v_pal.data + L3_lo, 0};
		const int64_t L3_n = L3_hi - L3_lo;
		const int L3_kstream = L3_stream && L3_T <= 1; /* outputs at a filter's rate too: on more threads, each thread's buffer is streamed out (cnf_copy_out) */
		int64_t L3_w_pal[L3_B]; /* a block of pal, written out by streaming stores */
		cnf_carry L3_cy_pal; /* and its last partial line */
		L3_cy_pal.n = 0;
		int64_t L3_acc_total = L3_c == 0 ? INT64_C(0) : INT64_C(0); /* total's accumulator */
		int64_t L3_t_middle = 0;
		int64_t L3_w_middle[L3_B]; /* a block of middle, written out by streaming stores */
		cnf_carry L3_cy_middle; /* and its last partial line */
		L3_cy_middle.n = 0;
		for (int64_t L3_base = 0, L3_step = 0 > 0 ? 0 : L3_bstep; L3_base < L3_n; L3_base += L3_step, L3_step = L3_bstep) {
			if (L3_base < (v_doubled.len - L3_lo) && (v_doubled.len - L3_lo) - L3_base < L3_step) L3_step = (v_doubled.len - L3_lo) - L3_base; /* a block of doubled's elements, or of back's */
			const int64_t L3_n_root = L3_n - L3_base < L3_step ? L3_n - L3_base : L3_step;
			int64_t *restrict L3_b_pal = L3_stream ? L3_w_pal : v_pal.data + v_pal.len;
			CNF_IVDEP
			for (int64_t L3_k = 0; L3_k < L3_n_root; L3_k++) {
				/* pal = append doubled back */
				const int64_t L3_v_pal = ((L3_lo + L3_base) < v_doubled.len ? v_doubled.data + (L3_lo + L3_base) : v_back.data + ((L3_lo + L3_base) - v_doubled.len))[L3_k];
				L3_b_pal[L3_k] = L3_v_pal;
				/* total = fold (+) 0 pal */
				L3_acc_total = (L3_acc_total + L3_v_pal);
			}
			if (L3_stream) cnf_stream_carry(&L3_cy_pal, v_pal.data + v_pal.len, L3_w_pal, (size_t)L3_n_root * sizeof *v_pal.data);
			v_pal.len += L3_n_root;
			/* middle = slice half 1 pal: a run of the block, without a mask */
			const int64_t L3_from_middle = cnf_run_clamp((__int128)(v_half) - (L3_lo + L3_base + 0), 0, L3_n_root);
			const int64_t L3_to_middle = cnf_run_clamp((__int128)(v_half) + (INT64_C(1)) - (L3_lo + L3_base + 0), L3_from_middle, L3_n_root);
			const int64_t L3_n_middle = L3_to_middle - L3_from_middle;
			int64_t *restrict L3_b_middle = L3_kstream ? L3_w_middle : v_middle.data + v_middle.len;
			memcpy(L3_b_middle, L3_b_pal + L3_from_middle, (size_t)L3_n_middle * sizeof *L3_b_middle);
			if (L3_kstream) cnf_stream_carry(&L3_cy_middle, v_middle.data + v_middle.len, L3_w_middle, (size_t)L3_n_middle * sizeof *v_middle.data);
			v_middle.len += L3_n_middle;
			L3_t_middle += L3_n_middle;
		}
		if (L3_kstream) cnf_stream_flush(&L3_cy_middle, v_middle.data + v_middle.len);
		if (L3_stream) cnf_stream_flush(&L3_cy_pal, v_pal.data + v_pal.len);
		if (L3_stream) cnf_stream_fence();
		__asm__("" : "+r"(L3_acc_total)); /* in a general register (inRegister) */
		L3_pt_v_total[L3_c] = L3_acc_total;
		cnf_wait(&L3_ready[L3_c]);
		const int64_t L3_at_v_middle = L3_at[L3_c * 1 + 0];
		L3_at[(L3_c + 1) * 1 + 0] = L3_at_v_middle + v_middle.len;
		__atomic_store_n(&L3_ready[L3_c + 1], 1, __ATOMIC_RELEASE);
		if (v_middle.len > 0 && L3_T > 1) cnf_copy_out(L3_o_v_middle.data + L3_at_v_middle, v_middle.data, (size_t)v_middle.len * sizeof *v_middle.data);
	}
	L3_cnt_v_middle[0] = L3_at[L3_K * 1 + 0];
	L3_cnt_v_pal[0] = L3_n;
	L3_p_v_total[0] = L3_pt_v_total[0]; /* total: the tiles' partial results, in order */
	for (int64_t L3_k = 1; L3_k < L3_K; L3_k++) L3_p_v_total[0] = (L3_p_v_total[0] + L3_pt_v_total[L3_k]);
	cnf_free(L3_pt_v_total);
	cnf_free(L3_buf_v_middle);
	cnf_free(L3_at);
	cnf_free(L3_ready);
	L3_Tc = 1;
	}
	/* middle: each chunk's piece after the ones before it */
	v_middle.len = cnf_team_move((char *)v_middle.data, sizeof *v_middle.data, L3_cnt_v_middle, L3_n, L3_Tc);
	/* pal: each chunk's piece after the ones before it */
	v_pal.len = cnf_team_move((char *)v_pal.data, sizeof *v_pal.data, L3_cnt_v_pal, L3_n, L3_Tc);
	cnf_team_done(L3_T);
	int64_t L3_acc_total = L3_p_v_total[0]; /* total: the chunks' partial results, in order */
	for (int L3_c = 1; L3_c < L3_Tc; L3_c++) L3_acc_total = (L3_acc_total + L3_p_v_total[L3_c]);
	v_total = L3_acc_total;
	if (L3_pick & 2) cnf_stream_took(&L3_tune, L3_pick, L3_moved, L3_t0);
	}
	*out_v_pal = v_pal;
	*out_v_total = v_total;
	*out_v_middle = v_middle;
}

static cnf_result_palindrome cnf_palindrome(Arr_Int v_xs) {
	Arr_Int v_doubled = {0};
	Arr_Int v_back = {0};
	Arr_Int v_pal = {0};
	int64_t v_n = 0;
	int64_t v_total = 0;
	int64_t v_half = 0;
	Arr_Int v_middle = {0};
	v_n = ((v_xs).len + (v_xs).len); /* n: known before any loop */
	v_half = (v_xs).len; /* half: known before any loop */
	cnf_L1_palindrome(v_xs, &v_doubled); /* loop 1: doubled */
	cnf_L2_palindrome(v_doubled, &v_back); /* loop 2: back */
	cnf_L3_palindrome(v_doubled, v_back, v_half, &v_pal, &v_total, &v_middle); /* loop 3: pal, total, middle */
	cnf_free(v_doubled.data);
	cnf_free(v_back.data);
	return (cnf_result_palindrome){v_pal, v_n, v_total, v_middle};
}

