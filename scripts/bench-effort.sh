#!/usr/bin/env bash
# The clustering's objective under growing time limits (the effort, counted in work), on
# 200-binding programs of both generators (cnf gen, seeds 1-5 of each shape and of the classic
# mix): one line per program, "LIMIT OBJECTIVE opt|- BOUND TIME" per limit. From the default
# (2s) up, an objective must never rise (docs/performance.md, "Effort, not time"). A
# benchmark, not a test.
#
#   scripts/bench-effort.sh [CNF] [LIMITS...]     (default bin/cnf, 1s 2s 4s 8s)
set -euo pipefail
cnf=${1:-bin/cnf}
shift || true
limits=("$@")
[ ${#limits[@]} -gt 0 ] || limits=(1s 2s 4s 8s)
py=python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for shape in classic chains fans glued mixed sizes; do
  for seed in 1 2 3 4 5; do
    flags=(--bindings 200 --seed "$seed")
    [ "$shape" = classic ] || flags+=(--shape "$shape")
    "$cnf" gen "${flags[@]}" >"$dir/p.cnf"
    line="$shape 200 seed $seed"
    for t in "${limits[@]}"; do
      start=$(date +%s%N)
      o=$("$cnf" cluster --json --time-limit "$t" "$dir/p.cnf" | "$py" -c 'import json,sys; d=json.load(sys.stdin)["functions"][0]; print(d["objective"], "opt" if d["optimal"] else "-", d.get("bound", 0))')
      line="$line | $t $o $((($(date +%s%N) - start) / 1000000))ms"
    done
    echo "$line"
  done
done
