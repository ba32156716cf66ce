"""NumPy, Numba and hand-written C on cnf bench's inputs (scripts/peers.sh).

    python3 peers.py LIB RUNS DIR PROGRAM...

Each DIR/PROGRAM holds what `cnf bench --save` stored: the inputs (in_NAME.npy) and the
optimal clustering's results (out_NAME.npy). For each program this runs the hand-written C
(LIB, handwritten.c compiled as a shared library), NumPy (the program in NumPy's operations),
Numba's one fused loop (@njit, the loop a Numba user writes) and the NumPy code under @njit,
checks every result against cnf's (Ints and Bools exactly, Floats to a relative 1e-9: NumPy and
Numba sum Floats in another order), and prints one JSON line per program and peer with the
median time of RUNS runs after a warm-up (compilation for Numba). A benchmark, not a test.
"""
import ctypes
import json
import os
import statistics
import sys
import time

import numpy as np
import numba
from numba import njit

PT = np.dtype([("f0", "<f8"), ("f1", "<f8")])


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def quot(a, b):
    """Int division as CNF (and C) does it: truncated toward zero."""
    q = np.abs(a) // abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


# ---- NumPy --------------------------------------------------------------------------------

def np_normalize2(xs):
    s1 = xs.sum()
    s2 = xs[xs > 0].sum()
    return {"ys1": quot(xs, s1), "ys2": quot(xs, s2)}


def np_normalize2f(xs):
    s1 = xs.sum()
    s2 = xs[xs > 0].sum()
    return {"ys1": xs / s1, "ys2": xs / s2}


def np_pipeline(xs):
    ys = xs * 3
    zs = ys + 1
    ws = zs[zs > -2900]
    return {"s": ws.sum(), "m": max(0, zs.max()), "n": ys.sum()}


def np_initialBounds(pts):
    xs, ys = pts["f0"], pts["f1"]
    return {"x1": xs.min(), "y1": ys.min(), "x2": xs.max(), "y2": ys.max()}


def np_quadtree(ins, box):
    x1, y1, x2, y2 = box
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    x, y = ins["f0"], ins["f1"]
    left, right = (x1 <= x) & (x < mx), (mx <= x) & (x < x2)
    low, high = (y1 <= y) & (y < my), (my <= y) & (y < y2)
    return {"p1": ins[left & low], "p2": ins[right & low], "p3": ins[left & high], "p4": ins[right & high]}


def np_quickhull(pts, line):
    x1, y1, x2, y2 = line
    d = (x2 - x1) * (pts["f1"] - y1) - (y2 - y1) * (pts["f0"] - x1)
    i = int(np.argmax(d))
    return {"maxim": pts[i], "above": pts[d > 0]}


def np_closestPoints(pts):
    y = pts["f1"]
    midy = y.mean()
    aboves = pts[y >= midy]  # stored, as the recursion would read them
    belows = pts[y < midy]
    border = 0.5
    ab = pts[(y < midy - border) & (y >= border)]
    bb = pts[(y >= midy + border) & (y < border)]
    dx = ab["f0"][:, None] - bb["f0"][None, :]
    dy = ab["f1"][:, None] - bb["f1"][None, :]
    d = np.sqrt(dx * dx + dy * dy)
    del aboves, belows
    return {"mins": min(border, d.min()) if d.size else border}


# ---- Numba: one fused loop, as a Numba user writes it ---------------------------------------

@njit(cache=False)
def nb_normalize2(xs):
    s1 = 0
    s2 = 0
    for x in xs:
        s1 += x
        if x > 0:
            s2 += x
    ys1 = np.empty_like(xs)
    ys2 = np.empty_like(xs)
    for i in range(xs.size):
        x = xs[i]
        q1 = abs(x) // abs(s1)
        q2 = abs(x) // abs(s2)
        ys1[i] = -q1 if (x < 0) != (s1 < 0) else q1
        ys2[i] = -q2 if (x < 0) != (s2 < 0) else q2
    return ys1, ys2


@njit
def nb_normalize2f(xs):
    s1 = 0.0
    s2 = 0.0
    for x in xs:
        s1 += x
        if x > 0:
            s2 += x
    return xs / s1, xs / s2


