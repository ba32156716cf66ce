/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;

/* deltas, compiled from its clustering into 1 loops. */
typedef struct { Arr_Int r0; /* ds */ Arr_Int r1; /* window */ Arr_Int r2; /* same */ int64_t r3; /* count */ int64_t r4; /* sameN */ } cnf_result_deltas;

static cnf_result_deltas cnf_deltas(Arr_Int v_xs, int64_t v_lo, int64_t v_n) {
	Arr_Int v_ds = {0};
	Arr_Int v_window = {0};
	Arr_Int v_same = {0};
	int64_t v_count;
	int64_t v_sameN;

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
	 */
	{
	/* tail rest / indexed numbered / unzip is, cur / gather prev / map2 ds / slice same / length sameN / drop later / take window / length count */
	int64_t L1_0_i_xs = 0; /* position in xs */
	int64_t L1_0_h_rest__i = INT64_C(0);
	int64_t L1_0_h_rest__v = 0;
	int64_t L1_0_h_numbered__i = INT64_C(0);
	int64_t L1_0_h_numbered__v = 0;
	Tup2_Int_Int L1_0_h_is__v = {0};
	int64_t L1_0_h_prev__v = 0;
	int64_t L1_0_h_ds__v1 = 0;
	int64_t L1_0_h_ds__v2 = 0;
	int64_t L1_0_h_same__i = INT64_C(0);
	int64_t L1_0_h_same__v = 0;
	int64_t L1_0_h_sameN__s = INT64_C(0);
	int64_t L1_0_h_sameN__v = 0;
	int64_t L1_0_h_same__chan = 0;
	int64_t L1_0_h_ds__chan = 0;
	int64_t L1_0_h_later__i = INT64_C(0);
	int64_t L1_0_h_later__v = 0;
	int64_t L1_0_h_window__i = INT64_C(0);
	int64_t L1_0_h_window__v = 0;
	int64_t L1_0_h_count__s = INT64_C(0);
	int64_t L1_0_h_count__v = 0;
	int64_t L1_0_h_window__chan = 0;
	int64_t L1_0_h_later__chan = 0;
	int64_t L1_0_h_prev__chan = 0;
	int64_t L1_0_h_cur__chan = 0;
	int64_t L1_0_h_is__chan = 0;
	Tup2_Int_Int L1_0_h_numbered__chan = {0};
	int64_t L1_0_h_rest__chan = 0;
	v_ds.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "ds"), sizeof(int64_t), "ds");
	v_ds.len = 0;
	v_same.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "same"), sizeof(int64_t), "same");
	v_same.len = 0;
	v_window.data = cnf_alloc(cnf_bound_add(v_xs.len, 1, "window"), sizeof(int64_t), "window");
	v_window.len = 0;
L1_0_s0: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_rest__v = v_xs.data[L1_0_i_xs];
		goto L1_0_s1;
	}
	goto L1_0_s3;
L1_0_s1: /* rest_1/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0: case */
	if ((L1_0_h_rest__i >= INT64_C(1))) {
		L1_0_h_rest__chan = L1_0_h_rest__v;
		L1_0_h_numbered__v = L1_0_h_rest__chan;
		L1_0_h_numbered__chan = ((Tup2_Int_Int){L1_0_h_numbered__i, L1_0_h_numbered__v});
		L1_0_h_numbered__i = (L1_0_h_numbered__i + INT64_C(1));
		L1_0_h_is__v = L1_0_h_numbered__chan;
		L1_0_h_is__chan = (L1_0_h_is__v).f0;
		L1_0_h_prev__v = L1_0_h_is__chan;
		L1_0_h_prev__chan = CNF_AT(v_xs, L1_0_h_prev__v, "prev");
		L1_0_h_cur__chan = (L1_0_h_is__v).f1;
		goto L1_0_s5;
	}
	goto L1_0_s2;
L1_0_s2: /* rest_3/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0: drop xs */
	L1_0_i_xs++;
	L1_0_h_rest__i = (L1_0_h_rest__i + INT64_C(1));
	goto L1_0_s0;
L1_0_s3: /* rest_5/numbered_4/is_6/prev_4/ds_5/same_0/sameN_0/later_0/window_0/count_0[prev=c][cur=c,is=c][numbered=c][rest=c]: close ds */
	goto L1_0_s4;
