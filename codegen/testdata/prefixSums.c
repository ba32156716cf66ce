/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;
typedef struct { Tup2_Int_Int *data; int64_t len; } Arr_Tup2_Int_Int;
typedef struct { int64_t f0; Tup2_Int_Int f1; } Tup2_Int_Tup2_Int_Int;

/* offsets, compiled from its clustering into 1 loops. */
typedef struct { Arr_Tup2_Int_Int r0; /* spans */ Arr_Int r1; /* ids */ Arr_Int r2; /* lasts */ int64_t r3; /* records */ int64_t r4; /* total */ } cnf_result_offsets;

/* Loop 1:
 *   ends = postscanl (+) 0 counts
 *   starts = prescanl (+) 0 counts
 *   spans = zip starts ends
 *   numbered = indexed spans
 *   ids = unzip numbered
 *   lasts = map snd ss
 *   total = fold (+) 0 counts
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_offsets(const Arr_Int v_counts, Arr_Tup2_Int_Int *restrict out_v_spans, Arr_Int *restrict out_v_ids, Arr_Int *restrict out_v_lasts, int64_t *restrict out_v_total) {
	Arr_Tup2_Int_Int v_spans = *out_v_spans;
	Arr_Int v_ids = *out_v_ids;
	Arr_Int v_lasts = *out_v_lasts;
	int64_t v_total = *out_v_total;
	{
	enum { L1_B = CNF_BLOCK(1 * sizeof(Tup2_Int_Int) + 5 * sizeof(int64_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_counts.len;
	static cnf_tune L1_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L1_moved = L1_n * (int64_t)(sizeof *v_counts.data + sizeof(int64_t) + sizeof(int64_t) + sizeof(Tup2_Int_Int));
	const int L1_pick = cnf_stream_pick(&L1_tune, L1_moved);
	const int L1_stream = L1_pick & 1; /* outputs by streaming stores */
	const double L1_t0 = L1_pick & 2 ? cnf_now() : 0;
	const int64_t L1_bstep = L1_stream ? cnf_stream_step((int64_t)cnf_max_i64_((int64_t)sizeof(int64_t), (int64_t)sizeof(Tup2_Int_Int)), (int64_t)(sizeof(int64_t) + sizeof(int64_t) + sizeof(Tup2_Int_Int)), L1_B) : L1_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_spans.data = cnf_alloc_slack_at(v_counts.len, sizeof(Tup2_Int_Int), "spans", v_counts.data);
	v_spans.len = 0;
	v_ids.data = cnf_alloc_slack_at(v_counts.len, sizeof(int64_t), "ids", v_counts.data);
	v_ids.len = 0;
	v_lasts.data = cnf_alloc_slack_at(v_counts.len, sizeof(int64_t), "lasts", v_counts.data);
	v_lasts.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_counts = v_counts;
	const Arr_Int L1_o_v_ids = v_ids;
	const Arr_Int L1_o_v_lasts = v_lasts;
	const Arr_Tup2_Int_Int L1_o_v_spans = v_spans;
	int64_t L1_cnt_v_ids[CNF_MAX_THREADS];
	int64_t L1_cnt_v_lasts[CNF_MAX_THREADS];
	int64_t L1_cnt_v_spans[CNF_MAX_THREADS];
	int64_t L1_p_v_ends[CNF_MAX_THREADS];
	int64_t L1_p_v_starts[CNF_MAX_THREADS];
	int64_t L1_p_v_total[CNF_MAX_THREADS];
	int L1_Tc = L1_T;
	if (L1_T > 1) {
	/* In tiles (codegen/parallel.go, tiledLoop): each counts its filtered rates and totals its
	 * scans first (counts.go), then runs from where the tiles before reach; outputs written once. */
	const int64_t L1_tile = cnf_tile(), L1_K = L1_n > 0 ? (L1_n + L1_tile - 1) / L1_tile : 1;
	int *L1_pready = cnf_alloc_made(0, L1_K + 1, sizeof(int), "tiles", 0); /* tile k's scans' starts are published */
	memset(L1_pready, 0, (size_t)(L1_K + 1) * sizeof(int));
	L1_pready[0] = 1;
	int64_t *L1_pre_ends = cnf_alloc_made(0, L1_K + 1, sizeof(int64_t), "tiles", 0); /* ends's running total before each tile */
	L1_pre_ends[0] = INT64_C(0);
	int64_t *L1_pre_starts = cnf_alloc_made(0, L1_K + 1, sizeof(int64_t), "tiles", 0); /* starts's running total before each tile */
	L1_pre_starts[0] = INT64_C(0);
	int64_t *L1_pt_v_ends = cnf_alloc_made(0, L1_K, sizeof(int64_t), "tiles", 0);
	int64_t *L1_pt_v_starts = cnf_alloc_made(0, L1_K, sizeof(int64_t), "tiles", 0);
	int64_t *L1_pt_v_total = cnf_alloc_made(0, L1_K, sizeof(int64_t), "tiles", 0);
	int64_t L1_next = 0;
	#pragma omp parallel num_threads(L1_T)
	for (int64_t L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED); L1_c < L1_K; L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED)) {
		const int64_t L1_lo = L1_c * L1_tile, L1_hi = L1_lo + L1_tile < L1_n ? L1_lo + L1_tile : L1_n;
		const Arr_Int v_counts = {L1_o_v_counts.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ids = {L1_o_v_ids.data + L1_lo, 0};
		Arr_Int v_lasts = {L1_o_v_lasts.data + L1_lo, 0};
		Arr_Tup2_Int_Int v_spans = {L1_o_v_spans.data + L1_lo, 0};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_ct_ends = INT64_C(0); /* the total of ends's elements in this tile */
		int64_t L1_ct_starts = INT64_C(0); /* the total of starts's elements in this tile */
		for (int64_t L1_ci = 0; L1_ci < L1_n; L1_ci++) {
			L1_ct_ends = (L1_ct_ends + v_counts.data[L1_ci]);
			L1_ct_starts = (L1_ct_starts + v_counts.data[L1_ci]);
		}
		cnf_wait(&L1_pready[L1_c]);
		L1_pre_ends[L1_c + 1] = (L1_pre_ends[L1_c] + L1_ct_ends);
		L1_pre_starts[L1_c + 1] = (L1_pre_starts[L1_c] + L1_ct_starts);
		__atomic_store_n(&L1_pready[L1_c + 1], 1, __ATOMIC_RELEASE);
		int64_t L1_b_ends[L1_B]; /* ends, a block at a time */
		int64_t L1_acc_ends = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* ends's accumulator */
		int64_t L1_b_starts[L1_B]; /* starts, a block at a time */
		int64_t L1_acc_starts = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* starts's accumulator */
		Tup2_Int_Int L1_w_spans[L1_B]; /* a block of spans, written out by streaming stores */
		cnf_carry L1_cy_spans; /* and its last partial line */
		L1_cy_spans.n = 0;
		int64_t L1_w_ids[L1_B]; /* a block of ids, written out by streaming stores */
		cnf_carry L1_cy_ids; /* and its last partial line */
		L1_cy_ids.n = 0;
		int64_t L1_w_lasts[L1_B]; /* a block of lasts, written out by streaming stores */
		cnf_carry L1_cy_lasts; /* and its last partial line */
		L1_cy_lasts.n = 0;
		int64_t L1_acc_total = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* total's accumulator */
		L1_acc_ends = L1_pre_ends[L1_c]; /* ends runs on from the tiles before */
		L1_acc_starts = L1_pre_starts[L1_c]; /* starts runs on from the tiles before */
		const int64_t L1_peel = cnf_peel(v_counts.data, sizeof *v_counts.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_bstep; L1_base < L1_n; L1_base += L1_step, L1_step = L1_bstep) {
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_counts = v_counts.data + L1_base;
			Tup2_Int_Int *restrict L1_b_spans = L1_stream ? L1_w_spans : v_spans.data + v_spans.len;
			int64_t *restrict L1_b_ids = L1_stream ? L1_w_ids : v_ids.data + v_ids.len;
			int64_t *restrict L1_b_lasts = L1_stream ? L1_w_lasts : v_lasts.data + v_lasts.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* total = fold (+) 0 counts */
				L1_acc_total = (L1_acc_total + L1_b_counts[L1_k]);
			}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* ends = postscanl (+) 0 counts */
				L1_acc_ends = (L1_acc_ends + L1_b_counts[L1_k]);
				const int64_t L1_v_ends = L1_acc_ends;
				L1_b_ends[L1_k] = L1_v_ends;
				/* starts = prescanl (+) 0 counts */
				const int64_t L1_v_starts = L1_acc_starts;
				L1_b_starts[L1_k] = L1_v_starts;
				L1_acc_starts = (L1_acc_starts + L1_b_counts[L1_k]);
			}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* spans = zip starts ends */
				const Tup2_Int_Int L1_v_spans = ((Tup2_Int_Int){L1_b_starts[L1_k], L1_b_ends[L1_k]});
				L1_b_spans[L1_k] = L1_v_spans;
				/* numbered = indexed spans */
				const Tup2_Int_Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Tup2_Int_Int){(L1_lo + L1_base + L1_k), L1_v_spans});
				/* ids = unzip numbered */
				const int64_t L1_v_ids = L1_v_numbered.f0;
				L1_b_ids[L1_k] = L1_v_ids;
				const Tup2_Int_Int L1_v_ss = L1_v_numbered.f1;
				/* lasts = map snd ss */
				const int64_t L1_v_lasts = (L1_v_ss).f1;
				L1_b_lasts[L1_k] = L1_v_lasts;
			}
			if (L1_stream) cnf_stream_carry(&L1_cy_spans, v_spans.data + v_spans.len, L1_w_spans, (size_t)L1_n_root * sizeof *v_spans.data);
			v_spans.len += L1_n_root;
			if (L1_stream) cnf_stream_carry(&L1_cy_ids, v_ids.data + v_ids.len, L1_w_ids, (size_t)L1_n_root * sizeof *v_ids.data);
			v_ids.len += L1_n_root;
			if (L1_stream) cnf_stream_carry(&L1_cy_lasts, v_lasts.data + v_lasts.len, L1_w_lasts, (size_t)L1_n_root * sizeof *v_lasts.data);
			v_lasts.len += L1_n_root;
		}
		if (L1_stream) cnf_stream_flush(&L1_cy_ids, v_ids.data + v_ids.len);
		if (L1_stream) cnf_stream_flush(&L1_cy_lasts, v_lasts.data + v_lasts.len);
		if (L1_stream) cnf_stream_flush(&L1_cy_spans, v_spans.data + v_spans.len);
		if (L1_stream) cnf_stream_fence();
		__asm__("" : "+r"(L1_acc_ends)); /* in a general register (inRegister) */
		L1_pt_v_ends[L1_c] = L1_acc_ends;
		__asm__("" : "+r"(L1_acc_starts)); /* in a general register (inRegister) */
		L1_pt_v_starts[L1_c] = L1_acc_starts;
		__asm__("" : "+r"(L1_acc_total)); /* in a general register (inRegister) */
		L1_pt_v_total[L1_c] = L1_acc_total;
	}
	L1_cnt_v_ids[0] = L1_n;
	L1_cnt_v_lasts[0] = L1_n;
	L1_cnt_v_spans[0] = L1_n;
	L1_p_v_ends[0] = L1_pt_v_ends[0]; /* ends: the tiles' partial results, in order */
	for (int64_t L1_k = 1; L1_k < L1_K; L1_k++) L1_p_v_ends[0] = (L1_p_v_ends[0] + L1_pt_v_ends[L1_k]);
	cnf_free(L1_pt_v_ends);
	L1_p_v_starts[0] = L1_pt_v_starts[0]; /* starts: the tiles' partial results, in order */
	for (int64_t L1_k = 1; L1_k < L1_K; L1_k++) L1_p_v_starts[0] = (L1_p_v_starts[0] + L1_pt_v_starts[L1_k]);
	cnf_free(L1_pt_v_starts);
	L1_p_v_total[0] = L1_pt_v_total[0]; /* total: the tiles' partial results, in order */
	for (int64_t L1_k = 1; L1_k < L1_K; L1_k++) L1_p_v_total[0] = (L1_p_v_total[0] + L1_pt_v_total[L1_k]);
	cnf_free(L1_pt_v_total);
	cnf_free(L1_pready);
	cnf_free(L1_pre_ends);
	cnf_free(L1_pre_starts);
	L1_Tc = 1;
	} else {
	for (int L1_c = 0; L1_c < 1; L1_c++) { /* one thread: the whole input one chunk */
		const int64_t L1_lo = cnf_chunk(L1_n, L1_T, L1_c), L1_hi = cnf_chunk(L1_n, L1_T, L1_c + 1);
		const Arr_Int v_counts = {L1_o_v_counts.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ids = {L1_o_v_ids.data + L1_lo, 0};
		Arr_Int v_lasts = {L1_o_v_lasts.data + L1_lo, 0};
		Arr_Tup2_Int_Int v_spans = {L1_o_v_spans.data + L1_lo, 0};
		const int64_t L1_n = L1_hi - L1_lo;
		int64_t L1_b_ends[L1_B]; /* ends, a block at a time */
		int64_t L1_acc_ends = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* ends's accumulator */
		int64_t L1_b_starts[L1_B]; /* starts, a block at a time */
		int64_t L1_acc_starts = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* starts's accumulator */
		Tup2_Int_Int L1_w_spans[L1_B]; /* a block of spans, written out by streaming stores */
		cnf_carry L1_cy_spans; /* and its last partial line */
		L1_cy_spans.n = 0;
		int64_t L1_w_ids[L1_B]; /* a block of ids, written out by streaming stores */
		cnf_carry L1_cy_ids; /* and its last partial line */
		L1_cy_ids.n = 0;
		int64_t L1_w_lasts[L1_B]; /* a block of lasts, written out by streaming stores */
		cnf_carry L1_cy_lasts; /* and its last partial line */
		L1_cy_lasts.n = 0;
		int64_t L1_acc_total = L1_c == 0 ? INT64_C(0) : INT64_C(0); /* total's accumulator */
		const int64_t L1_peel = cnf_peel(v_counts.data, sizeof *v_counts.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_bstep; L1_base < L1_n; L1_base += L1_step, L1_step = L1_bstep) {
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_counts = v_counts.data + L1_base;
			Tup2_Int_Int *restrict L1_b_spans = L1_stream ? L1_w_spans : v_spans.data + v_spans.len;
			int64_t *restrict L1_b_ids = L1_stream ? L1_w_ids : v_ids.data + v_ids.len;
			int64_t *restrict L1_b_lasts = L1_stream ? L1_w_lasts : v_lasts.data + v_lasts.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* total = fold (+) 0 counts */
				L1_acc_total = (L1_acc_total + L1_b_counts[L1_k]);
			}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* ends = postscanl (+) 0 counts */
				L1_acc_ends = (L1_acc_ends + L1_b_counts[L1_k]);
				const int64_t L1_v_ends = L1_acc_ends;
				L1_b_ends[L1_k] = L1_v_ends;
				/* starts = prescanl (+) 0 counts */
				const int64_t L1_v_starts = L1_acc_starts;
				L1_b_starts[L1_k] = L1_v_starts;
				L1_acc_starts = (L1_acc_starts + L1_b_counts[L1_k]);
			}
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* spans = zip starts ends */
				const Tup2_Int_Int L1_v_spans = ((Tup2_Int_Int){L1_b_starts[L1_k], L1_b_ends[L1_k]});
				L1_b_spans[L1_k] = L1_v_spans;
				/* numbered = indexed spans */
				const Tup2_Int_Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Tup2_Int_Int){(L1_lo + L1_base + L1_k), L1_v_spans});
				/* ids = unzip numbered */
				const int64_t L1_v_ids = L1_v_numbered.f0;
				L1_b_ids[L1_k] = L1_v_ids;
				const Tup2_Int_Int L1_v_ss = L1_v_numbered.f1;
				/* lasts = map snd ss */
				const int64_t L1_v_lasts = (L1_v_ss).f1;
				L1_b_lasts[L1_k] = L1_v_lasts;
			}
			if (L1_stream) cnf_stream_carry(&L1_cy_spans, v_spans.data + v_spans.len, L1_w_spans, (size_t)L1_n_root * sizeof *v_spans.data);
			v_spans.len += L1_n_root;
			if (L1_stream) cnf_stream_carry(&L1_cy_ids, v_ids.data + v_ids.len, L1_w_ids, (size_t)L1_n_root * sizeof *v_ids.data);
			v_ids.len += L1_n_root;
			if (L1_stream) cnf_stream_carry(&L1_cy_lasts, v_lasts.data + v_lasts.len, L1_w_lasts, (size_t)L1_n_root * sizeof *v_lasts.data);
			v_lasts.len += L1_n_root;
		}
		if (L1_stream) cnf_stream_flush(&L1_cy_ids, v_ids.data + v_ids.len);
		if (L1_stream) cnf_stream_flush(&L1_cy_lasts, v_lasts.data + v_lasts.len);
		if (L1_stream) cnf_stream_flush(&L1_cy_spans, v_spans.data + v_spans.len);
		if (L1_stream) cnf_stream_fence();
		L1_cnt_v_ids[L1_c] = v_ids.len;
		L1_cnt_v_lasts[L1_c] = v_lasts.len;
		L1_cnt_v_spans[L1_c] = v_spans.len;
		__asm__("" : "+r"(L1_acc_ends)); /* in a general register (inRegister) */
		L1_p_v_ends[L1_c] = L1_acc_ends;
		__asm__("" : "+r"(L1_acc_starts)); /* in a general register (inRegister) */
		L1_p_v_starts[L1_c] = L1_acc_starts;
		__asm__("" : "+r"(L1_acc_total)); /* in a general register (inRegister) */
		L1_p_v_total[L1_c] = L1_acc_total;
	}
	}
	/* ids: each chunk's piece after the ones before it */
	v_ids.len = cnf_team_move((char *)v_ids.data, sizeof *v_ids.data, L1_cnt_v_ids, L1_n, L1_Tc);
	/* lasts: each chunk's piece after the ones before it */
	v_lasts.len = cnf_team_move((char *)v_lasts.data, sizeof *v_lasts.data, L1_cnt_v_lasts, L1_n, L1_Tc);
	/* spans: each chunk's piece after the ones before it */
	v_spans.len = cnf_team_move((char *)v_spans.data, sizeof *v_spans.data, L1_cnt_v_spans, L1_n, L1_Tc);
	cnf_team_done(L1_T);
	int64_t L1_acc_ends = L1_p_v_ends[0]; /* ends: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_Tc; L1_c++) L1_acc_ends = (L1_acc_ends + L1_p_v_ends[L1_c]);
	int64_t L1_acc_starts = L1_p_v_starts[0]; /* starts: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_Tc; L1_c++) L1_acc_starts = (L1_acc_starts + L1_p_v_starts[L1_c]);
	int64_t L1_acc_total = L1_p_v_total[0]; /* total: the chunks' partial results, in order */
	for (int L1_c = 1; L1_c < L1_Tc; L1_c++) L1_acc_total = (L1_acc_total + L1_p_v_total[L1_c]);
	v_total = L1_acc_total;
	if (L1_pick & 2) cnf_stream_took(&L1_tune, L1_pick, L1_moved, L1_t0);
	}
	*out_v_spans = v_spans;
	*out_v_ids = v_ids;
	*out_v_lasts = v_lasts;
	*out_v_total = v_total;
}

static cnf_result_offsets cnf_offsets(Arr_Int v_counts) {
	Arr_Tup2_Int_Int v_spans = {0};
	Arr_Int v_ids = {0};
	Arr_Int v_lasts = {0};
	int64_t v_records = 0;
	int64_t v_total = 0;
	v_records = (v_counts).len; /* records: known before any loop */
	cnf_L1_offsets(v_counts, &v_spans, &v_ids, &v_lasts, &v_total); /* loop 1: ends, starts, spans, numbered, ids, lasts, total */
	return (cnf_result_offsets){v_spans, v_ids, v_lasts, v_records, v_total};
}

