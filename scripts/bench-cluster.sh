#!/usr/bin/env bash
# bench-cluster.sh: cnf's clustering on generated programs of both generators, beside the highs
# command on the LP file cnf ilp writes for the same program, on this machine, in this run.
# For docs/performance.md.
#
# Usage: scripts/bench-cluster.sh [SIZES] [SEEDS] [SHAPES] [LIMIT_SECONDS]
#   SHAPES: classic and any of cnf gen's --shape values (default: classic mixed chains fans sizes)
# Prints a row per program, then per shape and size: median and worst wall time of
# `cnf cluster --time-limit LIMIT` (all solves, baselines included), how many were proven
# optimal, and the same for `highs --time_limit LIMIT` on the LP file, and with PAPER=1 also
# for highs on the LP file of the paper's formulation (`cnf ilp --paper`: Fig 1.14 as printed).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-"25 50 100 200"}
seeds=${2:-"1 2 3 4 5"}
shapes=${3:-"classic mixed chains fans sizes"}
limit=${4:-60}
cnf=${CNF:-bin/cnf}
highs=${HIGHS:-$(command -v highs || true)}
paper=${PAPER:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
rows=$tmp/rows
# run_highs LPFILE (in $tmp): prints the highs command's wall seconds, whether it proved
# optimality, and its objective (rounded; - for none).
run_highs() {
  local t1 s opt obj
  t1=$(now)
  # In $tmp: highs writes HiGHS.log into its working directory.
  (cd "$tmp" && "$highs" --model_file "$1" --time_limit "$limit" --options_file <(printf 'mip_rel_gap = 0\nmip_abs_gap = 0.5\n') >h.out 2>&1) || true
  s=$(secs "$t1" "$(now)")
  opt=false; grep -qE '^ *Status +Optimal' "$tmp/h.out" && opt=true
  obj=$(sed -n 's/^ *Primal bound *\([0-9.e+-]*\).*/\1/p' "$tmp/h.out" | head -1)
  obj=$(awk -v x="$obj" 'BEGIN { if (x == "") print "-"; else printf "%d", x + 0.5 }')
  echo "$s $opt $obj"
}
printf '| shape | bindings | seed | cnf s | cnf proven | cnf objective | highs s | highs proven | highs objective | paper s | paper proven |\n|---|---|---|---|---|---|---|---|---|---|---|\n'
for shape in $shapes; do
  for n in $sizes; do
    for s in $seeds; do
      f=$tmp/p.cnf
      if [ "$shape" = classic ]; then $cnf gen --bindings "$n" --seed "$s" >"$f"; else $cnf gen --shape "$shape" --bindings "$n" --seed "$s" >"$f"; fi
      t0=$(now)
      out=$($cnf cluster --json --time-limit "${limit}s" "$f")
      cs=$(secs "$t0" "$(now)")
      obj=$(printf '%s' "$out" | sed -n 's/^      "objective": \([0-9]*\).*/\1/p' | head -1)
      opt=$(printf '%s' "$out" | sed -n 's/^      "optimal": \(true\|false\).*/\1/p' | head -1)
      hs=-; hopt=-; hobj=-; ps=-; popt=-
      if [ -n "$highs" ]; then
        $cnf ilp "$f" >"$tmp/p.lp"
        read -r hs hopt hobj < <(run_highs p.lp)
        if [ "$paper" = 1 ]; then
          $cnf ilp --paper "$f" >"$tmp/p.lp"
          read -r ps popt _ < <(run_highs p.lp)
        fi
      fi
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$shape" "$n" "$s" "$cs" "$opt" "$obj" "$hs" "$hopt" "$hobj" "$ps" "$popt" | tee -a "$rows"
    done
  done
done
echo
printf '| shape | bindings | cnf median s | cnf worst s | cnf proven | highs median s | highs worst s | highs proven | paper median s | paper proven |\n|---|---|---|---|---|---|---|---|---|---|\n'
awk -F' *\\| *' '
  { key = $2 " | " $3; n[key]++; cs[key, n[key]] = $5; hs[key, n[key]] = $8; ps[key, n[key]] = $11; if ($6 == "true") cp[key]++; if ($9 == "true") hp[key]++; if ($12 == "true") pp[key]++; if ($12 != "-") pr[key] = 1; order[key] = order[key] ? order[key] : ++k; keys[k] = key }
  function med(a, key, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[key, i] + 0; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t } ; return (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
  function worst(a, key, m,   i, w) { w = 0; for (i = 1; i <= m; i++) if (a[key, i] + 0 > w) w = a[key, i] + 0; return w }
  END { for (i = 1; i <= k; i++) { key = keys[i]; m = n[key]; printf "| %s | %.2f | %.2f | %d of %d | %.2f | %.2f | %d of %d |", key, med(cs, key, m), worst(cs, key, m), cp[key], m, med(hs, key, m), worst(hs, key, m), hp[key], m; if (pr[key]) printf " %.2f | %d of %d |\n", med(ps, key, m), pp[key], m; else printf " - | - |\n" } }
' "$rows"
