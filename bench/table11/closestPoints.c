/* Host code of closestPoints.cnf. */
static double midpointY(Arr_Tup2_Float_Float ps) {
	double s = 0;
	for (int64_t i = 0; i < ps.len; i++) s += ps.data[i].f1;
	return ps.len ? s / (double)ps.len : 0;
}

/* The recursive call, replaced by a fixed distance: the benchmark is one level's loops. */
static double recurse(Arr_Tup2_Float_Float ps) { (void)ps; return 0.5; }

static inline bool above(double y, Tup2_Float_Float p) { return p.f1 >= y; }
static inline bool below(double y, Tup2_Float_Float p) { return p.f1 < y; }

static inline double distance(Tup2_Tup2_Float_Float_Tup2_Float_Float pq) {
	double dx = pq.f0.f0 - pq.f1.f0, dy = pq.f0.f1 - pq.f1.f1;
	return sqrt(dx * dx + dy * dy);
}
