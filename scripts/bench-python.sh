#!/usr/bin/env bash
# The cost of calling compiled definitions from Python (cnf build --python) against cnf
# bench's time for the same clustering: with the input an ordinary NumPy array, and copied
# into the module's own allocation (NAME.empty: 2 MB pages, as cnf bench allocates); and
# NumPy's time for the same program written with NumPy's operations (results checked equal),
# at N elements: median of RUNS calls after one warm-up, all in one run of this script. A
# benchmark, not a test.
#
#   scripts/bench-python.sh [CNF] [N] [RUNS]     (default bin/cnf, 10000000, 9)
set -euo pipefail
cnf=${1:-bin/cnf}
n=${2:-10000000}
runs=${3:-9}
py=python3
python3 -c 'import numpy' 2>/dev/null || py=/usr/bin/python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%-11s %12s %14s %8s %14s %8s %12s %10s\n' program "cnf bench" "Python, NumPy" "ratio" "Python, empty" "ratio" NumPy "vs NumPy"
for prog in examples/normalize2.cnf bench/pipeline.cnf; do
  name=$(basename "$prog" .cnf)
  "$cnf" build "$prog" --python -o "$dir"
  bench=$("$cnf" bench --json --threads 1 --size "$n" --runs "$runs" "$prog" | "$py" -c 'import json,sys; print(next(c["seconds"] for c in json.load(sys.stdin)["clusterings"] if c["name"] == "optimal"))')
  "$py" - "$dir" "$name" "$n" "$runs" "$bench" <<'PY'
import importlib, statistics, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
name, n, runs, bench = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
mod = importlib.import_module(name)
xs = np.random.default_rng(1).integers(-1000, 1001, n, dtype=np.int64)

def quot(a, b):  # CNF's Int division truncates toward zero (Haskell's quot)
    q = np.abs(a) // abs(b)
    return np.where((a < 0) != (b < 0), -q, q)

def numpy_normalize2(xs):
    s1 = int(xs.sum()); s2 = int(xs[xs > 0].sum())
    return quot(xs, s1), quot(xs, s2)

def numpy_pipeline(xs):
    ys = xs * 3; zs = ys + 1; ws = zs[zs > -2900]
    return int(ws.sum()), max(0, int(zs.max())), int(ys.sum())

def timed(f):
    f(xs)
    ts = []
    for _ in range(runs):
        t = time.perf_counter(); r = f(xs); ts.append(time.perf_counter() - t)
        del r
    return statistics.median(ts)

fn, ref = getattr(mod, name), globals()["numpy_" + name]
got, want = fn(xs), ref(xs)
same = all((np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b) for a, b in zip(got, want))
if not same:
    sys.exit(f"{name}: the module and NumPy disagree")
t_py, t_np = timed(fn), timed(ref)
al = mod.empty(len(xs), xs.dtype)  # the module's allocator: 2 MB pages
al[:] = xs
xs = al
t_al = timed(fn)
print(f"{name:<11} {bench*1e3:9.1f} ms {t_py*1e3:11.1f} ms {t_py/bench:7.2f}x {t_al*1e3:11.1f} ms {t_al/bench:7.2f}x {t_np*1e3:9.1f} ms {t_np/t_py:9.1f}x")
PY
done
