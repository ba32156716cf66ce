/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;
typedef struct { Tup2_Int_Int *data; int64_t len; } Arr_Tup2_Int_Int;

/* Helpers */
static Arr_Int cnf_ext_sort_Int(Arr_Int a, const char *w) {
	(void)w;
	Arr_Int r = {cnf_alloc(a.len, sizeof(int64_t), w), a.len};
	int64_t *t = cnf_alloc(a.len, sizeof(int64_t), w);
	memcpy(r.data, a.data, (size_t)a.len * sizeof(int64_t));
	for (int64_t width = 1; width < a.len; width *= 2) {
		for (int64_t lo = 0; lo < a.len; lo += 2 * width) {
			int64_t mid = lo + width < a.len ? lo + width : a.len;
			int64_t hi = lo + 2 * width < a.len ? lo + 2 * width : a.len;
			int64_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) t[k++] = cnf_cmp_Int(r.data[j], r.data[i]) < 0 ? r.data[j++] : r.data[i++];
			while (i < mid) t[k++] = r.data[i++];
			while (j < hi) t[k++] = r.data[j++];
		}
		memcpy(r.data, t, (size_t)a.len * sizeof(int64_t));
	}
	cnf_free(t);
	return r;
}
static int64_t cnf_ext_sum_Int(Arr_Int a, const char *w) {
	(void)w;
	int64_t s = 0;
	for (int64_t i = 0; i < a.len; i++) s += a.data[i];
	return s;
}

/* everything, compiled from its clustering into 3 loops. */
typedef struct { Arr_Int r0; /* sums */ int64_t r1; /* total */ Arr_Tup2_Int_Int r2; /* pairs */ Arr_Int r3; /* sorted */ int64_t r4; /* s */ } cnf_result_everything;

/* Loop 1:
 *   doubled = map (* 2) xs
 *   sums = map2 (+) doubled ys
 *   big = filter (\x -> x > n) sums
 *   total = fold (+) 0 big
 * The fused process, an element at a time (not blocked: xs and ys are read apart (their lengths are not checked to be one)).
 */
