#!/usr/bin/env bash
# bench-scaling.sh: the scaling curve of the optimal clustering's loops. For each program and
# each thread count, `cnf bench --threads T` times every clustering and the copy loop on T
# threads; this prints one row per (program, T): the optimal's median, its speed-up over one
# thread, its bandwidth as a fraction of the copy loop's on the same T, and the copy loop's
# bandwidth. With -j FILE it also appends each run's JSON (one line, with the program and T)
# to FILE. A benchmark, not a test: compare within one run.
#
#   scripts/bench-scaling.sh [-n SIZE] [-r RUNS] [-T "1 2 4 8 16"] [-j FILE] [FILE.cnf[:FUNCTION]]...
set -euo pipefail
cd "$(dirname "$0")/.."
size=100000000
runs=3
counts="1 2 4 8 16"
jsonl=
while getopts "n:r:T:j:" o; do
	case $o in
	n) size=$OPTARG ;;
	r) runs=$OPTARG ;;
	T) counts=$OPTARG ;;
	j) jsonl=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(bench/pipeline.cnf bench/filters.cnf examples/normalize2.cnf bench/compute.cnf)
cnf=${CNF:-bin/cnf}
printf "%-28s %3s %10s %8s %8s %10s\n" program T optimal speed-up "of copy" "copy GB/s"
for p in "${progs[@]}"; do
	file=${p%%:*}
	fn=()
	[ "$file" != "$p" ] && fn=(--function "${p#*:}")
	one=
	for t in $counts; do
		out=$("$cnf" bench "$file" "${fn[@]}" --size "$size" --runs "$runs" --threads "$t" --json)
		[ -z "$one" ] && one=$out
		[ -n "$jsonl" ] && python3 -c 'import json,sys; print(json.dumps({"program": sys.argv[1], "threads": int(sys.argv[2]), "bench": json.loads(sys.argv[3])}))' "$p" "$t" "$out" >>"$jsonl"
		python3 - "$p" "$t" "$one" "$out" <<'PY'
import json, sys
name, t, one, cur = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
opt = lambda r: [c for c in r["clusterings"] if c["name"] == "optimal"][0]
o1, o = opt(one), opt(cur)
copy = cur["copy"]
gbs = copy["bytes"] / copy["seconds"] / 1e9 if copy["seconds"] else 0
frac = (o["bytes"] / o["seconds"]) / (copy["bytes"] / copy["seconds"]) if copy["seconds"] else 0
print(f"{name:28s} {t:>3s} {o['seconds']*1e3:8.1f}ms {o1['seconds']/o['seconds']:7.2f}x {100*frac:7.0f}% {gbs:10.1f}", flush=True)
PY
	done
done
