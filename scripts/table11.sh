#!/usr/bin/env bash
# table11.sh: the thesis's Table 1.1 on this machine. Every benchmark of bench/table11 (and the
# fused pipeline of bench/pipeline.cnf) is compiled under the four clusterings and timed by
# cnf bench at SIZE elements (default 10^7; closest points at SIZE/10, its cross product grows
# with it). Prints cnf bench's tables; docs/performance.md reports them.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-10000000}
runs=${RUNS:-5}
cnf=${CNF:-bin/cnf}
t=bench/table11
bench() { echo; echo "\$ cnf bench $*"; "$cnf" bench "$@" --runs "$runs"; }
bench $t/normalize2.cnf --size "$size"
bench $t/normalize2f.cnf --size "$size"
bench $t/closestPoints.cnf --host $t/closestPoints.c --size $((size / 10))
bench $t/quadtree.cnf --function initialBounds --size "$size"
bench $t/quadtree.cnf --function go --host $t/quadtree.c --size "$size"
bench $t/quickhull.cnf --host $t/quickhull.c --size "$size"
bench bench/pipeline.cnf --size "$size"
