#!/usr/bin/env bash
# run.bash: the main job. Builds cnf (installing HiGHS first if it is missing) and runs it on
# every program in examples/: the program in canonical layout, its diagnostics and sizes, its
# optimal clustering into loops with the baselines, and the fused process of every loop.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/env.bash
build_cnf
for f in examples/*.cnf; do
  echo "=== $f"
  bin/cnf fmt "$f"
  echo "--- sizes (cnf infer)"
  bin/cnf infer "$f" || true   # some examples are wrong on purpose (bad1, bad2)
  echo "--- loops (cnf cluster)"
  bin/cnf cluster "$f" || true
  for fn in $(sed -n 's/^\([a-zA-Z_][a-zA-Z0-9_'"'"']*\) .*= *$/\1/p' "$f"); do
    echo "--- fused processes of $fn (cnf fuse)"
    bin/cnf fuse "$f" --function "$fn" || true
  done
  echo
done