@njit
def nb_pipeline(xs):
    s = 0
    m = 0
    n = 0
    for x in xs:
        y = x * 3
        z = y + 1
        if z > -2900:
            s += z
        if z > m:
            m = z
        n += y
    return s, m, n


@njit
def nb_initialBounds(x, y):
    x1, x2, y1, y2 = np.inf, -np.inf, np.inf, -np.inf
    for i in range(x.size):
        x1 = min(x1, x[i])
        x2 = max(x2, x[i])
        y1 = min(y1, y[i])
        y2 = max(y2, y[i])
    return x1, y1, x2, y2


@njit
def nb_quadtree(x, y, x1, y1, x2, y2):
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    n = x.size
    out = np.empty((4, n, 2))
    k = np.zeros(4, np.int64)
    for i in range(n):
        px, py = x[i], y[i]
        left = x1 <= px and px < mx
        right = mx <= px and px < x2
        q = -1
        if y1 <= py and py < my:
            q = 0 if left else (1 if right else -1)
        elif my <= py and py < y2:
            q = 2 if left else (3 if right else -1)
        if q >= 0:
            out[q, k[q], 0] = px
            out[q, k[q], 1] = py
            k[q] += 1
    return out, k


@njit
def nb_quickhull(x, y, x1, y1, x2, y2):
    n = x.size
    above = np.empty((n, 2))
    k = 0
    bd = -np.inf
    bx, by = 0.0, 0.0
    for i in range(n):
        d = (x2 - x1) * (y[i] - y1) - (y2 - y1) * (x[i] - x1)
        if d > bd:
            bd, bx, by = d, x[i], y[i]
        if d > 0:
            above[k, 0] = x[i]
            above[k, 1] = y[i]
            k += 1
    return bx, by, above[:k]


@njit
def nb_closestPoints(x, y):
    n = x.size
    s = 0.0
    for v in y:
        s += v
    midy = s / n if n else 0.0
    aboves = np.empty((n, 2))
    belows = np.empty((n, 2))
    ka = 0
    kb = 0
    for i in range(n):
        if y[i] >= midy:
            aboves[ka, 0], aboves[ka, 1] = x[i], y[i]
            ka += 1
        else:
            belows[kb, 0], belows[kb, 1] = x[i], y[i]
            kb += 1
    border = 0.5
    na = 0
    nb = 0
    for i in range(n):
        if y[i] < midy - border and y[i] >= border:
            aboves[na, 0], aboves[na, 1] = x[i], y[i]
            na += 1
        if y[i] >= midy + border and y[i] < border:
            belows[nb, 0], belows[nb, 1] = x[i], y[i]
            nb += 1
    m = border
    for i in range(na):
        for j in range(nb):
            dx = aboves[i, 0] - belows[j, 0]
            dy = aboves[i, 1] - belows[j, 1]
            m = min(m, np.sqrt(dx * dx + dy * dy))
    return m


# ---- NumPy code under @njit (what Numba makes of the array code) ------------------------------

@njit
def nj_normalize2(xs):
    s1 = xs.sum()
    s2 = xs[xs > 0].sum()
    q1 = np.abs(xs) // abs(s1)
    q2 = np.abs(xs) // abs(s2)
    return np.where((xs < 0) != (s1 < 0), -q1, q1), np.where((xs < 0) != (s2 < 0), -q2, q2)


@njit
def nj_normalize2f(xs):
    s1 = xs.sum()
    s2 = xs[xs > 0].sum()
    return xs / s1, xs / s2


@njit
def nj_pipeline(xs):
    ys = xs * 3
    zs = ys + 1
    ws = zs[zs > -2900]
    return ws.sum(), max(0, zs.max()), ys.sum()


@njit
def nj_initialBounds(x, y):
    return x.min(), y.min(), x.max(), y.max()


@njit
def nj_quadtree(x, y, x1, y1, x2, y2):
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    left, right = (x1 <= x) & (x < mx), (mx <= x) & (x < x2)
    low, high = (y1 <= y) & (y < my), (my <= y) & (y < y2)
    m1, m2, m3, m4 = left & low, right & low, left & high, right & high
    return x[m1], y[m1], x[m2], y[m2], x[m3], y[m3], x[m4], y[m4]


