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
	 */
	{
	/* prescanl starts / postscanl ends / zip spans / indexed numbered / unzip ids, ss / map lasts / fold total */
	int64_t L1_0_i_counts = 0; /* position in counts */
	int64_t L1_0_h_starts__s = INT64_C(0);
	int64_t L1_0_h_starts__v = 0;
	int64_t L1_0_h_ends__s = INT64_C(0);
	int64_t L1_0_h_ends__v = 0;
	int64_t L1_0_h_spans__v1 = 0;
	int64_t L1_0_h_spans__v2 = 0;
	int64_t L1_0_h_numbered__i = INT64_C(0);
	Tup2_Int_Int L1_0_h_numbered__v = {0};
	Tup2_Int_Tup2_Int_Int L1_0_h_ids__v = {0};
	Tup2_Int_Int L1_0_h_lasts__v = {0};
	Tup2_Int_Int L1_0_h_ss__chan = {0};
	Tup2_Int_Tup2_Int_Int L1_0_h_numbered__chan = {0};
	Tup2_Int_Int L1_0_h_spans__chan = {0};
	int64_t L1_0_h_ends__chan = 0;
	int64_t L1_0_h_counts__chan = 0;
	int64_t L1_0_h_starts__chan = 0;
	int64_t L1_0_h_total__s = INT64_C(0);
	int64_t L1_0_h_total__v = 0;
	v_ids.data = cnf_alloc(cnf_bound_add(v_counts.len, 1, "ids"), sizeof(int64_t), "ids");
	v_ids.len = 0;
	v_lasts.data = cnf_alloc(cnf_bound_add(v_counts.len, 1, "lasts"), sizeof(int64_t), "lasts");
	v_lasts.len = 0;
	v_spans.data = cnf_alloc(cnf_bound_add(v_counts.len, 1, "spans"), sizeof(Tup2_Int_Int), "spans");
	v_spans.len = 0;
L1_0_s0: /* starts_0/ends_0/spans_0/numbered_0/ids_0/lasts_0/total_0: pull counts */
	if (L1_0_i_counts < v_counts.len) {
		L1_0_h_counts__chan = v_counts.data[L1_0_i_counts];
		L1_0_h_counts__chan = L1_0_h_counts__chan;
		L1_0_h_starts__v = L1_0_h_counts__chan;
		L1_0_h_ends__v = L1_0_h_counts__chan;
		L1_0_h_ends__chan = (L1_0_h_ends__s + L1_0_h_ends__v);
		L1_0_h_ends__s = (L1_0_h_ends__s + L1_0_h_ends__v);
		L1_0_h_starts__chan = L1_0_h_starts__s;
		L1_0_h_starts__s = (L1_0_h_starts__s + L1_0_h_starts__v);
		L1_0_h_total__v = L1_0_h_counts__chan;
		goto L1_0_s2;
	}
	goto L1_0_s1;
L1_0_s1: /* starts_4/ends_4/spans_5/numbered_0/ids_0/lasts_0[ends=c][counts=c,starts=c]/total_2[counts=c]: close spans */
	goto L1_0_s3;
L1_0_s2: /* starts_0/ends_0/spans_0/numbered_0/ids_0/lasts_0[ends=p][starts=p]/total_1[counts=h]: drop counts */
	L1_0_i_counts++;
	L1_0_h_total__s = (L1_0_h_total__s + L1_0_h_total__v);
	goto L1_0_s4;
L1_0_s3: /* starts_4/ends_4/spans_7/numbered_4/ids_4/lasts_0[numbered=c][spans=c][ends=c][counts=c,starts=c]/total_2[counts=c]: close ids */
	goto L1_0_s5;
L1_0_s4: /* starts_0/ends_0/spans_0/numbered_0/ids_0/lasts_0[ends=p][starts=p]/total_0: pull counts */
	if (L1_0_i_counts < v_counts.len) {
		L1_0_h_counts__chan = v_counts.data[L1_0_i_counts];
		L1_0_h_counts__chan = L1_0_h_counts__chan;
		L1_0_h_starts__v = L1_0_h_counts__chan;
		L1_0_h_ends__v = L1_0_h_counts__chan;
		L1_0_h_spans__v1 = L1_0_h_starts__chan;
		L1_0_h_spans__v2 = L1_0_h_ends__chan;
		L1_0_h_total__v = L1_0_h_counts__chan;
		L1_0_h_total__s = (L1_0_h_total__s + L1_0_h_total__v);
		goto L1_0_s10;
	}
	L1_0_h_spans__v1 = L1_0_h_starts__chan;
	L1_0_h_spans__v2 = L1_0_h_ends__chan;
	goto L1_0_s8;
L1_0_s5: /* starts_4/ends_4/spans_7/numbered_4/ids_6/lasts_3[ss=c][numbered=c][spans=c][ends=c][counts=c,starts=c]/total_2[counts=c]: close lasts */
	goto L1_0_s6;
L1_0_s6: /* starts_4/ends_4/spans_16/numbered_4/ids_6/lasts_5[ss=c][numbered=c][spans=c][ends=c][counts=c,starts=c]/total_2[counts=c]: push total */
	v_total = L1_0_h_total__s;
	goto L1_0_s7;
L1_0_s7: /* starts_4/ends_4/spans_16/numbered_4/ids_6/lasts_5[ss=c][numbered=c][spans=c][ends=c][counts=c,starts=c]/total_3[counts=c]: close total */
	goto L1_0_s9;
L1_0_s8: /* starts_3/ends_3/spans_2/numbered_0/ids_0/lasts_0[ends=h][counts=c,starts=h]/total_2[counts=c]: push spans */
	v_spans.data[v_spans.len++] = ((Tup2_Int_Int){L1_0_h_spans__v1, L1_0_h_spans__v2});
	L1_0_h_spans__chan = ((Tup2_Int_Int){L1_0_h_spans__v1, L1_0_h_spans__v2});
	L1_0_h_numbered__v = L1_0_h_spans__chan;
	L1_0_h_numbered__chan = ((Tup2_Int_Tup2_Int_Int){L1_0_h_numbered__i, L1_0_h_numbered__v});
	L1_0_h_numbered__i = (L1_0_h_numbered__i + INT64_C(1));
	L1_0_h_ids__v = L1_0_h_numbered__chan;
	goto L1_0_s11;
L1_0_s9: /* starts_4/ends_4/spans_16/numbered_4/ids_6/lasts_5[ss=c][numbered=c][spans=c][ends=c][counts=c,starts=c]/total_4[counts=c]: exit */
	goto L1_0_exit;
L1_0_s10: /* starts_1/ends_1/spans_2/numbered_0/ids_0/lasts_0[ends=h][counts=h,starts=h]/total_0[counts=h]: push spans */
	v_spans.data[v_spans.len++] = ((Tup2_Int_Int){L1_0_h_spans__v1, L1_0_h_spans__v2});
	L1_0_h_spans__chan = ((Tup2_Int_Int){L1_0_h_spans__v1, L1_0_h_spans__v2});
	L1_0_h_numbered__v = L1_0_h_spans__chan;
	L1_0_h_numbered__chan = ((Tup2_Int_Tup2_Int_Int){L1_0_h_numbered__i, L1_0_h_numbered__v});
	L1_0_h_numbered__i = (L1_0_h_numbered__i + INT64_C(1));
	L1_0_h_ids__v = L1_0_h_numbered__chan;
	L1_0_h_ends__chan = (L1_0_h_ends__s + L1_0_h_ends__v);
	L1_0_h_ends__s = (L1_0_h_ends__s + L1_0_h_ends__v);
	L1_0_h_starts__chan = L1_0_h_starts__s;
	L1_0_h_starts__s = (L1_0_h_starts__s + L1_0_h_starts__v);
	goto L1_0_s12;
L1_0_s11: /* starts_4/ends_4/spans_0/numbered_0/ids_1/lasts_0[numbered=h][ends=c][counts=c,starts=c]/total_2[counts=c]: push ids */
	v_ids.data[v_ids.len++] = (L1_0_h_ids__v).f0;
	L1_0_h_ss__chan = (L1_0_h_ids__v).f1;
	L1_0_h_lasts__v = L1_0_h_ss__chan;
	goto L1_0_s13;
L1_0_s12: /* starts_2/ends_0/spans_0/numbered_0/ids_1/lasts_0[numbered=h][ends=p][counts=h,starts=p]/total_0[counts=h]: drop counts */
	L1_0_i_counts++;
	goto L1_0_s14;
L1_0_s13: /* starts_4/ends_4/spans_0/numbered_0/ids_0/lasts_1[ss=h][ends=c][counts=c,starts=c]/total_2[counts=c]: push lasts */
	v_lasts.data[v_lasts.len++] = (L1_0_h_lasts__v).f1;
	goto L1_0_s1;
L1_0_s14: /* starts_0/ends_0/spans_0/numbered_0/ids_1/lasts_0[numbered=h][ends=p][starts=p]/total_0: push ids */
	v_ids.data[v_ids.len++] = (L1_0_h_ids__v).f0;
	L1_0_h_ss__chan = (L1_0_h_ids__v).f1;
	L1_0_h_lasts__v = L1_0_h_ss__chan;
	goto L1_0_s15;
L1_0_s15: /* starts_0/ends_0/spans_0/numbered_0/ids_0/lasts_1[ss=h][ends=p][starts=p]/total_0: push lasts */
	v_lasts.data[v_lasts.len++] = (L1_0_h_lasts__v).f1;
	goto L1_0_s4;
L1_0_exit:;
	}
	return (cnf_result_offsets){v_spans, v_ids, v_lasts, v_records, v_total};
}

