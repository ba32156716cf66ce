/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* filterLeft, compiled from its clustering into 1 loops. */
typedef struct { Arr_Int r0; /* ys1 */ Arr_Int r1; /* ys2 */ } cnf_result_filterLeft;

static cnf_result_filterLeft cnf_filterLeft(Arr_Int v_xs) {
	Arr_Int v_ys1 = {0};
	Arr_Int v_ys2 = {0};

	/* Loop 1:
	 *   ys1 = map (+ 1) xs
	 *   ys2 = filter even xs
	 */
	{
	/* filter ys2 / map ys1 */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_h_ys2__v = 0;
	int64_t L1_0_h_ys1__v = 0;
	int64_t L1_0_h_xs__chan = 0;
	v_ys1.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys1"), sizeof(int64_t), "ys1");
	v_ys1.len = 0;
	v_ys2.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ys2"), sizeof(int64_t), "ys2");
	v_ys2.len = 0;
L1_0_s0: /* ys2_0/ys1_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_xs__chan = v_xs.data[L1_0_i_xs];
		L1_0_h_ys2__v = L1_0_h_xs__chan;
		L1_0_h_ys1__v = L1_0_h_xs__chan;
		goto L1_0_s1;
	}
	goto L1_0_s2;
L1_0_s1: /* ys2_1/ys1_1[xs=h]: case */
	{ /* a select, not a branch */
		bool l1_c = ((L1_0_h_ys2__v) % 2 == 0);
		v_ys2.data[v_ys2.len] = L1_0_h_ys2__v;
		v_ys2.len += l1_c;
	}
	goto L1_0_s5;
L1_0_s2: /* ys2_4/ys1_3[xs=c]: close ys2 */
	goto L1_0_s4;
L1_0_s3: /* ys2_2/ys1_1[xs=h]: push ys2 */
	v_ys2.data[v_ys2.len++] = L1_0_h_ys2__v;
	goto L1_0_s5;
L1_0_s4: /* ys2_5/ys1_3[xs=c]: close ys1 */
	goto L1_0_s7;
L1_0_s5: /* ys2_0/ys1_1[xs=h]: push ys1 */
	v_ys1.data[v_ys1.len++] = (L1_0_h_ys1__v + INT64_C(1));
	goto L1_0_s6;
L1_0_s6: /* ys2_0/ys1_2[xs=h]: drop xs */
	L1_0_i_xs++;
	goto L1_0_s0;
L1_0_s7: /* ys2_5/ys1_5[xs=c]: exit */
	goto L1_0_exit;
L1_0_exit:;
	}
	return (cnf_result_filterLeft){v_ys1, v_ys2};
}

