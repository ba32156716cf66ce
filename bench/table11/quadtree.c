/* Host code of quadtree.cnf: boxes, their quadrants, and whether a point is in a box. */
typedef struct { double x1, y1, x2, y2; } Box;
/* cnf: types */

static Tup4_Box_Box_Box_Box splitbox(Box b) {
	double mx = (b.x1 + b.x2) / 2, my = (b.y1 + b.y2) / 2;
	return (Tup4_Box_Box_Box_Box){
		{b.x1, b.y1, mx, my}, {mx, b.y1, b.x2, my}, {b.x1, my, mx, b.y2}, {mx, my, b.x2, b.y2}};
}

static inline bool inbox(Box b, Tup2_Float_Float p) {
	/* & not &&: four comparisons are cheaper than a branch taken at random */
	return (b.x1 <= p.f0) & (p.f0 < b.x2) & (b.y1 <= p.f1) & (p.f1 < b.y2);
}

/* cnf bench's box: the square the random points are drawn in. */
static Box cnf_gen_Box(uint64_t r) {
	(void)r;
	return (Box){-1000.0, -1000.0, 1000.0, 1000.0};
}
