#!/usr/bin/env bash
# peers.sh: cnf beside what its users would pick instead. Table 1.1's programs and
# bench/pipeline.cnf run in cnf (the optimal clustering, cnf bench, 1 and 2 threads), hand-written
# C (bench/peers/handwritten.c, the reference), NumPy, Numba (one fused loop, and the NumPy code
# under @njit), DuckDB and Polars (1 and 2 threads), all on exactly cnf bench's inputs (cnf bench
# --save), every result checked against cnf's. cnf on 2 threads reassociates Float folds
# (--reassociate-floats), as DuckDB and Polars do on every thread count. Prints one table
# (milliseconds, median of RUNS runs after a warm-up) and each peer's time over cnf's. A
# benchmark, not a test.
#
#   scripts/peers.sh [PROGRAM...]     (default all; SIZE=10000000 RUNS=5 CNF=bin/cnf)
#
# Installs what it needs: Debian's python3-numpy and python3-numba, and the npm packages pinned in
# bench/peers/package.json (@duckdb/node-api, nodejs-polars 0.25.2 and its linux-x64-gnu binary).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-10000000}
runs=${RUNS:-5}
cnf=${CNF:-bin/cnf}
all=(normalize2 normalize2f closestPoints initialBounds quadtree quickhull pipeline)
progs=("${@:-${all[@]}}")

py=/usr/bin/python3
# Only what is missing: a Node.js from elsewhere (NodeSource's nodejs carries its own npm and
# conflicts with Debian's npm) made asking for nodejs and npm fail the whole install.
pkgs=()
"$py" -c 'import numpy' 2>/dev/null || pkgs+=(python3-numpy)
"$py" -c 'import numba' 2>/dev/null || pkgs+=(python3-numba)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
if [ ${#pkgs[@]} -gt 0 ]; then
  sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
(cd bench/peers && npm ci --no-audit --no-fund --silent)
if [ ! -x "$cnf" ]; then
  # shellcheck source=env.bash
  source scripts/env.bash && build_cnf
fi

args() {
  t=bench/table11
  case $1 in
  normalize2) echo "$t/normalize2.cnf --size $size" ;;
  normalize2f) echo "$t/normalize2f.cnf --size $size" ;;
  closestPoints) echo "$t/closestPoints.cnf --host $t/closestPoints.c --size $((size / 10))" ;;
  initialBounds) echo "$t/quadtree.cnf --function initialBounds --size $size" ;;
  quadtree) echo "$t/quadtree.cnf --function go --host $t/quadtree.c --size $size" ;;
  quickhull) echo "$t/quickhull.cnf --host $t/quickhull.c --size $size" ;;
  pipeline) echo "bench/pipeline.cnf --size $size" ;;
  *) echo "peers.sh: no program $1 (${all[*]})" >&2; exit 2 ;;
  esac
}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$dir/results.jsonl
for p in "${progs[@]}"; do
  a=$(args "$p")
  # shellcheck disable=SC2086
  "$cnf" bench $a --runs "$runs" --threads 1 --json --save "$dir/$p" | "$py" -c 'import json,sys; print(json.dumps({"program": sys.argv[1], "bench": json.load(sys.stdin)}))' "$p" >>"$out"
  # shellcheck disable=SC2086
  "$cnf" bench $a --runs "$runs" --threads 2 --reassociate-floats --json | "$py" -c 'import json,sys; print(json.dumps({"program": sys.argv[1], "bench": json.load(sys.stdin)}))' "$p" >>"$out"
done
cc -O3 -march=native -std=gnu11 -fwrapv -ffp-contract=off -fno-trapping-math -fno-math-errno -shared -fPIC -o "$dir/handwritten.so" bench/peers/handwritten.c -lm
"$py" bench/peers/peers.py "$dir/handwritten.so" "$runs" "$dir" "${progs[@]}" >>"$out"
for t in 1 2; do
  (cd bench/peers && POLARS_MAX_THREADS=$t node peers.mjs "$t" "$runs" "$dir" "${progs[@]}") >>"$out"
done
"$py" bench/peers/table.py "$size" <"$out"
