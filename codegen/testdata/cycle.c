/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* cycle, compiled from its clustering into 2 loops. */
typedef struct { Arr_Int r0; /* zs */ } cnf_result_cycle;

static cnf_result_cycle cnf_cycle(Arr_Int v_xs) {
	Arr_Int v_ys = {0};
	int64_t v_sum;
	Arr_Int v_zs = {0};

	/* Loop 1:
	 *   ys = map (+ 1) xs
	 *   sum = fold (+) 0 ys
	 */
	{
	/* map ys / fold sum */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_h_ys__v = 0;
	int64_t L1_0_h_sum__s = INT64_C(0);
	int64_t L1_0_h_sum__v = 0;
	int64_t L1_0_h_ys__chan = 0;
	v_ys.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys"), sizeof(int64_t), "ys");
	v_ys.len = 0;
L1_0_s0: /* ys_0/sum_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_ys__v = v_xs.data[L1_0_i_xs];
		goto L1_0_s1;
	}
	goto L1_0_s2;
L1_0_s1: /* ys_1/sum_0: push ys */
	v_ys.data[v_ys.len++] = (L1_0_h_ys__v + INT64_C(1));
	L1_0_h_ys__chan = (L1_0_h_ys__v + INT64_C(1));
	L1_0_h_sum__v = L1_0_h_ys__chan;
	L1_0_h_sum__s = (L1_0_h_sum__s + L1_0_h_sum__v);
	goto L1_0_s3;
L1_0_s2: /* ys_3/sum_0: close ys */
	goto L1_0_s4;
L1_0_s3: /* ys_2/sum_0: drop xs */
	L1_0_i_xs++;
	goto L1_0_s0;
L1_0_s4: /* ys_5/sum_2[ys=c]: push sum */
	v_sum = L1_0_h_sum__s;
	goto L1_0_s5;
L1_0_s5: /* ys_5/sum_3[ys=c]: close sum */
	goto L1_0_s6;
L1_0_s6: /* ys_5/sum_4[ys=c]: exit */
	goto L1_0_exit;
L1_0_exit:;
	}

	/* Loop 2:
	 *   zs = map (+ sum) ys
	 */
	{
	/* map zs */
	int64_t L2_0_i_ys = 0; /* position in ys */
	int64_t L2_0_h_zs__v = 0;
	v_zs.data = cnf_alloc(cnf_bound_add(v_ys.len, 1, "zs"), sizeof(int64_t), "zs");
	v_zs.len = 0;
	goto L2_0_s1;
L2_0_s0: /* zs_3: close zs */
	goto L2_0_s4;
L2_0_s1: /* zs_0: pull ys */
	if (L2_0_i_ys < v_ys.len) {
		L2_0_h_zs__v = v_ys.data[L2_0_i_ys];
		goto L2_0_s2;
	}
	goto L2_0_s0;
L2_0_s2: /* zs_1: push zs */
	v_zs.data[v_zs.len++] = (L2_0_h_zs__v + v_sum);
	goto L2_0_s3;
L2_0_s3: /* zs_2: drop ys */
	L2_0_i_ys++;
	goto L2_0_s1;
L2_0_s4: /* zs_5: exit */
	goto L2_0_exit;
L2_0_exit:;
	}
	cnf_free(v_ys.data);
	return (cnf_result_cycle){v_zs};
}

