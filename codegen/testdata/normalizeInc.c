/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* normalizeInc, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* ys */ } cnf_result_normalizeInc;

static cnf_result_normalizeInc cnf_normalizeInc(Arr_Int v_xs) {
	int64_t v_sum1;
	Arr_Int v_ys = {0};

	/* Loop 1:
	 *   sum1 = fold (+) 0 xs
	 */
	{
	/* fold sum1 */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_h_sum1__s = INT64_C(0);
	int64_t L1_0_h_sum1__v = 0;
L1_0_s0: /* sum1_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_sum1__v = v_xs.data[L1_0_i_xs];
		goto L1_0_s1;
	}
	goto L1_0_s2;
L1_0_s1: /* sum1_1: drop xs */
	L1_0_i_xs++;
	L1_0_h_sum1__s = (L1_0_h_sum1__s + L1_0_h_sum1__v);
	goto L1_0_s0;
L1_0_s2: /* sum1_2: push sum1 */
	v_sum1 = L1_0_h_sum1__s;
	goto L1_0_s3;
L1_0_s3: /* sum1_3: close sum1 */
	goto L1_0_s4;
L1_0_s4: /* sum1_4: exit */
	goto L1_0_exit;
L1_0_exit:;
	}

	/* Loop 2:
	 *   incs = map (+ 1) xs
	 *   ys = map (/ sum1) incs
	 */
	{
	const cnf_divider dv_sum1 = cnf_divider_for(v_sum1);
	/* map incs / map ys */
	int64_t L2_0_i_xs = 0; /* position in xs */
	int64_t L2_0_h_incs__v = 0;
	int64_t L2_0_h_ys__v = 0;
	int64_t L2_0_h_incs__chan = 0;
	v_ys.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys"), sizeof(int64_t), "ys");
	v_ys.len = 0;
L2_0_s0: /* incs_0/ys_0: pull xs */
	if (L2_0_i_xs < v_xs.len) {
		L2_0_h_incs__v = v_xs.data[L2_0_i_xs];
		L2_0_h_incs__chan = (L2_0_h_incs__v + INT64_C(1));
		L2_0_h_ys__v = L2_0_h_incs__chan;
		goto L2_0_s1;
	}
	goto L2_0_s3;
L2_0_s1: /* incs_2/ys_1[incs=h]: drop xs */
	L2_0_i_xs++;
	goto L2_0_s2;
L2_0_s2: /* incs_0/ys_1[incs=h]: push ys */
	v_ys.data[v_ys.len++] = cnf_quot_by(L2_0_h_ys__v, dv_sum1, "ys");
	goto L2_0_s0;
L2_0_s3: /* incs_5/ys_3[incs=c]: close ys */
	goto L2_0_s4;
L2_0_s4: /* incs_5/ys_5[incs=c]: exit */
	goto L2_0_exit;
L2_0_exit:;
	}
	return (cnf_result_normalizeInc){v_ys};
}

