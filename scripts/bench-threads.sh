#!/usr/bin/env bash
# bench-threads.sh: the optimal clustering's loops on 1 thread and on T (default: every core),
# beside the copy loop on as many threads, for a list of programs (default: normalize2, the
# filter-map-fold pipeline of bench/, and the programs named on the command line). Prints one
# row per program: optimal median at 1 and T threads, their ratio, and the fraction of the
# T-thread copy loop's bandwidth the T-thread run reaches. A benchmark, not a test: the machine
# is shared, so compare within one run.
#
#   scripts/bench-threads.sh [-t T] [-n SIZE] [FILE.cnf[:FUNCTION]]...
set -euo pipefail
cd "$(dirname "$0")/.."
threads=$(nproc)
size=10000000
while getopts "t:n:" o; do
	case $o in
	t) threads=$OPTARG ;;
	n) size=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(examples/normalize2.cnf bench/pipeline.cnf)
cnf=${CNF:-bin/cnf}
printf "%-34s %10s %10s %7s %10s\n" program "1 thread" "$threads threads" speed-up "of copy"
for p in "${progs[@]}"; do
	file=${p%%:*}
	fn=()
	[ "$file" != "$p" ] && fn=(--function "${p#*:}")
	one=$("$cnf" bench "$file" "${fn[@]}" --size "$size" --runs 5 --threads 1 --json)
	many=$("$cnf" bench "$file" "${fn[@]}" --size "$size" --runs 5 --threads "$threads" --json)
	python3 - "$p" "$one" "$many" <<'PY'
import json, sys
name, one, many = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
opt = lambda r: [c for c in r["clusterings"] if c["name"] == "optimal"][0]
o1, om = opt(one), opt(many)
copy = many["copy"]
frac = (om["bytes"] / om["seconds"]) / (copy["bytes"] / copy["seconds"]) if copy["seconds"] else 0
print(f"{name:34s} {o1['seconds']*1e3:8.1f}ms {om['seconds']*1e3:8.1f}ms {o1['seconds']/om['seconds']:6.2f}x {100*frac:9.0f}%")
PY
done
