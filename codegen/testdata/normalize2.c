/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* normalize2, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* ys1 */ Arr_Int r1; /* ys2 */ } cnf_result_normalize2;

static cnf_result_normalize2 cnf_normalize2(Arr_Int v_xs) {
	int64_t v_sum1;
	int64_t v_sum2;
	Arr_Int v_ys1 = {0};
	Arr_Int v_ys2 = {0};

	/* Loop 1:
	 *   sum1 = fold (+) 0 xs
	 *   gts = filter (> 0) xs
	 *   sum2 = fold (+) 0 gts
	 */
	{
	/* filter gts / fold sum2 / fold sum1 */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_h_gts__v = 0;
	int64_t L1_0_h_sum2__s = INT64_C(0);
	int64_t L1_0_h_sum2__v = 0;
	int64_t L1_0_h_gts__chan = 0;
	int64_t L1_0_h_sum1__s = INT64_C(0);
	int64_t L1_0_h_sum1__v = 0;
	int64_t L1_0_h_xs__chan = 0;
L1_0_s0: /* gts_0/sum2_0/sum1_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_xs__chan = v_xs.data[L1_0_i_xs];
		L1_0_h_gts__v = L1_0_h_xs__chan;
		L1_0_h_sum1__v = L1_0_h_xs__chan;
		L1_0_h_sum1__s = (L1_0_h_sum1__s + L1_0_h_sum1__v);
		goto L1_0_s2;
	}
	goto L1_0_s1;
L1_0_s1: /* gts_5/sum2_2[gts=c]/sum1_2[xs=c]: push sum2 */
	v_sum2 = L1_0_h_sum2__s;
	goto L1_0_s3;
L1_0_s2: /* gts_1/sum2_0/sum1_0[xs=h]: case */
	{ /* a select, not a branch */
		bool l1_c = (L1_0_h_gts__v > INT64_C(0));
		L1_0_h_gts__chan = L1_0_h_gts__v;
		L1_0_h_sum2__v = L1_0_h_gts__chan;
		L1_0_h_sum2__s = l1_c ? (L1_0_h_sum2__s + L1_0_h_sum2__v) : L1_0_h_sum2__s;
	}
	goto L1_0_s4;
L1_0_s3: /* gts_5/sum2_3[gts=c]/sum1_2[xs=c]: close sum2 */
	goto L1_0_s5;
L1_0_s4: /* gts_3/sum2_0/sum1_0[xs=h]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s0;
L1_0_s5: /* gts_5/sum2_4[gts=c]/sum1_2[xs=c]: push sum1 */
	v_sum1 = L1_0_h_sum1__s;
	goto L1_0_s6;
L1_0_s6: /* gts_5/sum2_4[gts=c]/sum1_3[xs=c]: close sum1 */
	goto L1_0_s7;
L1_0_s7: /* gts_5/sum2_4[gts=c]/sum1_4[xs=c]: exit */
	goto L1_0_exit;
L1_0_exit:;
	}

	/* Loop 2:
	 *   ys1 = map (/ sum1) xs
	 *   ys2 = map (/ sum2) xs
	 */
	{
	const cnf_divider dv_sum1 = cnf_divider_for(v_sum1);
	const cnf_divider dv_sum2 = cnf_divider_for(v_sum2);
	/* map ys2 / map ys1 */
	int64_t L2_0_i_xs = 0; /* position in xs */
	int64_t L2_0_h_ys2__v = 0;
	int64_t L2_0_h_ys1__v = 0;
	int64_t L2_0_h_xs__chan = 0;
	v_ys1.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys1"), sizeof(int64_t), "ys1");
	v_ys1.len = 0;
	v_ys2.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys2"), sizeof(int64_t), "ys2");
	v_ys2.len = 0;
L2_0_s0: /* ys2_0/ys1_0: pull xs */
	if (L2_0_i_xs < v_xs.len) {
		L2_0_h_xs__chan = v_xs.data[L2_0_i_xs];
		L2_0_h_ys2__v = L2_0_h_xs__chan;
		L2_0_h_ys1__v = L2_0_h_xs__chan;
		goto L2_0_s1;
	}
	goto L2_0_s2;
L2_0_s1: /* ys2_1/ys1_1[xs=h]: push ys2 */
	v_ys2.data[v_ys2.len++] = cnf_quot_by(L2_0_h_ys2__v, dv_sum2, "ys2");
	goto L2_0_s3;
L2_0_s2: /* ys2_3/ys1_3[xs=c]: close ys2 */
	goto L2_0_s4;
L2_0_s3: /* ys2_0/ys1_1[xs=h]: push ys1 */
	v_ys1.data[v_ys1.len++] = cnf_quot_by(L2_0_h_ys1__v, dv_sum1, "ys1");
	goto L2_0_s5;
L2_0_s4: /* ys2_5/ys1_3[xs=c]: close ys1 */
	goto L2_0_s6;
L2_0_s5: /* ys2_0/ys1_2[xs=h]: drop xs */
	L2_0_i_xs++;
	goto L2_0_s0;
L2_0_s6: /* ys2_5/ys1_5[xs=c]: exit */
	goto L2_0_exit;
L2_0_exit:;
	}
	return (cnf_result_normalize2){v_ys1, v_ys2};
}

