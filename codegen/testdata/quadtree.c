/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { double f0; double f1; } Tup2_Float_Float;
typedef struct { Tup2_Float_Float *data; int64_t len; } Arr_Tup2_Float_Float;

/* Helpers */
static inline double cnf_min_Float(double a, double b) { return a > b ? b : a; }
static inline double cnf_max_Float(double a, double b) { return a > b ? a : b; }

/* initialBounds, compiled from its clustering into 1 loops. */
typedef struct { double r0; /* x1 */ double r1; /* y1 */ double r2; /* x2 */ double r3; /* y2 */ } cnf_result_initialBounds;

static cnf_result_initialBounds cnf_initialBounds(Arr_Tup2_Float_Float v_pts) {
	double v_x1;
	double v_x2;
	double v_y1;
	double v_y2;

	/* Loop 1:
	 *   xs = map fst pts
	 *   ys = map snd pts
	 *   x1 = fold min infinity xs
	 *   x2 = fold max negInfinity xs
	 *   y1 = fold min infinity ys
	 *   y2 = fold max negInfinity ys
	 */
	{
	/* map ys / fold y1 / fold y2 / map xs / fold x1 / fold x2 */
	int64_t L1_0_i_pts = 0; /* position in pts */
	Tup2_Float_Float L1_0_h_ys__v = {0};
	double L1_0_h_y1__s = INFINITY;
	double L1_0_h_y1__v = 0;
	double L1_0_h_ys__chan = 0;
	double L1_0_h_y2__s = (-INFINITY);
	double L1_0_h_y2__v = 0;
	Tup2_Float_Float L1_0_h_xs__v = {0};
	double L1_0_h_x1__s = INFINITY;
	double L1_0_h_x1__v = 0;
	double L1_0_h_xs__chan = 0;
	double L1_0_h_x2__s = (-INFINITY);
	double L1_0_h_x2__v = 0;
	Tup2_Float_Float L1_0_h_pts__chan = {0};
L1_0_s0: /* ys_0/y1_0/y2_0/xs_0/x1_0/x2_0: pull pts */
	if (L1_0_i_pts < v_pts.len) {
		L1_0_h_pts__chan = v_pts.data[L1_0_i_pts];
		L1_0_h_ys__v = L1_0_h_pts__chan;
		L1_0_h_ys__chan = (L1_0_h_ys__v).f1;
		L1_0_h_y1__v = L1_0_h_ys__chan;
		L1_0_h_y1__s = cnf_min_Float(L1_0_h_y1__s, L1_0_h_y1__v);
		L1_0_h_y2__v = L1_0_h_ys__chan;
		L1_0_h_y2__s = cnf_max_Float(L1_0_h_y2__s, L1_0_h_y2__v);
		L1_0_h_xs__v = L1_0_h_pts__chan;
		L1_0_h_xs__chan = (L1_0_h_xs__v).f0;
		L1_0_h_x1__v = L1_0_h_xs__chan;
		L1_0_h_x1__s = cnf_min_Float(L1_0_h_x1__s, L1_0_h_x1__v);
		L1_0_h_x2__v = L1_0_h_xs__chan;
		L1_0_h_x2__s = cnf_max_Float(L1_0_h_x2__s, L1_0_h_x2__v);
		goto L1_0_s2;
	}
	goto L1_0_s1;
L1_0_s1: /* ys_5/y1_2[ys=c]/y2_2[ys=c]/xs_5/x1_2[xs=c]/x2_2[xs=c][pts=c]: push y1 */
	v_y1 = L1_0_h_y1__s;
	goto L1_0_s3;
L1_0_s2: /* ys_0/y1_0/y2_0/xs_2/x1_0/x2_0[pts=h]: drop pts */
	L1_0_i_pts++;
	goto L1_0_s0;
L1_0_s3: /* ys_5/y1_3[ys=c]/y2_2[ys=c]/xs_5/x1_2[xs=c]/x2_2[xs=c][pts=c]: close y1 */
	goto L1_0_s4;
L1_0_s4: /* ys_5/y1_4[ys=c]/y2_2[ys=c]/xs_5/x1_2[xs=c]/x2_2[xs=c][pts=c]: push y2 */
	v_y2 = L1_0_h_y2__s;
	goto L1_0_s5;
L1_0_s5: /* ys_5/y1_4[ys=c]/y2_3[ys=c]/xs_5/x1_2[xs=c]/x2_2[xs=c][pts=c]: close y2 */
	goto L1_0_s6;
L1_0_s6: /* ys_5/y1_4[ys=c]/y2_4[ys=c]/xs_5/x1_2[xs=c]/x2_2[xs=c][pts=c]: push x1 */
	v_x1 = L1_0_h_x1__s;
	goto L1_0_s7;
L1_0_s7: /* ys_5/y1_4[ys=c]/y2_4[ys=c]/xs_5/x1_3[xs=c]/x2_2[xs=c][pts=c]: close x1 */
	goto L1_0_s8;
L1_0_s8: /* ys_5/y1_4[ys=c]/y2_4[ys=c]/xs_5/x1_4[xs=c]/x2_2[xs=c][pts=c]: push x2 */
	v_x2 = L1_0_h_x2__s;
	goto L1_0_s9;
L1_0_s9: /* ys_5/y1_4[ys=c]/y2_4[ys=c]/xs_5/x1_4[xs=c]/x2_3[xs=c][pts=c]: close x2 */
	goto L1_0_s10;
L1_0_s10: /* ys_5/y1_4[ys=c]/y2_4[ys=c]/xs_5/x1_4[xs=c]/x2_4[xs=c][pts=c]: exit */
	goto L1_0_exit;
L1_0_exit:;
	}
	return (cnf_result_initialBounds){v_x1, v_y1, v_x2, v_y2};
}

/* go: cannot compile: quadtree:16:35: unknown host function splitbox: give its C implementation with --host FILE.c */