@njit
def nj_quickhull(x, y, x1, y1, x2, y2):
    d = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
    i = np.argmax(d)
    m = d > 0
    return x[i], y[i], x[m], y[m]


@njit
def nj_closestPoints(x, y):
    midy = y.mean()
    up = y >= midy
    ax, ay, bx_, by_ = x[up], y[up], x[~up], y[~up]
    border = 0.5
    ma = (y < midy - border) & (y >= border)
    mb = (y >= midy + border) & (y < border)
    abx, aby, bbx, bby = x[ma], y[ma], x[mb], y[mb]
    m = border
    for i in range(abx.size):
        d = np.sqrt((abx[i] - bbx) ** 2 + (aby[i] - bby) ** 2)
        if d.size:
            m = min(m, d.min())
    return m


def points(x, y):
    p = np.empty(len(x), PT)
    p["f0"], p["f1"] = x, y
    return p


def pts2(a):
    """An (n, 2) Float array as points."""
    return points(a[:, 0], a[:, 1])


# ---- each program: its inputs, and each peer as a call returning cnf's result names ----------

def programs(lib):
    c = ctypes.CDLL(lib)
    P = ctypes.c_void_p
    I = ctypes.c_int64
    c.closestPoints.restype = ctypes.c_double
    c.quickhull.restype = I

    def ptr(a):
        return a.ctypes.data_as(P)

    def c_normalize2(xs, dtype, f):
        ys1, ys2 = np.empty(len(xs), dtype), np.empty(len(xs), dtype)
        f(ptr(xs), I(len(xs)), ptr(ys1), ptr(ys2))
        return {"ys1": ys1, "ys2": ys2}

    def c_pipeline(xs):
        out = np.empty(3, np.int64)
        c.pipeline(ptr(xs), I(len(xs)), ptr(out))
        return dict(zip("smn", out))

    def c_bounds(pts):
        out = np.empty(4, np.float64)
        c.initialBounds(ptr(pts), I(len(pts)), ptr(out))
        return dict(zip(["x1", "y1", "x2", "y2"], out))

    def c_quadtree(ins, box):
        outs = [np.empty(len(ins), PT) for _ in range(4)]
        k = np.empty(4, np.int64)
        b = np.asarray(box, np.float64)
        c.quadtree(ptr(ins), I(len(ins)), ptr(b), *[ptr(o) for o in outs], ptr(k))
        return {f"p{i + 1}": outs[i][: k[i]] for i in range(4)}

    def c_quickhull(pts, line):
        above, maxim = np.empty(len(pts), PT), np.empty(1, PT)
        l = np.asarray(line, np.float64)
        k = c.quickhull(ptr(pts), I(len(pts)), ptr(l), ptr(maxim), ptr(above))
        return {"maxim": maxim[0], "above": above[:k]}

    def c_closest(pts):
        scratch = np.empty(2 * len(pts), PT)
        return {"mins": c.closestPoints(ptr(pts), I(len(pts)), ptr(scratch))}

    def xy(p):
        return np.ascontiguousarray(p["f0"]), np.ascontiguousarray(p["f1"])

    def quads(r):
        out, k = r
        return {f"p{q + 1}": pts2(out[q, : k[q]]) for q in range(4)}

    def quads_nj(r):
        return {f"p{q + 1}": points(r[2 * q], r[2 * q + 1]) for q in range(4)}

    def hull(r):
        bx, by, above = r
        return {"maxim": points([bx], [by])[0], "above": pts2(above)}

    def hull_nj(r):
        bx, by, ax, ay = r
        return {"maxim": points([bx], [by])[0], "above": points(ax, ay)}

    def box4(v):
        return tuple(np.frombuffer(v.tobytes(), np.float64))

    # Each program: (inputs from the saved files, {peer: function of the inputs}); the points
    # are given to Numba as two contiguous columns (its own layout, made outside the timing).
    return {
        "normalize2": (lambda d: (load(d, "in_xs"),), {
            "hand C": lambda xs: c_normalize2(xs, np.int64, c.normalize2),
            "NumPy": np_normalize2,
            "Numba loop": lambda xs: dict(zip(["ys1", "ys2"], nb_normalize2(xs))),
            "Numba NumPy": lambda xs: dict(zip(["ys1", "ys2"], nj_normalize2(xs))),
        }),
        "normalize2f": (lambda d: (load(d, "in_xs"),), {
            "hand C": lambda xs: c_normalize2(xs, np.float64, c.normalize2f),
            "NumPy": np_normalize2f,
            "Numba loop": lambda xs: dict(zip(["ys1", "ys2"], nb_normalize2f(xs))),
            "Numba NumPy": lambda xs: dict(zip(["ys1", "ys2"], nj_normalize2f(xs))),
        }),
        "closestPoints": (lambda d: (load(d, "in_pts"),) + xy(load(d, "in_pts")), {
            "hand C": lambda p, x, y: c_closest(p),
            "NumPy": lambda p, x, y: np_closestPoints(p),
            "Numba loop": lambda p, x, y: {"mins": nb_closestPoints(x, y)},
            "Numba NumPy": lambda p, x, y: {"mins": nj_closestPoints(x, y)},
        }),
        "initialBounds": (lambda d: (load(d, "in_pts"),) + xy(load(d, "in_pts")), {
            "hand C": lambda p, x, y: c_bounds(p),
            "NumPy": lambda p, x, y: np_initialBounds(p),
            "Numba loop": lambda p, x, y: dict(zip(["x1", "y1", "x2", "y2"], nb_initialBounds(x, y))),
            "Numba NumPy": lambda p, x, y: dict(zip(["x1", "y1", "x2", "y2"], nj_initialBounds(x, y))),
        }),
        "quadtree": (lambda d: (load(d, "in_ins"), box4(load(d, "in_box"))) + xy(load(d, "in_ins")), {
            "hand C": lambda p, b, x, y: c_quadtree(p, b),
            "NumPy": lambda p, b, x, y: np_quadtree(p, b),
            "Numba loop": lambda p, b, x, y: quads(nb_quadtree(x, y, *b)),
            "Numba NumPy": lambda p, b, x, y: quads_nj(nj_quadtree(x, y, *b)),
        }),
        "quickhull": (lambda d: (load(d, "in_pts"), box4(load(d, "in_l"))) + xy(load(d, "in_pts")), {
            "hand C": lambda p, l, x, y: c_quickhull(p, l),
            "NumPy": lambda p, l, x, y: np_quickhull(p, l),
            "Numba loop": lambda p, l, x, y: hull(nb_quickhull(x, y, *l)),
            "Numba NumPy": lambda p, l, x, y: hull_nj(nj_quickhull(x, y, *l)),
        }),
        "pipeline": (lambda d: (load(d, "in_xs"),), {
            "hand C": c_pipeline,
            "NumPy": np_pipeline,
            "Numba loop": lambda xs: dict(zip("smn", nb_pipeline(xs))),
            "Numba NumPy": lambda xs: dict(zip("smn", nj_pipeline(xs))),
        }),
    }


