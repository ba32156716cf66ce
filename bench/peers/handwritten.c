/* Hand-written C for the peers benchmark (scripts/peers.sh): each program as a careful C
 * programmer writes it, one loop where one loop will do, predicated (branch-free) folds and
 * compaction stores, outputs in buffers the caller allocated. The reference the other peers
 * and cnf's compiled loops are compared with; called from peers.py through ctypes. */
#include <math.h>
#include <stdint.h>

typedef struct { double x, y; } Pt;

void normalize2(const int64_t *xs, int64_t n, int64_t *ys1, int64_t *ys2) {
	int64_t s1 = 0, s2 = 0;
	for (int64_t i = 0; i < n; i++) {
		s1 += xs[i];
		s2 += xs[i] > 0 ? xs[i] : 0;
	}
	for (int64_t i = 0; i < n; i++) {
		ys1[i] = xs[i] / s1;
		ys2[i] = xs[i] / s2;
	}
}

void normalize2f(const double *xs, int64_t n, double *ys1, double *ys2) {
	double s1 = 0, s2 = 0;
	for (int64_t i = 0; i < n; i++) {
		s1 += xs[i];
		s2 += xs[i] > 0 ? xs[i] : 0.0;
	}
	for (int64_t i = 0; i < n; i++) {
		ys1[i] = xs[i] / s1;
		ys2[i] = xs[i] / s2;
	}
}

/* pipeline: s, m, n of bench/pipeline.cnf in one loop. */
void pipeline(const int64_t *xs, int64_t n, int64_t *out) {
	int64_t s = 0, m = 0, t = 0;
	for (int64_t i = 0; i < n; i++) {
		int64_t y = xs[i] * 3, z = y + 1;
		s += z > -2900 ? z : 0;
		m = z > m ? z : m;
		t += y;
	}
	out[0] = s, out[1] = m, out[2] = t;
}

/* initialBounds: x1, y1, x2, y2. */
void initialBounds(const Pt *ps, int64_t n, double *out) {
	double x1 = INFINITY, x2 = -INFINITY, y1 = INFINITY, y2 = -INFINITY;
	for (int64_t i = 0; i < n; i++) {
		double x = ps[i].x, y = ps[i].y;
		x1 = x < x1 ? x : x1;
		x2 = x > x2 ? x : x2;
		y1 = y < y1 ? y : y1;
		y2 = y > y2 ? y : y2;
	}
	out[0] = x1, out[1] = y1, out[2] = x2, out[3] = y2;
}

/* quadtree's go: the points of each quadrant of box (x1, y1, x2, y2), in order; counts[4]. */
void quadtree(const Pt *ps, int64_t n, const double *box, Pt *p1, Pt *p2, Pt *p3, Pt *p4, int64_t *counts) {
	double x1 = box[0], y1 = box[1], x2 = box[2], y2 = box[3];
	double mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
	int64_t k1 = 0, k2 = 0, k3 = 0, k4 = 0;
	for (int64_t i = 0; i < n; i++) {
		Pt p = ps[i];
		int left = (x1 <= p.x) & (p.x < mx), right = (mx <= p.x) & (p.x < x2);
		int low = (y1 <= p.y) & (p.y < my), high = (my <= p.y) & (p.y < y2);
		p1[k1] = p, k1 += left & low;
		p2[k2] = p, k2 += right & low;
		p3[k3] = p, k3 += left & high;
		p4[k4] = p, k4 += right & high;
	}
	counts[0] = k1, counts[1] = k2, counts[2] = k3, counts[3] = k4;
}

/* quickhull's filterMax: the farthest point from line (x1, y1, x2, y2) and the points above it. */
int64_t quickhull(const Pt *ps, int64_t n, const double *line, Pt *maxim, Pt *above) {
	double x1 = line[0], y1 = line[1], dx = line[2] - line[0], dy = line[3] - line[1];
	Pt best = {0, 0};
	double bd = -INFINITY;
	int64_t k = 0;
	for (int64_t i = 0; i < n; i++) {
		Pt p = ps[i];
		double d = dx * (p.y - y1) - dy * (p.x - x1);
		int gt = d > bd;
		best.x = gt ? p.x : best.x, best.y = gt ? p.y : best.y, bd = gt ? d : bd;
		above[k] = p, k += d > 0;
	}
	*maxim = best;
	return k;
}

/* closestPoints, one level (the recursive calls return 0.5, as in closestPoints.c): aboves and
 * belows are stored (the recursion would read them), the border bands filtered, and the least
 * distance across the bands found. scratch holds 2n points. */
double closestPoints(const Pt *ps, int64_t n, Pt *scratch) {
	double s = 0;
	for (int64_t i = 0; i < n; i++) s += ps[i].y;
	double midy = n ? s / (double)n : 0;
	Pt *aboves = scratch, *belows = scratch + n;
	int64_t ka = 0, kb = 0;
	for (int64_t i = 0; i < n; i++) {
		Pt p = ps[i];
		int up = p.y >= midy;
		aboves[ka] = p, ka += up;
		belows[kb] = p, kb += !up;
	}
	double border = 0.5;
	/* the bands are few points: they go where aboves and belows were */
	Pt *ab = scratch, *bb = scratch + n;
	int64_t na = 0, nb = 0;
	for (int64_t i = 0; i < n; i++) {
		Pt p = ps[i];
		ab[na] = p, na += (p.y < midy - border) & (p.y >= border);
		bb[nb] = p, nb += (p.y >= midy + border) & (p.y < border);
	}
	double m = border;
	for (int64_t i = 0; i < na; i++)
		for (int64_t j = 0; j < nb; j++) {
			double dx = ab[i].x - bb[j].x, dy = ab[i].y - bb[j].y, d = sqrt(dx * dx + dy * dy);
			m = d < m ? d : m;
		}
	(void)ka, (void)kb;
	return m;
}
