#!/usr/bin/env bash
# The clustering and the C of a file do not depend on the machine's load: each program is
# built RUNS times on the machine as it is and RUNS times beside two busy loops, and every
# output must be the same (docs/design.md, "Effort, not time"). Programs: 200-binding
# programs of both generators whose clustering is not proven within the default effort, so
# that the effort (not a proof) decides where the search stops, and one under a limit of two
# stages (--time-limit 4s: the second continues the first's root loop, cluster/carry.go).
#
#   scripts/reproducible.sh [CNF] [RUNS]      (default bin/cnf, 5)
set -euo pipefail
cnf=${1:-bin/cnf}
runs=${2:-5}
dir=$(mktemp -d)
busy=()
cleanup() {
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
"$cnf" gen --bindings 200 --seed 1 --shape fans >"$dir/fans200-1.cnf"
"$cnf" gen --bindings 200 --seed 4 --shape glued >"$dir/glued200-4.cnf"
"$cnf" gen --bindings 200 --seed 11 --no-externals >"$dir/classic200-11.cnf"
"$cnf" gen --bindings 200 --seed 5 --shape fans >"$dir/fans200-5-4s.cnf"
status=0
for prog in "$dir"/*.cnf; do
  name=$(basename "$prog" .cnf)
  limit=()
  case "$name" in
  *-4s) limit=(--time-limit 4s) ;;
  esac
  for load in idle busy; do
    if [ "$load" = busy ]; then
      for _ in 1 2; do (while :; do :; done) & busy+=($!); done
    fi
    for run in $(seq "$runs"); do
      start=$(date +%s%N)
      "$cnf" build "${limit[@]}" "$prog" -o "$dir/$name-$load-$run.c"
      "$cnf" cluster "${limit[@]}" "$prog" >"$dir/out"
      sed -n '1s/, solved in .*//p' "$dir/out" >"$dir/$name-$load-$run.txt"
      printf '%s %s run %d: %d ms  %s\n' "$name" "$load" "$run" $((($(date +%s%N) - start) / 1000000)) "$(sha256sum <"$dir/$name-$load-$run.c" | cut -c1-12)"
    done
    if [ "$load" = busy ]; then
      for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done
      busy=()
    fi
  done
  if [ "$(cat "$dir/$name"-*.c | sha256sum)" != "$(for f in "$dir/$name"-*.c; do cat "$dir/$name-idle-1.c"; done | sha256sum)" ]; then
    echo "$name: the C differs between runs" >&2
    status=1
  fi
  if [ "$(sort -u "$dir/$name"-*.txt | wc -l)" != 1 ]; then
    echo "$name: the clustering differs between runs:" >&2
    sort "$dir/$name"-*.txt | uniq -c >&2
    status=1
  fi
  if grep -q "the clock ran out" "$dir/$name"-*.txt; then
    echo "$name: the clock's safety net stopped a search (the machine is too slow for this check)" >&2
    status=1
  fi
  echo "$name: $(head -1 "$dir/$name-idle-1.txt")"
done
exit $status
