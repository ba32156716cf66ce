/* Host code of quickhull.cnf: the line and the signed distance of a point from it. */
typedef struct { double x1, y1, x2, y2; } Line;

static inline double distance(Tup2_Float_Float p, Line l) {
	return (l.x2 - l.x1) * (p.f1 - l.y1) - (l.y2 - l.y1) * (p.f0 - l.x1);
}

/* cnf bench's random line: from (-1000, r) to (1000, -r). */
static Line cnf_gen_Line(uint64_t r) {
	double y = (double)(r % 1000);
	return (Line){-1000.0, y, 1000.0, -y};
}
