/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;
typedef struct { Tup2_Int_Int *data; int64_t len; } Arr_Tup2_Int_Int;
typedef struct { int64_t f0; Tup2_Int_Int f1; } Tup2_Int_Tup2_Int_Int;

/* offsets, compiled from its clustering into 1 loops. */
typedef struct { Arr_Tup2_Int_Int r0; /* spans */ Arr_Int r1; /* ids */ Arr_Int r2; /* lasts */ int64_t r3; /* records */ int64_t r4; /* total */ } cnf_result_offsets;

static cnf_result_offsets cnf_offsets(Arr_Int v_counts) {
	Arr_Tup2_Int_Int v_spans = {0};
	Arr_Int v_ids = {0};
	Arr_Int v_lasts = {0};
	int64_t v_records;
	int64_t v_total;
	v_records = (v_counts).len; /* records: known before any loop */

	/* Loop 1:
	 *   ends = postscanl (+) 0 counts
	 *   starts = prescanl (+) 0 counts
	 *   spans = zip starts ends
	 *   numbered = indexed spans
	 *   ids = unzip numbered
	 *   lasts = map snd ss
	 *   total = fold (+) 0 counts
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	/* On one thread: ends (a scan) is read in its own loop, which would see each chunk's running totals before they are fixed. */
	const int64_t L1_n = v_counts.len;
	const int L1_stream = cnf_stream_worth(L1_n * (int64_t)(sizeof *v_counts.data + sizeof(int64_t) + sizeof(int64_t) + sizeof(Tup2_Int_Int))); /* outputs by streaming stores */
	int64_t L1_acc_ends = INT64_C(0); /* ends's accumulator */
	int64_t L1_acc_starts = INT64_C(0); /* starts's accumulator */
	v_spans.data = cnf_alloc_slack_at(v_counts.len, sizeof(Tup2_Int_Int), "spans", v_counts.data);
	v_spans.len = 0;
	Tup2_Int_Int L1_w_spans[1024]; /* a block of spans, written out by streaming stores */
	v_ids.data = cnf_alloc_slack_at(v_counts.len, sizeof(int64_t), "ids", v_counts.data);
	v_ids.len = 0;
	int64_t L1_w_ids[1024]; /* a block of ids, written out by streaming stores */
	v_lasts.data = cnf_alloc_slack_at(v_counts.len, sizeof(int64_t), "lasts", v_counts.data);
	v_lasts.len = 0;
	int64_t L1_w_lasts[1024]; /* a block of lasts, written out by streaming stores */
	int64_t L1_acc_total = INT64_C(0); /* total's accumulator */
	const int64_t L1_peel = cnf_peel(v_counts.data, sizeof *v_counts.data, L1_n);
	for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : 1024; L1_base < L1_n; L1_base += L1_step, L1_step = 1024) {
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
			/* starts = prescanl (+) 0 counts */
			const int64_t L1_v_starts = L1_acc_starts;
			L1_acc_starts = (L1_acc_starts + L1_b_counts[L1_k]);
			/* spans = zip starts ends */
			const Tup2_Int_Int L1_v_spans = ((Tup2_Int_Int){L1_v_starts, L1_v_ends});
			L1_b_spans[L1_k] = L1_v_spans;
			/* numbered = indexed spans */
			const Tup2_Int_Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Tup2_Int_Int){(L1_base + L1_k), L1_v_spans});
			/* ids = unzip numbered */
			const int64_t L1_v_ids = L1_v_numbered.f0;
			L1_b_ids[L1_k] = L1_v_ids;
			const Tup2_Int_Int L1_v_ss = L1_v_numbered.f1;
			/* lasts = map snd ss */
			const int64_t L1_v_lasts = (L1_v_ss).f1;
			L1_b_lasts[L1_k] = L1_v_lasts;
		}
		if (L1_stream) cnf_stream_out(v_spans.data + v_spans.len, L1_w_spans, (size_t)L1_n_root * sizeof *v_spans.data);
		v_spans.len += L1_n_root;
		if (L1_stream) cnf_stream_out(v_ids.data + v_ids.len, L1_w_ids, (size_t)L1_n_root * sizeof *v_ids.data);
		v_ids.len += L1_n_root;
		if (L1_stream) cnf_stream_out(v_lasts.data + v_lasts.len, L1_w_lasts, (size_t)L1_n_root * sizeof *v_lasts.data);
		v_lasts.len += L1_n_root;
	}
	if (L1_stream) cnf_stream_fence();
	v_total = L1_acc_total;
	}
	return (cnf_result_offsets){v_spans, v_ids, v_lasts, v_records, v_total};
}

