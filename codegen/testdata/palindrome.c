/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* palindrome, compiled from its clustering into 3 loops. */
typedef struct { Arr_Int r0; /* pal */ int64_t r1; /* n */ int64_t r2; /* total */ Arr_Int r3; /* middle */ } cnf_result_palindrome;

static cnf_result_palindrome cnf_palindrome(Arr_Int v_xs) {
	Arr_Int v_doubled = {0};
	Arr_Int v_back = {0};
	Arr_Int v_pal = {0};
	int64_t v_n;
	int64_t v_total;
	int64_t v_half;
	Arr_Int v_middle = {0};
	v_n = ((v_xs).len + (v_xs).len); /* n: known before any loop */
	v_half = (v_xs).len; /* half: known before any loop */

	/* Loop 1:
	 *   doubled = map (* 2) xs
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	const int64_t L1_n = v_xs.len;
	const int L1_stream = cnf_stream_worth(L1_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t))); /* outputs by streaming stores */
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
		int64_t L1_w_doubled[1024]; /* a block of doubled, written out by streaming stores */
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_stream ? 1024 : L1_n; L1_base < L1_n; L1_base += L1_step, L1_step = L1_stream ? 1024 : L1_n - L1_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			int64_t *restrict L1_b_doubled = L1_stream ? L1_w_doubled : v_doubled.data + v_doubled.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* doubled = map (* 2) xs */
				const int64_t L1_v_doubled = (L1_b_xs[L1_k] * INT64_C(2));
				L1_b_doubled[L1_k] = L1_v_doubled;
			}
			if (L1_stream) cnf_stream_out(v_doubled.data + v_doubled.len, L1_w_doubled, (size_t)L1_n_root * sizeof *v_doubled.data);
			v_doubled.len += L1_n_root;
		}
		if (L1_stream) cnf_stream_fence();
		L1_cnt_v_doubled[L1_c] = v_doubled.len;
	}
	}
	/* doubled: each chunk's piece after the ones before it */
	v_doubled.len = cnf_team_move((char *)v_doubled.data, sizeof *v_doubled.data, L1_cnt_v_doubled, L1_n, L1_T);
	cnf_team_done(L1_T);
	}

	/* Loop 2:
	 *   back = reverse doubled
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	const int64_t L2_n = v_doubled.len;
	const int L2_stream = cnf_stream_worth(L2_n * (int64_t)(sizeof *v_doubled.data + sizeof(int64_t))); /* outputs by streaming stores */
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
		int64_t L2_w_back[1024]; /* a block of back, written out by streaming stores */
		const int64_t L2_peel = cnf_peel(v_doubled.data, sizeof *v_doubled.data, L2_n);
		for (int64_t L2_base = 0, L2_step = L2_peel > 0 ? L2_peel : L2_stream ? 1024 : L2_n; L2_base < L2_n; L2_base += L2_step, L2_step = L2_stream ? 1024 : L2_n - L2_base) { /* no buffers but to stream outputs: one block, or a peel and one */
			const int64_t L2_n_root = L2_n - L2_base < L2_step ? L2_n - L2_base : L2_step;
			const int64_t *restrict L2_b_doubled = v_doubled.data + L2_base;
			int64_t *restrict L2_b_back = L2_stream ? L2_w_back : v_back.data + v_back.len;
			CNF_IVDEP
			for (int64_t L2_k = 0; L2_k < L2_n_root; L2_k++) {
				/* back = reverse doubled */
				const int64_t L2_v_back = L2_o_v_doubled.data[L2_o_v_doubled.len - 1 - (L2_lo + L2_base + L2_k)];
				L2_b_back[L2_k] = L2_v_back;
			}
			if (L2_stream) cnf_stream_out(v_back.data + v_back.len, L2_w_back, (size_t)L2_n_root * sizeof *v_back.data);
			v_back.len += L2_n_root;
		}
		if (L2_stream) cnf_stream_fence();
		L2_cnt_v_back[L2_c] = v_back.len;
	}
	}
	/* back: each chunk's piece after the ones before it */
	v_back.len = cnf_team_move((char *)v_back.data, sizeof *v_back.data, L2_cnt_v_back, L2_n, L2_T);
	cnf_team_done(L2_T);
	}

	/* Loop 3:
	 *   pal = append doubled back
	 *   total = fold (+) 0 pal
	 *   middle = slice half 1 pal
	 * The fused process, an element at a time (not blocked: append doubled back is not blocked).
	 */
	{
	/* append pal / fold total / slice middle */
	int64_t L3_0_i_back = 0; /* position in back */
	int64_t L3_0_i_doubled = 0; /* position in doubled */
	int64_t L3_0_h_pal__v = 0;
	int64_t L3_0_h_pal__w = 0;
	int64_t L3_0_h_total__s = INT64_C(0);
	int64_t L3_0_h_total__v = 0;
	int64_t L3_0_h_pal__chan = 0;
	int64_t L3_0_h_middle__i = INT64_C(0);
	int64_t L3_0_h_middle__v = 0;
	v_middle.data = cnf_alloc_slack(cnf_bound_add(v_doubled.len, v_back.len, "pal"), sizeof(int64_t), "middle");
	v_middle.len = 0;
	v_pal.data = cnf_alloc_slack(cnf_bound_add(v_doubled.len, v_back.len, "pal"), sizeof(int64_t), "pal");
	v_pal.len = 0;
L3_0_s0: /* pal_0/total_0/middle_0: pull doubled */
	if (L3_0_i_doubled < v_doubled.len) {
		L3_0_h_pal__v = v_doubled.data[L3_0_i_doubled];
		goto L3_0_s1;
	}
	goto L3_0_s2;
L3_0_s1: /* pal_1/total_0/middle_0: push pal */
	v_pal.data[v_pal.len++] = L3_0_h_pal__v;
	L3_0_h_pal__chan = L3_0_h_pal__v;
	L3_0_h_total__v = L3_0_h_pal__chan;
	L3_0_h_total__s = (L3_0_h_total__s + L3_0_h_total__v);
	L3_0_h_middle__v = L3_0_h_pal__chan;
	goto L3_0_s5;
L3_0_s2: /* pal_3/total_0/middle_0: pull back */
	if (L3_0_i_back < v_back.len) {
		L3_0_h_pal__w = v_back.data[L3_0_i_back];
		goto L3_0_s3;
	}
	goto L3_0_s4;
L3_0_s3: /* pal_4/total_0/middle_0: push pal */
	v_pal.data[v_pal.len++] = L3_0_h_pal__w;
	L3_0_h_pal__chan = L3_0_h_pal__w;
	L3_0_h_total__v = L3_0_h_pal__chan;
	L3_0_h_total__s = (L3_0_h_total__s + L3_0_h_total__v);
	L3_0_h_middle__v = L3_0_h_pal__chan;
	goto L3_0_s7;
L3_0_s4: /* pal_6/total_0/middle_0: close pal */
	goto L3_0_s8;
L3_0_s5: /* pal_2/total_0/middle_1[pal=h]: drop doubled */
	L3_0_i_doubled++;
	goto L3_0_s6;
L3_0_s6: /* pal_0/total_0/middle_1[pal=h]: case */
	{ /* a select, not a branch */
		bool l1_c = ((L3_0_h_middle__i >= v_half) && ((L3_0_h_middle__i - INT64_C(1)) < v_half));
		v_middle.data[v_middle.len] = L3_0_h_middle__v;
		v_middle.len += l1_c;
		L3_0_h_middle__i = l1_c ? (L3_0_h_middle__i + INT64_C(1)) : L3_0_h_middle__i;
		L3_0_h_middle__i = !l1_c ? (L3_0_h_middle__i + INT64_C(1)) : L3_0_h_middle__i;
	}
	goto L3_0_s0;
L3_0_s7: /* pal_5/total_0/middle_1[pal=h]: drop back */
	L3_0_i_back++;
	goto L3_0_s10;
L3_0_s8: /* pal_7/total_2[pal=c]/middle_4[pal=c]: push total */
	v_total = L3_0_h_total__s;
	goto L3_0_s11;
L3_0_s9: /* pal_0/total_0/middle_2[pal=h]: push middle */
	v_middle.data[v_middle.len++] = L3_0_h_middle__v;
	L3_0_h_middle__i = (L3_0_h_middle__i + INT64_C(1));
	goto L3_0_s0;
L3_0_s10: /* pal_3/total_0/middle_1[pal=h]: case */
	{ /* a select, not a branch */
		bool l2_c = ((L3_0_h_middle__i >= v_half) && ((L3_0_h_middle__i - INT64_C(1)) < v_half));
		v_middle.data[v_middle.len] = L3_0_h_middle__v;
		v_middle.len += l2_c;
		L3_0_h_middle__i = l2_c ? (L3_0_h_middle__i + INT64_C(1)) : L3_0_h_middle__i;
		L3_0_h_middle__i = !l2_c ? (L3_0_h_middle__i + INT64_C(1)) : L3_0_h_middle__i;
	}
	goto L3_0_s2;
L3_0_s11: /* pal_7/total_3[pal=c]/middle_4[pal=c]: close total */
	goto L3_0_s13;
L3_0_s12: /* pal_3/total_0/middle_2[pal=h]: push middle */
	v_middle.data[v_middle.len++] = L3_0_h_middle__v;
	L3_0_h_middle__i = (L3_0_h_middle__i + INT64_C(1));
	goto L3_0_s2;
L3_0_s13: /* pal_7/total_4[pal=c]/middle_4[pal=c]: close middle */
	goto L3_0_s14;
L3_0_s14: /* pal_7/total_4[pal=c]/middle_5[pal=c]: exit */
	goto L3_0_exit;
L3_0_exit:;
	}
	cnf_free(v_doubled.data);
	cnf_free(v_back.data);
	return (cnf_result_palindrome){v_pal, v_n, v_total, v_middle};
}

