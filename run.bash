#!/usr/bin/env bash
# run.bash: the main job. Builds cnf (installing HiGHS first if it is missing) and runs it on
# every program in examples/: its diagnostics, then the program in canonical layout.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/env.bash
build_cnf
for f in examples/*.cnf; do
  echo "=== $f"
  bin/cnf check "$f" || true   # some examples are wrong on purpose (bad1, bad2)
  bin/cnf fmt "$f"
  echo
done