static __attribute__((noinline)) void cnf_L1_everything(const Arr_Int v_xs, const Arr_Int v_ys, const int64_t v_n, Arr_Int *restrict out_v_sums, int64_t *restrict out_v_total) {
	Arr_Int v_sums = *out_v_sums;
	int64_t v_total = *out_v_total;
	{
	/* map doubled / map2 sums / filter big / fold total */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_i_ys = 0; /* position in ys */
	int64_t L1_0_h_doubled__v = 0;
	int64_t L1_0_h_sums__v1 = 0;
	int64_t L1_0_h_sums__v2 = 0;
	int64_t L1_0_h_big__v = 0;
	int64_t L1_0_h_total__s = INT64_C(0);
	int64_t L1_0_h_total__v = 0;
	int64_t L1_0_h_big__chan = 0;
	int64_t L1_0_h_sums__chan = 0;
	int64_t L1_0_h_doubled__chan = 0;
	v_sums.data = cnf_alloc_slack(v_xs.len, sizeof(int64_t), "sums");
	v_sums.len = 0;
L1_0_s0: /* doubled_0/sums_0/big_0/total_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_doubled__v = v_xs.data[L1_0_i_xs];
		L1_0_h_doubled__chan = (L1_0_h_doubled__v * INT64_C(2));
		L1_0_h_sums__v1 = L1_0_h_doubled__chan;
		goto L1_0_s1;
	}
	goto L1_0_s3;
L1_0_s1: /* doubled_2/sums_1/big_0/total_0[doubled=h]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s2;
L1_0_s2: /* doubled_0/sums_1/big_0/total_0[doubled=h]: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_doubled__v = v_xs.data[L1_0_i_xs];
		goto L1_0_s4;
	}
	goto L1_0_s5;
L1_0_s3: /* doubled_5/sums_5/big_0/total_0[doubled=c]: close sums */
	goto L1_0_s6;
L1_0_s4: /* doubled_1/sums_1/big_0/total_0[doubled=h]: pull ys */
	if (L1_0_i_ys < v_ys.len) {
		L1_0_h_sums__v2 = v_ys.data[L1_0_i_ys];
		goto L1_0_s7;
	}
	L1_0_h_doubled__chan = (L1_0_h_doubled__v * INT64_C(2));
	goto L1_0_s11;
L1_0_s5: /* doubled_3/sums_1/big_0/total_0[doubled=h]: pull ys */
	if (L1_0_i_ys < v_ys.len) {
		L1_0_h_sums__v2 = v_ys.data[L1_0_i_ys];
		goto L1_0_s8;
	}
	goto L1_0_s16;
L1_0_s6: /* doubled_5/sums_7/big_5/total_2[big=c][sums=c][doubled=c]: push total */
	v_total = L1_0_h_total__s;
	goto L1_0_s9;
L1_0_s7: /* doubled_1/sums_2/big_0/total_0[doubled=h]: push sums */
	v_sums.data[v_sums.len++] = (L1_0_h_sums__v1 + L1_0_h_sums__v2);
	L1_0_h_sums__chan = (L1_0_h_sums__v1 + L1_0_h_sums__v2);
	L1_0_h_big__v = L1_0_h_sums__chan;
	L1_0_h_doubled__chan = (L1_0_h_doubled__v * INT64_C(2));
	goto L1_0_s14;
L1_0_s8: /* doubled_3/sums_2/big_0/total_0[doubled=h]: push sums */
	v_sums.data[v_sums.len++] = (L1_0_h_sums__v1 + L1_0_h_sums__v2);
	L1_0_h_sums__chan = (L1_0_h_sums__v1 + L1_0_h_sums__v2);
	L1_0_h_big__v = L1_0_h_sums__chan;
	goto L1_0_s19;
L1_0_s9: /* doubled_5/sums_7/big_5/total_3[big=c][sums=c][doubled=c]: close total */
	goto L1_0_s10;
L1_0_s10: /* doubled_5/sums_7/big_5/total_4[big=c][sums=c][doubled=c]: pull ys */
	if (L1_0_i_ys < v_ys.len) {
		L1_0_h_sums__v2 = v_ys.data[L1_0_i_ys];
		goto L1_0_s12;
	}
	goto L1_0_s13;
L1_0_s11: /* doubled_2/sums_11/big_0/total_0[doubled=p]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s15;
L1_0_s12: /* doubled_5/sums_8/big_5/total_4[big=c][sums=c][doubled=c]: drop ys */
	L1_0_i_ys++;
	goto L1_0_s10;
L1_0_s13: /* doubled_5/sums_16/big_5/total_4[big=c][sums=c][doubled=c]: exit */
	goto L1_0_exit;
L1_0_s14: /* doubled_2/sums_4/big_1/total_0[sums=h][doubled=p]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s17;
L1_0_s15: /* doubled_0/sums_11/big_0/total_0[doubled=p]: close sums */
	goto L1_0_s18;
L1_0_s16: /* doubled_5/sums_11/big_0/total_0[doubled=c]: close sums */
	goto L1_0_s20;
L1_0_s17: /* doubled_0/sums_4/big_1/total_0[sums=h][doubled=p]: drop ys */
	L1_0_i_ys++;
	goto L1_0_s21;
L1_0_s18: /* doubled_0/sums_13/big_5/total_2[big=c][sums=c][doubled=p]: push total */
	v_total = L1_0_h_total__s;
	goto L1_0_s22;
L1_0_s19: /* doubled_5/sums_4/big_1/total_0[sums=h][doubled=c]: drop ys */
	L1_0_i_ys++;
	goto L1_0_s23;
L1_0_s20: /* doubled_5/sums_13/big_5/total_2[big=c][sums=c][doubled=c]: push total */
	v_total = L1_0_h_total__s;
	goto L1_0_s24;
L1_0_s21: /* doubled_0/sums_0/big_1/total_0[sums=h][doubled=p]: case */
	{ /* a select, not a branch */
		bool l1_c = (L1_0_h_big__v > v_n);
		L1_0_h_big__chan = l1_c ? L1_0_h_big__v : L1_0_h_big__chan;
		L1_0_h_total__v = l1_c ? L1_0_h_big__chan : L1_0_h_total__v;
		L1_0_h_total__s = l1_c ? (L1_0_h_total__s + L1_0_h_total__v) : L1_0_h_total__s;
		L1_0_h_sums__v1 = l1_c ? L1_0_h_doubled__chan : L1_0_h_sums__v1;
		L1_0_h_sums__v1 = !l1_c ? L1_0_h_doubled__chan : L1_0_h_sums__v1;
	}
	goto L1_0_s2;
L1_0_s22: /* doubled_0/sums_13/big_5/total_3[big=c][sums=c][doubled=p]: close total */
	L1_0_h_sums__v1 = L1_0_h_doubled__chan;
	goto L1_0_s25;
L1_0_s23: /* doubled_5/sums_0/big_1/total_0[sums=h][doubled=c]: case */
	{ /* a select, not a branch */
		bool l2_c = (L1_0_h_big__v > v_n);
		L1_0_h_big__chan = L1_0_h_big__v;
		L1_0_h_total__v = L1_0_h_big__chan;
		L1_0_h_total__s = l2_c ? (L1_0_h_total__s + L1_0_h_total__v) : L1_0_h_total__s;
	}
	goto L1_0_s3;
L1_0_s24: /* doubled_5/sums_13/big_5/total_3[big=c][sums=c][doubled=c]: close total */
	goto L1_0_s13;
L1_0_s25: /* doubled_0/sums_13/big_5/total_4[big=c][sums=c]: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_doubled__v = v_xs.data[L1_0_i_xs];
		L1_0_h_doubled__chan = (L1_0_h_doubled__v * INT64_C(2));
		L1_0_h_sums__v1 = L1_0_h_doubled__chan;
		goto L1_0_s26;
	}
	goto L1_0_s13;
L1_0_s26: /* doubled_2/sums_13/big_5/total_4[big=c][sums=c]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s25;
L1_0_exit:;
	}
	*out_v_sums = v_sums;
	*out_v_total = v_total;
}

/* Loop 2:
 *   idx = generate n (\i -> i `mod` 3)
 *   picked = gather xs idx
 *   scaled = map3 (\a b c -> a * b + c) picked idx idx
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L2_everything(const int64_t v_n, const Arr_Int v_xs, Arr_Int *restrict out_v_scaled) {
	Arr_Int v_scaled = *out_v_scaled;
	{
	enum { L2_B = CNF_BLOCK(4 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L2_n = v_n < 0 ? 0 : v_n;
	static cnf_tune L2_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L2_moved = L2_n * (int64_t)(sizeof(int64_t));
	const int L2_pick = cnf_stream_pick(&L2_tune, L2_moved);
	const int L2_stream = L2_pick & 1; /* outputs by streaming stores */
	const double L2_t0 = L2_pick & 2 ? cnf_now() : 0;
	const int64_t L2_bstep = L2_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t)), L2_B) : L2_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_scaled.data = cnf_alloc_slack((v_n), sizeof(int64_t), "scaled");
	v_scaled.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	int L2_T = cnf_team(L2_n);
	const Arr_Int L2_o_v_scaled = v_scaled;
	int64_t L2_cnt_v_scaled[CNF_MAX_THREADS];
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
		Arr_Int v_scaled = {L2_o_v_scaled.data + L2_lo, 0};
		const int64_t L2_n = L2_hi - L2_lo;
		int64_t L2_b_idx[L2_B]; /* idx, a block at a time */
		int64_t L2_b_picked[L2_B]; /* picked, a block at a time */
		int64_t L2_w_scaled[L2_B]; /* a block of scaled, written out by streaming stores */
		cnf_carry L2_cy_scaled; /* and its last partial line */
		L2_cy_scaled.n = 0;
		for (int64_t L2_base = 0, L2_step = 0 > 0 ? 0 : L2_bstep; L2_base < L2_n; L2_base += L2_step, L2_step = L2_bstep) {
			const int64_t L2_n_root = L2_n - L2_base < L2_step ? L2_n - L2_base : L2_step;
			int64_t *restrict L2_b_scaled = L2_stream ? L2_w_scaled : v_scaled.data + v_scaled.len;
			int L2_bad_picked = 0; /* an index out of range in this pass (checkedGathers): checked after it */
			const int64_t *L2_gd_picked = v_xs.len > 0 ? v_xs.data : cnf_none.i;
			int64_t L2_gi_picked[L2_B];
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* idx = generate n (\i -> i `mod` 3) */
				const int64_t L2_v_idx = ({ int64_t l15_i = (L2_lo + L2_base + L2_k); cnf_mod(l15_i, INT64_C(3), "idx"); });
				L2_b_idx[L2_k] = L2_v_idx;
				/* picked = gather xs idx */
				const int64_t L2_v_picked = CNF_GATHER(L2_gd_picked, v_xs.len, L2_v_idx, L2_bad_picked);
				L2_b_picked[L2_k] = L2_v_picked;
				L2_gi_picked[L2_k] = L2_v_idx;
			}
			if (__builtin_expect(L2_bad_picked, 0)) /* the first index out of range fails, as in a pass that checks each */
				for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
					(void)CNF_AT(v_xs, L2_gi_picked[L2_k], "picked");
				}
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* scaled = map3 (\a b c -> a * b + c) picked idx idx */
				const int64_t L2_v_scaled = ({ int64_t l16_a = L2_b_picked[L2_k]; int64_t l17_b = L2_b_idx[L2_k]; int64_t l18_c = L2_b_idx[L2_k]; ((l16_a * l17_b) + l18_c); });
				L2_b_scaled[L2_k] = L2_v_scaled;
			}
			if (L2_stream) cnf_stream_carry(&L2_cy_scaled, v_scaled.data + v_scaled.len, L2_w_scaled, (size_t)L2_n_root * sizeof *v_scaled.data);
			v_scaled.len += L2_n_root;
		}
		if (L2_stream) cnf_stream_flush(&L2_cy_scaled, v_scaled.data + v_scaled.len);
		if (L2_stream) cnf_stream_fence();
		L2_cnt_v_scaled[L2_c] = v_scaled.len;
		cnf_team_jump = NULL;
	}
	if (!L2_failed) break;
	if (L2_T <= 1) cnf_refail(); /* the first failure in order, as one thread reports it */
	cnf_team_done(L2_T);
	L2_T = 1;
	L2_failed = 0;
	}
	/* scaled: each chunk's piece after the ones before it */
	v_scaled.len = cnf_team_move((char *)v_scaled.data, sizeof *v_scaled.data, L2_cnt_v_scaled, L2_n, L2_T);
	cnf_team_done(L2_T);
	if (L2_pick & 2) cnf_stream_took(&L2_tune, L2_pick, L2_moved, L2_t0);
	}
	*out_v_scaled = v_scaled;
}

