/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;

/* Helpers */
/* cnf_slice_before is how many of the positions 0 .. p-1 a slice keeps: those from start
 * on (has_start), and of them fewer than count (has_count), the test of fuse.SliceCond counted
 * at once (codegen/counts.go). No step overflows: start + count is formed only when it is at
 * most p. */
static inline int64_t cnf_slice_before(int64_t p, int has_start, int64_t start, int has_count, int64_t count) {
	const int64_t lo = has_start && start > 0 ? start : 0;
	int64_t hi = p;
	if (has_count) {
		if (!has_start) {
			if (count < hi) hi = count;
		} else if (count <= 0) {
			hi = lo;
		} else if (start <= hi - count) {
			hi = start + count;
		}
	}
	return hi > lo ? hi - lo : 0;
}

/* deltas, compiled from its clustering into 1 loops. */
typedef struct { Arr_Int r0; /* ds */ Arr_Int r1; /* window */ Arr_Int r2; /* same */ int64_t r3; /* count */ int64_t r4; /* sameN */ } cnf_result_deltas;

/* Loop 1:
 *   rest = tail xs
 *   numbered = indexed rest
 *   is = unzip numbered
 *   prev = gather xs is
 *   ds = map2 (-) cur prev
 *   later = drop lo ds
 *   window = take n later
 *   same = slice lo n ds
 *   count = length window
 *   sameN = length same
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_deltas(const Arr_Int v_xs, const int64_t v_lo, const int64_t v_n, Arr_Int *restrict out_v_ds, Arr_Int *restrict out_v_window, Arr_Int *restrict out_v_same, int64_t *restrict out_v_count, int64_t *restrict out_v_sameN) {
	Arr_Int v_ds = *out_v_ds;
	Arr_Int v_window = *out_v_window;
	Arr_Int v_same = *out_v_same;
	int64_t v_count = *out_v_count;
	int64_t v_sameN = *out_v_sameN;
	{
	enum { L1_B = CNF_BLOCK(7 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_org = ({ const int64_t cnf_s_ = INT64_C(1); cnf_s_ < 0 ? 0 : cnf_s_ > v_xs.len ? v_xs.len : cnf_s_; }); /* the input from the first position its slices keep */
	const Arr_Int L1_r_v_xs = v_xs;
	const Arr_Int v_xs = {L1_r_v_xs.data + L1_org, L1_r_v_xs.len - L1_org};
	const int64_t L1_n = v_xs.len;
	static cnf_tune L1_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L1_moved = L1_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t) + sizeof(int64_t) + sizeof(int64_t));
	const int L1_pick = cnf_stream_pick(&L1_tune, L1_moved);
	const int L1_stream = L1_pick & 1; /* outputs by streaming stores */
	const double L1_t0 = L1_pick & 2 ? cnf_now() : 0;
	const int64_t L1_bstep = L1_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t) + sizeof(int64_t) + sizeof(int64_t)), L1_B) : L1_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_ds.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ds", v_xs.data);
	v_ds.len = 0;
	v_window.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "window", v_xs.data);
	v_window.len = 0;
	v_same.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "same", v_xs.data);
	v_same.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_xs = v_xs;
	const Arr_Int L1_o_v_ds = v_ds;
	const Arr_Int L1_o_v_same = v_same;
	const Arr_Int L1_o_v_window = v_window;
	int64_t L1_cnt_v_ds[CNF_MAX_THREADS];
	int64_t L1_cnt_v_same[CNF_MAX_THREADS];
	int64_t L1_cnt_v_window[CNF_MAX_THREADS];
	int64_t L1_p_v_count[CNF_MAX_THREADS];
	int64_t L1_p_v_sameN[CNF_MAX_THREADS];
	int L1_failed = 0; /* a chunk failed: the loop runs again on one thread */
	int L1_Tc = L1_T;
	if (L1_T > 1) {
	/* In tiles (codegen/parallel.go, tiledLoop): each counts its filtered rates and totals its
	 * scans first (counts.go), then runs from where the tiles before reach; outputs written once. */
	const int64_t L1_tile = cnf_tile(), L1_K = L1_n > 0 ? (L1_n + L1_tile - 1) / L1_tile : 1;
	int64_t *L1_at = cnf_alloc_made(0, (L1_K + 1) * 3, sizeof(int64_t), "tiles", 0); /* where each tile's outputs start */
	int *L1_ready = cnf_alloc_made(0, L1_K + 1, sizeof(int), "tiles", 0); /* tile k's starts are published */
	memset(L1_ready, 0, (size_t)(L1_K + 1) * sizeof(int));
	for (int L1_i = 0; L1_i < 3; L1_i++) L1_at[L1_i] = 0;
	L1_ready[0] = 1;
	int64_t *L1_pat = cnf_alloc_made(0, (L1_K + 1) * 1, sizeof(int64_t), "tiles", 0); /* where each tile's positions in rest start */
	int *L1_pready = cnf_alloc_made(0, L1_K + 1, sizeof(int), "tiles", 0); /* tile k's starts are published */
	memset(L1_pready, 0, (size_t)(L1_K + 1) * sizeof(int));
	for (int L1_i = 0; L1_i < 1; L1_i++) L1_pat[L1_i] = 0;
	L1_pready[0] = 1;
	int64_t *L1_pt_v_count = cnf_alloc_made(0, L1_K, sizeof(int64_t), "tiles", 0);
	int64_t *L1_pt_v_sameN = cnf_alloc_made(0, L1_K, sizeof(int64_t), "tiles", 0);
	int64_t *L1_buf_v_ds = cnf_alloc_made(0, (L1_tile + 1) * L1_T, sizeof(int64_t), "tiles", 0); /* a tile's ds, a thread's buffer each */
	int64_t *L1_buf_v_same = cnf_alloc_made(0, (L1_tile + 1) * L1_T, sizeof(int64_t), "tiles", 0); /* a tile's same, a thread's buffer each */
	int64_t *L1_buf_v_window = cnf_alloc_made(0, (L1_tile + 1) * L1_T, sizeof(int64_t), "tiles", 0); /* a tile's window, a thread's buffer each */
	int64_t L1_next = 0;
	#pragma omp parallel num_threads(L1_T)
	for (int64_t L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED); L1_c < L1_K; L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED)) {
		const int64_t L1_lo = L1_c * L1_tile, L1_hi = L1_lo + L1_tile < L1_n ? L1_lo + L1_tile : L1_n;
		jmp_buf L1_jump;
		if (setjmp(L1_jump) != 0) { /* it failed: the loop runs again on one thread */
			cnf_team_jump = NULL;
			__atomic_store_n(&L1_failed, 1, __ATOMIC_RELAXED);
			if (L1_T <= 1) break; /* one thread: the first failure in order, reported as it is */
			if (!__atomic_load_n(&L1_pready[L1_c + 1], __ATOMIC_RELAXED)) {
				cnf_wait(&L1_pready[L1_c]);
				for (int L1_i = 0; L1_i < 1; L1_i++) L1_pat[(L1_c + 1) * 1 + L1_i] = L1_pat[L1_c * 1 + L1_i];
				__atomic_store_n(&L1_pready[L1_c + 1], 1, __ATOMIC_RELEASE);
			}
			cnf_wait(&L1_ready[L1_c]);
			for (int L1_i = 0; L1_i < 3; L1_i++) L1_at[(L1_c + 1) * 3 + L1_i] = L1_at[L1_c * 3 + L1_i];
			__atomic_store_n(&L1_ready[L1_c + 1], 1, __ATOMIC_RELEASE);
			continue;
		}
		cnf_team_jump = &L1_jump;
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ds = {L1_T > 1 ? L1_buf_v_ds + (L1_tile + 1) * cnf_thread_num() : L1_o_v_ds.data + L1_at[L1_c * 3 + 0], 0};
		Arr_Int v_same = {L1_T > 1 ? L1_buf_v_same + (L1_tile + 1) * cnf_thread_num() : L1_o_v_same.data + L1_at[L1_c * 3 + 1], 0};
		Arr_Int v_window = {L1_T > 1 ? L1_buf_v_window + (L1_tile + 1) * cnf_thread_num() : L1_o_v_window.data + L1_at[L1_c * 3 + 2], 0};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_cq_rest = 0; /* the elements of rest in this tile */
		for (int64_t L1_ci = 0; L1_ci < L1_n; L1_ci++) {
			const bool L1_ck_rest = (((L1_org + L1_lo + L1_ci) >= INT64_C(1))) != 0;
			L1_cq_rest += L1_ck_rest;
		}
		cnf_wait(&L1_pready[L1_c]);
		const int64_t L1_pos_rest = L1_pat[L1_c * 1 + 0];
		L1_pat[(L1_c + 1) * 1 + 0] = L1_pos_rest + L1_cq_rest;
		__atomic_store_n(&L1_pready[L1_c + 1], 1, __ATOMIC_RELEASE);
		const int L1_kstream = L1_stream && L1_T <= 1; /* outputs at a filter's rate too: on more threads, each thread's buffer is streamed out (cnf_copy_out) */
		int64_t L1_t_rest = 0;
		const int64_t *L1_b_rest; /* rest, a block's run of rest's input */
		int64_t L1_b_cur[L1_B]; /* cur, a block at a time */
		int64_t L1_b_prev[L1_B]; /* prev, a block at a time */
		int64_t L1_w_ds[L1_B]; /* a block of ds, written out by streaming stores */
		cnf_carry L1_cy_ds; /* and its last partial line */
		L1_cy_ds.n = 0;
		int64_t L1_t_later = 0;
		const int64_t *L1_b_later; /* later, a block's run of later's input */
		int64_t L1_t_window = 0;
		int64_t L1_w_window[L1_B]; /* a block of window, written out by streaming stores */
		cnf_carry L1_cy_window; /* and its last partial line */
		L1_cy_window.n = 0;
		int64_t L1_t_same = 0;
		int64_t L1_w_same[L1_B]; /* a block of same, written out by streaming stores */
		cnf_carry L1_cy_same; /* and its last partial line */
		L1_cy_same.n = 0;
		int64_t L1_acc_count = L1_c == 0 ? 0 : 0; /* count's accumulator */
		int64_t L1_acc_sameN = L1_c == 0 ? 0 : 0; /* sameN's accumulator */
		L1_t_rest = L1_pos_rest; /* rest's positions in this tile start after the tiles before */
		L1_t_later = cnf_slice_before(L1_t_rest, 1, v_lo, 0, 0); /* what later keeps of the positions of rest before this tile */
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_bstep; L1_base < L1_n; L1_base += L1_step, L1_step = L1_bstep) {
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
			}
			/* rest = tail xs: a run of the block, without a mask */
			const int64_t L1_from_rest = cnf_run_clamp((__int128)(INT64_C(1)) - (L1_org + L1_lo + L1_base + 0), 0, L1_n_root);
			const int64_t L1_to_rest = L1_n_root;
			const int64_t L1_n_rest = L1_to_rest - L1_from_rest;
			L1_b_rest = L1_b_xs + L1_from_rest;
			/* the elements rest keeps */
			int64_t *restrict L1_b_ds = L1_kstream ? L1_w_ds : v_ds.data + v_ds.len;
			int L1_bad_prev = 0; /* an index out of range in this pass (checkedGathers): checked after it */
			const int64_t *L1_gd_prev = L1_r_v_xs.len > 0 ? L1_r_v_xs.data : cnf_none.i;
			int64_t L1_gi_prev[L1_B];
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
				/* numbered = indexed rest */
				const Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Int){(L1_t_rest + L1_k), L1_b_rest[L1_k]});
				/* is = unzip numbered */
				const int64_t L1_v_is = L1_v_numbered.f0;
				const int64_t L1_v_cur = L1_v_numbered.f1;
				L1_b_cur[L1_k] = L1_v_cur;
				/* prev = gather xs is */
				const int64_t L1_v_prev = CNF_GATHER(L1_gd_prev, L1_r_v_xs.len, L1_v_is, L1_bad_prev);
				L1_b_prev[L1_k] = L1_v_prev;
				L1_gi_prev[L1_k] = L1_v_is;
			}
			if (__builtin_expect(L1_bad_prev, 0)) /* the first index out of range fails, as in a pass that checks each */
				for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
					(void)CNF_AT(L1_r_v_xs, L1_gi_prev[L1_k], "prev");
				}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
				/* ds = map2 (-) cur prev */
				const int64_t L1_v_ds = (L1_b_cur[L1_k] - L1_b_prev[L1_k]);
				L1_b_ds[L1_k] = L1_v_ds;
			}
			if (L1_kstream) cnf_stream_carry(&L1_cy_ds, v_ds.data + v_ds.len, L1_w_ds, (size_t)L1_n_rest * sizeof *v_ds.data);
			v_ds.len += L1_n_rest;
			/* later = drop lo ds: a run of the block, without a mask */
			const int64_t L1_from_later = cnf_run_clamp((__int128)(v_lo) - (L1_t_rest + 0), 0, L1_n_rest);
			const int64_t L1_to_later = L1_n_rest;
			const int64_t L1_n_later = L1_to_later - L1_from_later;
			L1_b_later = L1_b_ds + L1_from_later;
			/* same = slice lo n ds: a run of the block, without a mask */
			const int64_t L1_from_same = cnf_run_clamp((__int128)(v_lo) - (L1_t_rest + 0), 0, L1_n_rest);
			const int64_t L1_to_same = cnf_run_clamp(((v_n) > 0 ? (__int128)(v_lo) + (v_n) : (__int128)(v_lo)) - (L1_t_rest + 0), L1_from_same, L1_n_rest);
			const int64_t L1_n_same = L1_to_same - L1_from_same;
			int64_t *restrict L1_b_same = L1_kstream ? L1_w_same : v_same.data + v_same.len;
			memcpy(L1_b_same, L1_b_ds + L1_from_same, (size_t)L1_n_same * sizeof *L1_b_same);
			if (L1_kstream) cnf_stream_carry(&L1_cy_same, v_same.data + v_same.len, L1_w_same, (size_t)L1_n_same * sizeof *v_same.data);
			v_same.len += L1_n_same;
			/* the elements later keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_later; L1_k++) {
			}
			/* window = take n later: a run of the block, without a mask */
			const int64_t L1_from_window = 0;
			const int64_t L1_to_window = cnf_run_clamp((__int128)(v_n) - (L1_t_later + 0), L1_from_window, L1_n_later);
			const int64_t L1_n_window = L1_to_window - L1_from_window;
			int64_t *restrict L1_b_window = L1_kstream ? L1_w_window : v_window.data + v_window.len;
			memcpy(L1_b_window, L1_b_later + L1_from_window, (size_t)L1_n_window * sizeof *L1_b_window);
			if (L1_kstream) cnf_stream_carry(&L1_cy_window, v_window.data + v_window.len, L1_w_window, (size_t)L1_n_window * sizeof *v_window.data);
			v_window.len += L1_n_window;
			/* the elements window keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_window; L1_k++) {
			}
			/* the elements same keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_same; L1_k++) {
			}
			/* count = length window: once a block */
			L1_acc_count = L1_acc_count + (INT64_C(1)) * L1_n_window;
			/* sameN = length same: once a block */
			L1_acc_sameN = L1_acc_sameN + (INT64_C(1)) * L1_n_same;
			L1_t_rest += L1_n_rest;
			L1_t_later += L1_n_later;
			L1_t_window += L1_n_window;
			L1_t_same += L1_n_same;
		}
		if (L1_kstream) cnf_stream_flush(&L1_cy_ds, v_ds.data + v_ds.len);
		if (L1_kstream) cnf_stream_flush(&L1_cy_same, v_same.data + v_same.len);
		if (L1_kstream) cnf_stream_flush(&L1_cy_window, v_window.data + v_window.len);
		if (L1_stream) cnf_stream_fence();
		__asm__("" : "+r"(L1_acc_count)); /* in a general register (inRegister) */
		L1_pt_v_count[L1_c] = L1_acc_count;
		__asm__("" : "+r"(L1_acc_sameN)); /* in a general register (inRegister) */
		L1_pt_v_sameN[L1_c] = L1_acc_sameN;
		cnf_team_jump = NULL;
		cnf_wait(&L1_ready[L1_c]);
		const int64_t L1_at_v_ds = L1_at[L1_c * 3 + 0];
		L1_at[(L1_c + 1) * 3 + 0] = L1_at_v_ds + v_ds.len;
		const int64_t L1_at_v_same = L1_at[L1_c * 3 + 1];
		L1_at[(L1_c + 1) * 3 + 1] = L1_at_v_same + v_same.len;
		const int64_t L1_at_v_window = L1_at[L1_c * 3 + 2];
		L1_at[(L1_c + 1) * 3 + 2] = L1_at_v_window + v_window.len;
		__atomic_store_n(&L1_ready[L1_c + 1], 1, __ATOMIC_RELEASE);
		if (v_ds.len > 0 && L1_T > 1) cnf_copy_out(L1_o_v_ds.data + L1_at_v_ds, v_ds.data, (size_t)v_ds.len * sizeof *v_ds.data);
		if (v_same.len > 0 && L1_T > 1) cnf_copy_out(L1_o_v_same.data + L1_at_v_same, v_same.data, (size_t)v_same.len * sizeof *v_same.data);
		if (v_window.len > 0 && L1_T > 1) cnf_copy_out(L1_o_v_window.data + L1_at_v_window, v_window.data, (size_t)v_window.len * sizeof *v_window.data);
	}
	L1_cnt_v_ds[0] = L1_at[L1_K * 3 + 0];
	L1_cnt_v_same[0] = L1_at[L1_K * 3 + 1];
	L1_cnt_v_window[0] = L1_at[L1_K * 3 + 2];
	L1_p_v_count[0] = L1_pt_v_count[0]; /* count: the tiles' partial results, in order */
	for (int64_t L1_k = 1; L1_k < L1_K; L1_k++) L1_p_v_count[0] = (L1_p_v_count[0] + L1_pt_v_count[L1_k]);
	cnf_free(L1_pt_v_count);
	L1_p_v_sameN[0] = L1_pt_v_sameN[0]; /* sameN: the tiles' partial results, in order */
	for (int64_t L1_k = 1; L1_k < L1_K; L1_k++) L1_p_v_sameN[0] = (L1_p_v_sameN[0] + L1_pt_v_sameN[L1_k]);
	cnf_free(L1_pt_v_sameN);
	cnf_free(L1_buf_v_ds);
	cnf_free(L1_buf_v_same);
	cnf_free(L1_buf_v_window);
	cnf_free(L1_at);
	cnf_free(L1_ready);
	cnf_free(L1_pat);
	cnf_free(L1_pready);
	L1_Tc = 1;
	if (L1_failed) {
		cnf_team_done(L1_T);
		L1_T = 1;
		L1_Tc = 1;
	}
	}
	if (L1_T <= 1) {
	for (int L1_c = 0; L1_c < 1; L1_c++) { /* one thread: the whole input one chunk */
		const int64_t L1_lo = cnf_chunk(L1_n, L1_T, L1_c), L1_hi = cnf_chunk(L1_n, L1_T, L1_c + 1);
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ds = {L1_o_v_ds.data + L1_lo, 0};
		Arr_Int v_same = {L1_o_v_same.data + L1_lo, 0};
		Arr_Int v_window = {L1_o_v_window.data + L1_lo, 0};
		const int64_t L1_n = L1_hi - L1_lo;
		const int L1_kstream = L1_stream && L1_T <= 1; /* outputs at a filter's rate too: on more threads, each thread's buffer is streamed out (cnf_copy_out) */
		int64_t L1_t_rest = 0;
		const int64_t *L1_b_rest; /* rest, a block's run of rest's input */
		int64_t L1_b_cur[L1_B]; /* cur, a block at a time */
		int64_t L1_b_prev[L1_B]; /* prev, a block at a time */
		int64_t L1_w_ds[L1_B]; /* a block of ds, written out by streaming stores */
		cnf_carry L1_cy_ds; /* and its last partial line */
		L1_cy_ds.n = 0;
		int64_t L1_t_later = 0;
		const int64_t *L1_b_later; /* later, a block's run of later's input */
		int64_t L1_t_window = 0;
		int64_t L1_w_window[L1_B]; /* a block of window, written out by streaming stores */
		cnf_carry L1_cy_window; /* and its last partial line */
		L1_cy_window.n = 0;
		int64_t L1_t_same = 0;
		int64_t L1_w_same[L1_B]; /* a block of same, written out by streaming stores */
		cnf_carry L1_cy_same; /* and its last partial line */
		L1_cy_same.n = 0;
		int64_t L1_acc_count = L1_c == 0 ? 0 : 0; /* count's accumulator */
		int64_t L1_acc_sameN = L1_c == 0 ? 0 : 0; /* sameN's accumulator */
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_bstep; L1_base < L1_n; L1_base += L1_step, L1_step = L1_bstep) {
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
			}
			/* rest = tail xs: a run of the block, without a mask */
			const int64_t L1_from_rest = cnf_run_clamp((__int128)(INT64_C(1)) - (L1_org + L1_lo + L1_base + 0), 0, L1_n_root);
			const int64_t L1_to_rest = L1_n_root;
			const int64_t L1_n_rest = L1_to_rest - L1_from_rest;
			L1_b_rest = L1_b_xs + L1_from_rest;
			/* the elements rest keeps */
			int64_t *restrict L1_b_ds = L1_kstream ? L1_w_ds : v_ds.data + v_ds.len;
			int L1_bad_prev = 0; /* an index out of range in this pass (checkedGathers): checked after it */
			const int64_t *L1_gd_prev = L1_r_v_xs.len > 0 ? L1_r_v_xs.data : cnf_none.i;
			int64_t L1_gi_prev[L1_B];
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
				/* numbered = indexed rest */
				const Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Int){(L1_t_rest + L1_k), L1_b_rest[L1_k]});
				/* is = unzip numbered */
				const int64_t L1_v_is = L1_v_numbered.f0;
				const int64_t L1_v_cur = L1_v_numbered.f1;
				L1_b_cur[L1_k] = L1_v_cur;
				/* prev = gather xs is */
				const int64_t L1_v_prev = CNF_GATHER(L1_gd_prev, L1_r_v_xs.len, L1_v_is, L1_bad_prev);
				L1_b_prev[L1_k] = L1_v_prev;
				L1_gi_prev[L1_k] = L1_v_is;
			}
			if (__builtin_expect(L1_bad_prev, 0)) /* the first index out of range fails, as in a pass that checks each */
				for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
					(void)CNF_AT(L1_r_v_xs, L1_gi_prev[L1_k], "prev");
				}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
				/* ds = map2 (-) cur prev */
				const int64_t L1_v_ds = (L1_b_cur[L1_k] - L1_b_prev[L1_k]);
				L1_b_ds[L1_k] = L1_v_ds;
			}
			if (L1_kstream) cnf_stream_carry(&L1_cy_ds, v_ds.data + v_ds.len, L1_w_ds, (size_t)L1_n_rest * sizeof *v_ds.data);
			v_ds.len += L1_n_rest;
			/* later = drop lo ds: a run of the block, without a mask */
			const int64_t L1_from_later = cnf_run_clamp((__int128)(v_lo) - (L1_t_rest + 0), 0, L1_n_rest);
			const int64_t L1_to_later = L1_n_rest;
			const int64_t L1_n_later = L1_to_later - L1_from_later;
			L1_b_later = L1_b_ds + L1_from_later;
			/* same = slice lo n ds: a run of the block, without a mask */
			const int64_t L1_from_same = cnf_run_clamp((__int128)(v_lo) - (L1_t_rest + 0), 0, L1_n_rest);
			const int64_t L1_to_same = cnf_run_clamp(((v_n) > 0 ? (__int128)(v_lo) + (v_n) : (__int128)(v_lo)) - (L1_t_rest + 0), L1_from_same, L1_n_rest);
			const int64_t L1_n_same = L1_to_same - L1_from_same;
			int64_t *restrict L1_b_same = L1_kstream ? L1_w_same : v_same.data + v_same.len;
			memcpy(L1_b_same, L1_b_ds + L1_from_same, (size_t)L1_n_same * sizeof *L1_b_same);
			if (L1_kstream) cnf_stream_carry(&L1_cy_same, v_same.data + v_same.len, L1_w_same, (size_t)L1_n_same * sizeof *v_same.data);
			v_same.len += L1_n_same;
			/* the elements later keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_later; L1_k++) {
			}
			/* window = take n later: a run of the block, without a mask */
			const int64_t L1_from_window = 0;
			const int64_t L1_to_window = cnf_run_clamp((__int128)(v_n) - (L1_t_later + 0), L1_from_window, L1_n_later);
			const int64_t L1_n_window = L1_to_window - L1_from_window;
			int64_t *restrict L1_b_window = L1_kstream ? L1_w_window : v_window.data + v_window.len;
			memcpy(L1_b_window, L1_b_later + L1_from_window, (size_t)L1_n_window * sizeof *L1_b_window);
			if (L1_kstream) cnf_stream_carry(&L1_cy_window, v_window.data + v_window.len, L1_w_window, (size_t)L1_n_window * sizeof *v_window.data);
			v_window.len += L1_n_window;
			/* the elements window keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_window; L1_k++) {
			}
			/* the elements same keeps */
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_same; L1_k++) {
			}
			/* count = length window: once a block */
			L1_acc_count = L1_acc_count + (INT64_C(1)) * L1_n_window;
			/* sameN = length same: once a block */
			L1_acc_sameN = L1_acc_sameN + (INT64_C(1)) * L1_n_same;
			L1_t_rest += L1_n_rest;
			L1_t_later += L1_n_later;
			L1_t_window += L1_n_window;
			L1_t_same += L1_n_same;
		}
		if (L1_kstream) cnf_stream_flush(&L1_cy_ds, v_ds.data + v_ds.len);
		if (L1_kstream) cnf_stream_flush(&L1_cy_same, v_same.data + v_same.len);
		if (L1_kstream) cnf_stream_flush(&L1_cy_window, v_window.data + v_window.len);
		if (L1_stream) cnf_stream_fence();
		L1_cnt_v_ds[L1_c] = v_ds.len;
		L1_cnt_v_same[L1_c] = v_same.len;
		L1_cnt_v_window[L1_c] = v_window.len;
		__asm__("" : "+r"(L1_acc_count)); /* in a general register (inRegister) */
		L1_p_v_count[L1_c] = L1_acc_count;
		__asm__("" : "+r"(L1_acc_sameN)); /* in a general register (inRegister) */
		L1_p_v_sameN[L1_c] = L1_acc_sameN;
	}
	}
	/* ds: each chunk's piece after the ones before it */
	v_ds.len = cnf_team_move((char *)v_ds.data, sizeof *v_ds.data, L1_cnt_v_ds, L1_n, L1_Tc);
	/* same: each chunk's piece after the ones before it */
	v_same.len = cnf_team_move((char *)v_same.data, sizeof *v_same.data, L1_cnt_v_same, L1_n, L1_Tc);
	/* window: each chunk's piece after the ones before it */
	v_window.len = cnf_team_move((char *)v_window.data, sizeof *v_window.data, L1_cnt_v_window, L1_n, L1_Tc);
	cnf_team_done(L1_T);
	int64_t L1_acc_count = L1_p_v_count[0]; /* count: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_Tc; L1_c++) L1_acc_count = (L1_acc_count + L1_p_v_count[L1_c]);
	int64_t L1_acc_sameN = L1_p_v_sameN[0]; /* sameN: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_Tc; L1_c++) L1_acc_sameN = (L1_acc_sameN + L1_p_v_sameN[L1_c]);
	v_count = L1_acc_count;
	v_sameN = L1_acc_sameN;
	if (L1_pick & 2) cnf_stream_took(&L1_tune, L1_pick, L1_moved, L1_t0);
	}
	*out_v_ds = v_ds;
	*out_v_window = v_window;
	*out_v_same = v_same;
	*out_v_count = v_count;
	*out_v_sameN = v_sameN;
}

static cnf_result_deltas cnf_deltas(Arr_Int v_xs, int64_t v_lo, int64_t v_n) {
	Arr_Int v_ds = {0};
	Arr_Int v_window = {0};
	Arr_Int v_same = {0};
	int64_t v_count = 0;
	int64_t v_sameN = 0;
	cnf_L1_deltas(v_xs, v_lo, v_n, &v_ds, &v_window, &v_same, &v_count, &v_sameN); /* loop 1: rest, numbered, is, prev, ds, later, window, same, count, sameN */
	return (cnf_result_deltas){v_ds, v_window, v_same, v_count, v_sameN};
}