def same(got, want):
    """got equals cnf's result want: Ints and Bools exactly, Floats to a relative 1e-9."""
    got = np.asarray(got)
    if want.dtype.names:
        if got.dtype.names is None or got.shape != want.shape:
            return False
        return all(same(got[f], want[f]) for f in want.dtype.names)
    if got.shape != want.shape:
        return False
    if want.dtype.kind == "f":
        return bool(np.allclose(got, want, rtol=1e-9, atol=0, equal_nan=True))
    return bool(np.array_equal(got, want))


def main():
    lib, runs, root, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    progs = programs(lib)
    for name in names:
        d = os.path.join(root, name)
        inputs, peers = progs[name]
        args = inputs(d)
        for peer, f in peers.items():
            r = f(*args)  # warm-up (Numba compiles here) and the result checked
            bad = []
            for out, v in r.items():
                want = load(d, "out_" + out)
                if not same(v, want):
                    bad.append(out)
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                f(*args)
                times.append(time.perf_counter() - t0)
            print(json.dumps({"program": name, "peer": peer, "seconds": statistics.median(times),
                              "agree": not bad, "differ": bad}), flush=True)


if __name__ == "__main__":
    print(json.dumps({"versions": {"NumPy": np.__version__, "Numba": numba.__version__}}), flush=True)
    main()