/* Loop 3:
 *   pairs = cross scaled ys
 *   firsts = map fst pairs
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L3_everything(const Arr_Int v_scaled, const Arr_Int v_ys, Arr_Tup2_Int_Int *restrict out_v_pairs, Arr_Int *restrict out_v_firsts) {
	Arr_Tup2_Int_Int v_pairs = *out_v_pairs;
	Arr_Int v_firsts = *out_v_firsts;
	{
	enum { L3_B = CNF_BLOCK(1 * sizeof(Tup2_Int_Int) + 3 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L3_n = cnf_bound_mul(v_scaled.len, v_ys.len, "pairs");
	static cnf_tune L3_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L3_moved = L3_n * (int64_t)(sizeof *v_ys.data + sizeof(int64_t) + sizeof(Tup2_Int_Int));
	const int L3_pick = cnf_stream_pick(&L3_tune, L3_moved);
	const int L3_stream = L3_pick & 1; /* outputs by streaming stores */
	const double L3_t0 = L3_pick & 2 ? cnf_now() : 0;
	const int64_t L3_bstep = L3_stream ? cnf_stream_step((int64_t)cnf_max_i64_((int64_t)sizeof(int64_t), (int64_t)sizeof(Tup2_Int_Int)), (int64_t)(sizeof(int64_t) + sizeof(Tup2_Int_Int)), L3_B) : L3_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_pairs.data = cnf_alloc_slack(cnf_bound_mul(v_scaled.len, v_ys.len, "pairs"), sizeof(Tup2_Int_Int), "pairs");
	v_pairs.len = 0;
	v_firsts.data = cnf_alloc_slack(cnf_bound_mul(v_scaled.len, v_ys.len, "pairs"), sizeof(int64_t), "firsts");
	v_firsts.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L3_T = cnf_team(L3_n);
	const Arr_Int L3_o_v_firsts = v_firsts;
	const Arr_Tup2_Int_Int L3_o_v_pairs = v_pairs;
	int64_t L3_cnt_v_firsts[CNF_MAX_THREADS];
	int64_t L3_cnt_v_pairs[CNF_MAX_THREADS];
	{
	#pragma omp parallel num_threads(L3_T)
	for (int L3_c = cnf_thread_num(); L3_c < L3_T; L3_c += cnf_num_threads()) {
		const int64_t L3_lo = cnf_chunk(L3_n, L3_T, L3_c), L3_hi = cnf_chunk(L3_n, L3_T, L3_c + 1);
		Arr_Int v_firsts = {L3_o_v_firsts.data + L3_lo, 0};
		Arr_Tup2_Int_Int v_pairs = {L3_o_v_pairs.data + L3_lo, 0};
		const int64_t L3_n = L3_hi - L3_lo;
		int64_t L3_xa[L3_B]; /* pairs's pairs, when a block holds more than one row: scaled's elements */
		int64_t L3_xb[L3_B]; /* and ys's */
		int64_t L3_xi = 0, L3_xj = 0; /* the block's first pair: its row, and its place in the row */
		Tup2_Int_Int L3_w_pairs[L3_B]; /* a block of pairs, written out by streaming stores */
		cnf_carry L3_cy_pairs; /* and its last partial line */
		L3_cy_pairs.n = 0;
		int64_t L3_w_firsts[L3_B]; /* a block of firsts, written out by streaming stores */
		cnf_carry L3_cy_firsts; /* and its last partial line */
		L3_cy_firsts.n = 0;
		for (int64_t L3_base = 0, L3_step = 0 > 0 ? 0 : L3_bstep; L3_base < L3_n; L3_base += L3_step, L3_step = L3_bstep) {
			if (L3_base == 0) { L3_xi = (L3_lo + L3_base) / v_ys.len; L3_xj = (L3_lo + L3_base) - L3_xi * v_ys.len; } /* then carried from block to block */
			if (v_ys.len >= L3_B && v_ys.len - L3_xj < L3_step) L3_step = v_ys.len - L3_xj; /* a block of one row of pairs's pairs */
			const int64_t L3_n_root = L3_n - L3_base < L3_step ? L3_n - L3_base : L3_step;
			/* pairs = cross scaled ys: the block's pairs */
			const int64_t *restrict L3_xq = L3_xb; /* ys's element of each pair */
			const int L3_xone = v_ys.len - L3_xj >= L3_n_root; /* the block lies in one row */
			const int64_t L3_xv = v_scaled.data[L3_xi]; /* the first row's element of scaled */
			if (L3_xone) {
				L3_xq = v_ys.data + L3_xj; /* its run of ys, in place */
			} else { /* several rows: each one's run of ys copied */
				for (int64_t L3_xr = L3_xi, L3_xc = L3_xj, L3_xk = 0; L3_xk < L3_n_root; L3_xc = 0, L3_xr++) {
					const int64_t L3_xm = v_ys.len - L3_xc < L3_n_root - L3_xk ? v_ys.len - L3_xc : L3_n_root - L3_xk;
					const int64_t L3_xr_v = v_scaled.data[L3_xr];
					CNF_IVDEP
					for (int64_t L3_xt = 0; L3_xt < L3_xm; L3_xt++) {
						L3_xa[L3_xk + L3_xt] = L3_xr_v;
						L3_xb[L3_xk + L3_xt] = v_ys.data[L3_xc + L3_xt];
					}
					L3_xk += L3_xm;
				}
			}
			Tup2_Int_Int *restrict L3_b_pairs = L3_stream ? L3_w_pairs : v_pairs.data + v_pairs.len;
			int64_t *restrict L3_b_firsts = L3_stream ? L3_w_firsts : v_firsts.data + v_firsts.len;
			CNF_IVDEP
			for (int64_t L3_k = 0; L3_k < L3_n_root; L3_k++) {
				/* pairs = cross scaled ys */
				const Tup2_Int_Int L3_v_pairs = ((Tup2_Int_Int){(L3_xone ? L3_xv : L3_xa[L3_k]), L3_xq[L3_k]});
				L3_b_pairs[L3_k] = L3_v_pairs;
				/* firsts = map fst pairs */
				const int64_t L3_v_firsts = (L3_v_pairs).f0;
				L3_b_firsts[L3_k] = L3_v_firsts;
			}
			if (L3_stream) cnf_stream_carry(&L3_cy_pairs, v_pairs.data + v_pairs.len, L3_w_pairs, (size_t)L3_n_root * sizeof *v_pairs.data);
			v_pairs.len += L3_n_root;
			if (L3_stream) cnf_stream_carry(&L3_cy_firsts, v_firsts.data + v_firsts.len, L3_w_firsts, (size_t)L3_n_root * sizeof *v_firsts.data);
			v_firsts.len += L3_n_root;
			L3_xj += L3_n_root;
			if (L3_xj >= v_ys.len) { L3_xi += L3_xj / v_ys.len; L3_xj %= v_ys.len; } /* the next block's first pair */
		}
		if (L3_stream) cnf_stream_flush(&L3_cy_firsts, v_firsts.data + v_firsts.len);
		if (L3_stream) cnf_stream_flush(&L3_cy_pairs, v_pairs.data + v_pairs.len);
		if (L3_stream) cnf_stream_fence();
		L3_cnt_v_firsts[L3_c] = v_firsts.len;
		L3_cnt_v_pairs[L3_c] = v_pairs.len;
	}
	}
	/* firsts: each chunk's piece after the ones before it */
	v_firsts.len = cnf_team_move((char *)v_firsts.data, sizeof *v_firsts.data, L3_cnt_v_firsts, L3_n, L3_T);
	/* pairs: each chunk's piece after the ones before it */
	v_pairs.len = cnf_team_move((char *)v_pairs.data, sizeof *v_pairs.data, L3_cnt_v_pairs, L3_n, L3_T);
	cnf_team_done(L3_T);
	if (L3_pick & 2) cnf_stream_took(&L3_tune, L3_pick, L3_moved, L3_t0);
	}
	*out_v_pairs = v_pairs;
	*out_v_firsts = v_firsts;
}

static cnf_result_everything cnf_everything(Arr_Int v_xs, Arr_Int v_ys, int64_t v_n) {
	Arr_Int v_sums = {0};
	int64_t v_total = 0;
	Arr_Int v_scaled = {0};
	Arr_Tup2_Int_Int v_pairs = {0};
	Arr_Int v_firsts = {0};
	Arr_Int v_sorted = {0};
	int64_t v_s = 0;
	cnf_L1_everything(v_xs, v_ys, v_n, &v_sums, &v_total); /* loop 1: doubled, sums, big, total */
	cnf_L2_everything(v_n, v_xs, &v_scaled); /* loop 2: idx, picked, scaled */
	cnf_L3_everything(v_scaled, v_ys, &v_pairs, &v_firsts); /* loop 3: pairs, firsts */

	/* sorted = external sort firsts */
	v_sorted = cnf_ext_sort_Int(v_firsts, "sorted");

	/* s = external sum firsts */
	v_s = cnf_ext_sum_Int(v_firsts, "s");
	cnf_free(v_scaled.data);
	cnf_free(v_firsts.data);
	return (cnf_result_everything){v_sums, v_total, v_pairs, v_sorted, v_s};
}

