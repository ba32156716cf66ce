#!/usr/bin/env bash
# bench-solvers.sh: the same clustering ILPs (cnf ilp) solved by HiGHS (through cnf), glpsol
# and cbc, for docs/performance.md. Needs glpk-utils and coinor-cbc (apt-get install them).
# Usage: scripts/bench-solvers.sh [SIZES] [SEEDS] [LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-"10 25 50 100"}
seeds=${2:-"1 2 3"}
limit=${3:-60}
cnf=${CNF:-bin/cnf}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
printf '| bindings | seed | variables | constraints | HiGHS s | objective | glpsol s | glpsol objective | cbc s | cbc objective |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for n in $sizes; do
  for s in $seeds; do
    f=$tmp/p.cnf
    $cnf gen --thesis --bindings "$n" --seed "$s" >"$f"
    $cnf ilp "$f" >"$tmp/p.lp"
    vars=$(sed -n 's/^\\ Fig 1.14 of .*: [0-9]* bindings, \([0-9]*\) variables, \([0-9]*\) constraints\./\1/p' "$tmp/p.lp")
    rows=$(sed -n 's/^\\ Fig 1.14 of .*: [0-9]* bindings, [0-9]* variables, \([0-9]*\) constraints\./\1/p' "$tmp/p.lp")
    out=$($cnf cluster --json --time-limit "${limit}s" "$f")
    hs=$(printf '%s' "$out" | sed -n 's/.*"solveSeconds": \([0-9.e-]*\).*/\1/p' | head -1)
    obj=$(printf '%s' "$out" | sed -n 's/.*"objective": \([0-9]*\).*/\1/p' | head -1)
    opt=$(printf '%s' "$out" | sed -n 's/.*"optimal": \(true\|false\).*/\1/p' | head -1)
    [ "$opt" = true ] || obj="$obj (not proven)"
    t2=$(now)
    gobj=-; cobj=-
    if timeout "$limit" glpsol --lp "$tmp/p.lp" -o "$tmp/glpk.out" >/dev/null 2>&1; then
      g=$(secs "$t2" "$(now)")
      gobj=$(sed -n 's/^Objective: *obj = \([0-9.e+-]*\).*/\1/p' "$tmp/glpk.out")
    else g="> $limit"; fi
    t3=$(now)
    if timeout "$limit" cbc "$tmp/p.lp" solve quit >"$tmp/cbc.out" 2>&1; then
      c=$(secs "$t3" "$(now)")
      cobj=$(sed -n 's/^Objective value: *\([0-9.e+-]*\).*/\1/p' "$tmp/cbc.out" | head -1)
      cobj=$(awk -v x="$cobj" 'BEGIN { printf "%d", x + 0.5 }')
    else c="> $limit"; fi
    printf '| %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %s |\n' "$n" "$s" "$vars" "$rows" "$hs" "$obj" "$g" "$gobj" "$c" "$cobj"
  done
done
