#!/usr/bin/env bash
# check-nocgo.sh: a cnf built without cgo (no HiGHS linked: `go install` on a machine without a
# C toolchain) clusters every example as the cgo build bin/cnf does, with each solver executable
# (--solver highs|glpk|cbc, and auto), and without any solver (--solver none: exhaustive search
# is proven optimal on small definitions, the greedy clustering is labelled beyond).
# Run from the repository root after bin/cnf is built.
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/cnf-nocgo.XXXXXX")
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/cnf" ./cmd/cnf
"$work/cnf" version | grep -q 'no HiGHS: built without cgo' || { echo "the cgo-free build says: $("$work/cnf" version)" >&2; exit 1; }

# The first line of each definition's report, without the time: "NAME: L loops, objective N (status".
summary() { { "$@" examples/*.cnf || true; } | grep -E '^[A-Za-z0-9_]+: ' | sed -E 's/, solved in [^)]*\)/)/'; }
summary bin/cnf cluster >"$work/cgo.txt"
solvers=(auto none)
for s in highs glpk cbc; do
  exe=$s; [ "$s" = glpk ] && exe=glpsol
  command -v "$exe" >/dev/null 2>&1 && solvers+=("$s")
done
status=0
for s in "${solvers[@]}"; do
  summary "$work/cnf" cluster --solver "$s" >"$work/$s.txt"
  if [ "$s" = none ]; then
    # Without a solver only what exhaustive search proves is claimed optimal, and it is the optimum.
    grep -E '\(optimal' "$work/none.txt" | while read -r line; do
      grep -qxF "$line" "$work/cgo.txt" || { echo "--solver none claims '$line', the cgo build differs" >&2; exit 1; }
    done || status=1
    if grep -vE '\(optimal|not clustered' "$work/none.txt" | grep -vq 'not proven optimal: no solver'; then
      echo "--solver none shows a clustering neither proven nor labelled:" >&2; grep -vE '\(optimal' "$work/none.txt" >&2; status=1
    fi
    continue
  fi
  if ! diff -u "$work/cgo.txt" "$work/$s.txt"; then
    echo "cnf built without cgo, --solver $s, differs from the cgo build (above)" >&2
    status=1
  fi
done
[ $status = 0 ] && echo "check-nocgo: the cgo-free build agrees with the cgo build on $(wc -l <"$work/cgo.txt") definitions with ${solvers[*]}"
exit $status