L1_0_s4: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_4/sameN_0[ds=c]/later_5/window_4/count_0[later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: close same */
	goto L1_0_s6;
L1_0_s5: /* rest_3/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0[prev=p][cur=p]: drop xs */
	L1_0_i_xs++;
	L1_0_h_rest__i = (L1_0_h_rest__i + INT64_C(1));
	goto L1_0_s7;
L1_0_s6: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_5/sameN_2[same=c][ds=c]/later_5/window_4/count_0[later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: push sameN */
	v_sameN = L1_0_h_sameN__s;
	goto L1_0_s8;
L1_0_s7: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0[prev=p][cur=p]: pull xs */
	if (L1_0_i_xs < v_xs.len) {
		L1_0_h_rest__v = v_xs.data[L1_0_i_xs];
		goto L1_0_s9;
	}
	L1_0_h_ds__v1 = L1_0_h_cur__chan;
	L1_0_h_ds__v2 = L1_0_h_prev__chan;
	goto L1_0_s12;
L1_0_s8: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_5/sameN_3[same=c][ds=c]/later_5/window_4/count_0[later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: close sameN */
	goto L1_0_s10;
L1_0_s9: /* rest_1/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_0/count_0[prev=p][cur=p]: case */
	if ((L1_0_h_rest__i >= INT64_C(1))) {
		L1_0_h_rest__chan = L1_0_h_rest__v;
		L1_0_h_numbered__v = L1_0_h_rest__chan;
		L1_0_h_numbered__chan = ((Tup2_Int_Int){L1_0_h_numbered__i, L1_0_h_numbered__v});
		L1_0_h_numbered__i = (L1_0_h_numbered__i + INT64_C(1));
		L1_0_h_is__v = L1_0_h_numbered__chan;
		L1_0_h_is__chan = (L1_0_h_is__v).f0;
		L1_0_h_prev__v = L1_0_h_is__chan;
		L1_0_h_ds__v1 = L1_0_h_cur__chan;
		L1_0_h_ds__v2 = L1_0_h_prev__chan;
		goto L1_0_s16;
	}
	goto L1_0_s5;
L1_0_s10: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_5/sameN_4[same=c][ds=c]/later_5/window_4/count_0[later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: close window */
	goto L1_0_s11;
L1_0_s11: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_5/sameN_4[same=c][ds=c]/later_5/window_5/count_2[window=c][later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: push count */
	v_count = L1_0_h_count__s;
	goto L1_0_s13;
L1_0_s12: /* rest_5/numbered_4/is_5/prev_3/ds_2/same_0/sameN_0/later_0/window_0/count_0[prev=h][cur=h,is=c][numbered=c][rest=c]: push ds */
	v_ds.data[v_ds.len++] = (L1_0_h_ds__v1 - L1_0_h_ds__v2);
	L1_0_h_ds__chan = (L1_0_h_ds__v1 - L1_0_h_ds__v2);
	L1_0_h_same__v = L1_0_h_ds__chan;
	L1_0_h_later__v = L1_0_h_ds__chan;
	goto L1_0_s14;
L1_0_s13: /* rest_5/numbered_4/is_6/prev_4/ds_7/same_5/sameN_4[same=c][ds=c]/later_5/window_5/count_3[window=c][later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: close count */
	goto L1_0_s15;
L1_0_s14: /* rest_5/numbered_4/is_6/prev_4/ds_0/same_1/sameN_0[ds=h]/later_1/window_0/count_0[ds=h][prev=c][cur=c,is=c][numbered=c][rest=c]: case */
	{ /* a select, not a branch */
		bool l1_c = ((L1_0_h_same__i >= v_lo) && ((v_n > INT64_C(0)) && ((L1_0_h_same__i - v_n) < v_lo)));
		v_same.data[v_same.len] = L1_0_h_same__v;
		v_same.len += l1_c;
		L1_0_h_same__chan = l1_c ? L1_0_h_same__v : L1_0_h_same__chan;
		L1_0_h_sameN__v = l1_c ? L1_0_h_same__chan : L1_0_h_sameN__v;
		L1_0_h_sameN__s = l1_c ? (L1_0_h_sameN__s + INT64_C(1)) : L1_0_h_sameN__s;
		L1_0_h_same__i = l1_c ? (L1_0_h_same__i + INT64_C(1)) : L1_0_h_same__i;
		L1_0_h_same__i = !l1_c ? (L1_0_h_same__i + INT64_C(1)) : L1_0_h_same__i;
	}
	goto L1_0_s18;
L1_0_s15: /* rest_5/numbered_4/is_6/prev_4/ds_16/same_5/sameN_4[same=c][ds=c]/later_5/window_5/count_4[window=c][later=c][ds=c][prev=c][cur=c,is=c][numbered=c][rest=c]: exit */
	goto L1_0_exit;
L1_0_s16: /* rest_3/numbered_0/is_2/prev_1/ds_2/same_0/sameN_0/later_0/window_0/count_0[prev=h][cur=h,is=h][numbered=h]: drop xs */
	L1_0_i_xs++;
	L1_0_h_rest__i = (L1_0_h_rest__i + INT64_C(1));
	goto L1_0_s19;
L1_0_s17: /* rest_5/numbered_4/is_6/prev_4/ds_0/same_2/sameN_0[ds=h]/later_1/window_0/count_0[ds=h][prev=c][cur=c,is=c][numbered=c][rest=c]: push same */
	v_same.data[v_same.len++] = L1_0_h_same__v;
	L1_0_h_same__chan = L1_0_h_same__v;
	L1_0_h_sameN__v = L1_0_h_same__chan;
	L1_0_h_sameN__s = (L1_0_h_sameN__s + INT64_C(1));
	L1_0_h_same__i = (L1_0_h_same__i + INT64_C(1));
	goto L1_0_s18;
L1_0_s18: /* rest_5/numbered_4/is_6/prev_4/ds_0/same_0/sameN_0/later_1/window_0/count_0[ds=h][prev=c][cur=c,is=c][numbered=c][rest=c]: case */
	if ((L1_0_h_later__i >= v_lo)) {
		L1_0_h_later__chan = L1_0_h_later__v;
		L1_0_h_window__v = L1_0_h_later__chan;
		L1_0_h_later__i = (L1_0_h_later__i + INT64_C(1));
		goto L1_0_s20;
	}
	L1_0_h_later__i = (L1_0_h_later__i + INT64_C(1));
	goto L1_0_s3;
L1_0_s19: /* rest_0/numbered_0/is_2/prev_1/ds_2/same_0/sameN_0/later_0/window_0/count_0[prev=h][cur=h,is=h][numbered=h]: push ds */
	v_ds.data[v_ds.len++] = (L1_0_h_ds__v1 - L1_0_h_ds__v2);
	L1_0_h_ds__chan = (L1_0_h_ds__v1 - L1_0_h_ds__v2);
	L1_0_h_same__v = L1_0_h_ds__chan;
	L1_0_h_later__v = L1_0_h_ds__chan;
	L1_0_h_prev__chan = CNF_AT(v_xs, L1_0_h_prev__v, "prev");
	L1_0_h_cur__chan = (L1_0_h_is__v).f1;
	goto L1_0_s21;
L1_0_s20: /* rest_5/numbered_4/is_6/prev_4/ds_0/same_0/sameN_0/later_0/window_1/count_0[later=h][prev=c][cur=c,is=c][numbered=c][rest=c]: case */
	{ /* a select, not a branch */
		bool l2_c = (L1_0_h_window__i < v_n);
		v_window.data[v_window.len] = L1_0_h_window__v;
		v_window.len += l2_c;
		L1_0_h_window__chan = l2_c ? L1_0_h_window__v : L1_0_h_window__chan;
		L1_0_h_count__v = l2_c ? L1_0_h_window__chan : L1_0_h_count__v;
		L1_0_h_count__s = l2_c ? (L1_0_h_count__s + INT64_C(1)) : L1_0_h_count__s;
		L1_0_h_window__i = l2_c ? (L1_0_h_window__i + INT64_C(1)) : L1_0_h_window__i;
		L1_0_h_window__i = !l2_c ? (L1_0_h_window__i + INT64_C(1)) : L1_0_h_window__i;
	}
	goto L1_0_s3;
L1_0_s21: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_1/sameN_0[ds=h]/later_1/window_0/count_0[ds=h][prev=p][cur=p]: case */
	{ /* a select, not a branch */
		bool l3_c = ((L1_0_h_same__i >= v_lo) && ((v_n > INT64_C(0)) && ((L1_0_h_same__i - v_n) < v_lo)));
		v_same.data[v_same.len] = L1_0_h_same__v;
		v_same.len += l3_c;
		L1_0_h_same__chan = l3_c ? L1_0_h_same__v : L1_0_h_same__chan;
		L1_0_h_sameN__v = l3_c ? L1_0_h_same__chan : L1_0_h_sameN__v;
		L1_0_h_sameN__s = l3_c ? (L1_0_h_sameN__s + INT64_C(1)) : L1_0_h_sameN__s;
		L1_0_h_same__i = l3_c ? (L1_0_h_same__i + INT64_C(1)) : L1_0_h_same__i;
		L1_0_h_same__i = !l3_c ? (L1_0_h_same__i + INT64_C(1)) : L1_0_h_same__i;
	}
	goto L1_0_s24;
L1_0_s22: /* rest_5/numbered_4/is_6/prev_4/ds_0/same_0/sameN_0/later_0/window_2/count_0[later=h][prev=c][cur=c,is=c][numbered=c][rest=c]: push window */
	v_window.data[v_window.len++] = L1_0_h_window__v;
	L1_0_h_window__chan = L1_0_h_window__v;
	L1_0_h_count__v = L1_0_h_window__chan;
	L1_0_h_count__s = (L1_0_h_count__s + INT64_C(1));
	L1_0_h_window__i = (L1_0_h_window__i + INT64_C(1));
	goto L1_0_s3;
L1_0_s23: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_2/sameN_0[ds=h]/later_1/window_0/count_0[ds=h][prev=p][cur=p]: push same */
	v_same.data[v_same.len++] = L1_0_h_same__v;
	L1_0_h_same__chan = L1_0_h_same__v;
	L1_0_h_sameN__v = L1_0_h_same__chan;
	L1_0_h_sameN__s = (L1_0_h_sameN__s + INT64_C(1));
	L1_0_h_same__i = (L1_0_h_same__i + INT64_C(1));
	goto L1_0_s24;
L1_0_s24: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_1/window_0/count_0[ds=h][prev=p][cur=p]: case */
	if ((L1_0_h_later__i >= v_lo)) {
		L1_0_h_later__chan = L1_0_h_later__v;
		L1_0_h_window__v = L1_0_h_later__chan;
		L1_0_h_later__i = (L1_0_h_later__i + INT64_C(1));
		goto L1_0_s25;
	}
	L1_0_h_later__i = (L1_0_h_later__i + INT64_C(1));
	goto L1_0_s7;
L1_0_s25: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_1/count_0[later=h][prev=p][cur=p]: case */
	{ /* a select, not a branch */
		bool l4_c = (L1_0_h_window__i < v_n);
		v_window.data[v_window.len] = L1_0_h_window__v;
		v_window.len += l4_c;
		L1_0_h_window__chan = l4_c ? L1_0_h_window__v : L1_0_h_window__chan;
		L1_0_h_count__v = l4_c ? L1_0_h_window__chan : L1_0_h_count__v;
		L1_0_h_count__s = l4_c ? (L1_0_h_count__s + INT64_C(1)) : L1_0_h_count__s;
		L1_0_h_window__i = l4_c ? (L1_0_h_window__i + INT64_C(1)) : L1_0_h_window__i;
		L1_0_h_window__i = !l4_c ? (L1_0_h_window__i + INT64_C(1)) : L1_0_h_window__i;
	}
	goto L1_0_s7;
L1_0_s26: /* rest_0/numbered_0/is_0/prev_0/ds_0/same_0/sameN_0/later_0/window_2/count_0[later=h][prev=p][cur=p]: push window */
	v_window.data[v_window.len++] = L1_0_h_window__v;
	L1_0_h_window__chan = L1_0_h_window__v;
	L1_0_h_count__v = L1_0_h_window__chan;
	L1_0_h_count__s = (L1_0_h_count__s + INT64_C(1));
	L1_0_h_window__i = (L1_0_h_window__i + INT64_C(1));
	goto L1_0_s7;
L1_0_exit:;
	}
	return (cnf_result_deltas){v_ds, v_window, v_same, v_count, v_sameN};
}

