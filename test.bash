#!/usr/bin/env bash
# test.bash: runs every test of cnf, installing what is missing first (HiGHS).
# FUZZTIME sets how long the front end is fuzzed (default 30s; 0 skips fuzzing).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/env.bash

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then echo "not gofmt-ed:"; echo "$unformatted"; exit 1; fi

step "go vet"
go vet ./...

step "build a self-contained bin/cnf"
build_cnf
if ldd bin/cnf >/dev/null 2>&1; then echo "bin/cnf is dynamically linked:"; ldd bin/cnf; exit 1; fi
bin/cnf version

step "go test (race detector on)"
go test -race -count=1 ./...

step "property tests in depth (1000 random programs each)"
go test -count=1 ./cluster ./infer ./fuse -run 'TestILPMatchesExhaustive|TestGeneratedProgramsInfer|TestThreeSemanticsAgree' -rapid.checks=1000

fuzztime=${FUZZTIME:-30s}
if [ "$fuzztime" != 0 ]; then
  step "fuzz the front end for $fuzztime"
  go test -run '^$' -fuzz FuzzAnalyze -fuzztime "$fuzztime" ./syntax
fi
