#!/usr/bin/env bash
# test.bash: runs every test of cnf, installing what is missing first (HiGHS).
# FUZZTIME sets each fuzz target's budget (default 300000x executions; 0 skips fuzzing).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/env.bash

step() { printf '\n== %s\n' "$*"; }

# need_tools COMMAND:PACKAGE...: installs with apt-get the Debian package of each command that is
# not on PATH.
need_tools() {
  local need=() pair
  for pair in "$@"; do command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}"); done
  [ ${#need[@]} -gt 0 ] || return 0
  local sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
}

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then echo "not gofmt-ed:"; echo "$unformatted"; exit 1; fi

step "go vet"
go vet ./...

step "go.mod is tidy (direct requirements direct)"
go mod tidy -diff

step "no dead code (deadcode -test)"
dead=$(go run golang.org/x/tools/cmd/deadcode@v0.52.0 -test ./...)
if [ -n "$dead" ]; then echo "unreachable code:"; echo "$dead"; exit 1; fi

step "solver executables for the build without cgo (glpsol, cbc; HiGHS's build installs highs), shells for the completion scripts"
need_tools glpsol:glpk-utils cbc:coinor-cbc zsh:zsh fish:fish
export CNF_REQUIRE_SOLVERS="glpsol cbc"
if command -v highs >/dev/null 2>&1; then CNF_REQUIRE_SOLVERS+=" highs"; fi

step "a C compiler for compiled definitions (cnf run --compiled, cnf build, cnf bench), and make, by which gcc optimises a shared library's loops in parallel (codegen/lto.go; executables are compiled in parts, codegen/parts.go)"
need_tools gcc:gcc make:make

step "Python with NumPy for the generated modules (cnf build --python; Debian's python3-numpy)"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null && ! python3 -c 'import numpy' 2>/dev/null; then
  sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-numpy >/dev/null
fi
export CNF_REQUIRE_PYTHON=1   # the Python module tests fail rather than skip

step "everything builds and tests without cgo (HiGHS is the only C): clustering through solver executables"
CGO_ENABLED=0 go vet ./...
# The compiled-code tests (codegen) run the C compiler on both cores: they run after the other
# packages, not beside them, so that the language server's timing tests (a 5 MB document
# answered within their deadlines) are not starved on a 2-core machine.
others=$(go list ./... | grep -v '/codegen$')
CGO_ENABLED=0 go test -count=1 $others
CGO_ENABLED=0 go test -count=1 -timeout 30m ./codegen # 580 s on an idle 2-core machine on 2026-11-29: past the default 10 minutes when busy

step "build a self-contained bin/cnf"
build_cnf
if ldd bin/cnf >/dev/null 2>&1; then echo "bin/cnf is dynamically linked:"; ldd bin/cnf; exit 1; fi
bin/cnf version
scripts/check-nocgo.sh
# The same clustering and C on an idle and a busy machine (3 runs each here; 5 in docs/performance.md).
scripts/reproducible.sh bin/cnf 3
# Test libraries stay out of the shipped binary.
if go version -m bin/cnf | grep -E 'pgregory.net/rapid|rogpeppe/go-internal|google/go-cmp|golang.org/x/tools'; then
  echo "bin/cnf links test libraries (above): keep them in _test.go files and internal/ test helpers" >&2
  exit 1
fi
# A build from a checkout says which revision it is.
if [ -d .git ] && ! bin/cnf version | grep -qE '[0-9a-f]{12}'; then
  echo "cnf version shows no VCS revision: $(bin/cnf version)" >&2
  exit 1
fi

step "go test (race detector on)"
go test -race -count=1 $others
# In codegen only Bench starts goroutines (its clusterings emitted and compiled side by side
# from one analysis): the race detector runs the tests that reach it. The rest of the package
# runs on one goroutine, where the detector has no races to find; under it that run took
# 1,600 s of CI's 90 minutes (the plain run above covers those tests).
go test -race -count=1 -timeout 45m ./codegen -run 'TestBench'

step "property tests in depth (1000 random programs each)"
go test -count=1 ./cluster ./infer ./fuse -run 'TestILPMatchesExhaustive|TestGeneratedProgramsInfer|TestThreeSemanticsAgree' -rapid.checks=1000
go test -count=1 -timeout 30m ./codegen -run 'TestCompiledAgreesWithReference' -rapid.checks=400

step "the language server driven by real clients (vscode-languageserver-protocol, Neovim)"
need_tools nvim:neovim node:nodejs npm:npm
(cd lsp/clients/node && npm ci --no-audit --no-fund --silent)
node lsp/clients/node/check.js bin/cnf examples
CNF=bin/cnf FILE=examples/normalize2.cnf timeout 120 nvim --headless -u NONE -i NONE -c 'luafile lsp/clients/nvim/check.lua'

step "VS Code extension: grammar and unit tests, and the .vsix with the bundled server"
(cd vscode-extension && npm ci --no-audit --no-fund --silent && npm test --silent && npm run package --silent)
if (cd vscode-extension && npx vsce ls 2>/dev/null) | grep -E '^(e2e|src|test|node_modules)/'; then
  echo "cnf.vsix contains development files: fix vscode-extension/.vscodeignore" >&2
  exit 1
fi

step "VS Code extension end to end: the .vsix in code-server, driven by Playwright"
(cd vscode-extension && e2e/run.sh cnf.vsix)
step "VS Code extension end to end: the universal .vsix without cnf on PATH says how to install it"
(cd vscode-extension && npm run package:universal --silent >/dev/null && E2E_CHECK=universal.js e2e/run.sh cnf-universal.vsix)

step "release: archives, per-target and universal .vsix, checksums, the version stamped in"
scripts/release.sh 9.8.7 >/dev/null
rel=release/9.8.7
(cd "$rel" && sha256sum --quiet -c SHA256SUMS)
tar -xzf "$rel/cnf-9.8.7-linux-amd64.tar.gz" -C "$rel"
"$rel/cnf-9.8.7-linux-amd64/cnf" version | grep -q '^cnf v9.8.7 .*(HiGHS ' || { echo "release cnf says: $("$rel/cnf-9.8.7-linux-amd64/cnf" version)" >&2; exit 1; }
for t in linux-arm64 darwin-amd64 darwin-arm64; do
  [ "$(tar -tzf "$rel/cnf-9.8.7-$t.tar.gz" | sort | tr '\n' ' ')" = "cnf-9.8.7-$t/ cnf-9.8.7-$t/CHANGELOG.md cnf-9.8.7-$t/LICENSE cnf-9.8.7-$t/README.md cnf-9.8.7-$t/cnf " ] || { echo "release: cnf-9.8.7-$t.tar.gz holds $(tar -tzf "$rel/cnf-9.8.7-$t.tar.gz")" >&2; exit 1; }
done
unzip -l "$rel/cnf-9.8.7-windows-amd64.zip" | grep 'cnf-9.8.7-windows-amd64/cnf.exe' >/dev/null
for t in linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 universal; do
  manifest=$(unzip -p "$rel/cnf-9.8.7-$t.vsix" extension.vsixmanifest)
  grep -q 'Version="9.8.7"' <<<"$manifest" || { echo "release: cnf-9.8.7-$t.vsix is not version 9.8.7" >&2; exit 1; }
  servers=$(unzip -l "$rel/cnf-9.8.7-$t.vsix" | grep -oE 'extension/bin/[^ ]+' || true)
  if [ "$t" = universal ]; then
    [ -z "$servers" ] && ! grep -q TargetPlatform <<<"$manifest" || { echo "release: the universal .vsix bundles $servers" >&2; exit 1; }
  else
    exe=cnf; [ "$t" = win32-x64 ] && exe=cnf.exe
    [ "$servers" = "extension/bin/$t/$exe" ] && grep -q "TargetPlatform=\"$t\"" <<<"$manifest" || { echo "release: cnf-9.8.7-$t.vsix bundles '$servers'" >&2; exit 1; }
  fi
done
rm -rf "$rel"

# Fuzz budgets are counts of executions, not durations: with a duration, Go before 1.27 can
# fail a clean run with "context deadline exceeded" when the deadline races a worker's last
# call (golang/go#75804, seen in CI). 300000 executions take about 25 s per target here.
fuzztime=${FUZZTIME:-300000x}
if [ "$fuzztime" != 0 ]; then
  # A short minimisation budget leaves the budget to exploring (minimising a new input may
  # otherwise take a minute, shown as 0 execs/sec).
  step "fuzz the front end ($fuzztime)"
  go test -run '^$' -fuzz FuzzAnalyze -fuzztime "$fuzztime" -fuzzminimizetime 5000x ./syntax
  step "fuzz the whole pipeline, three semantics agree ($fuzztime)"
  go test -run '^$' -fuzz FuzzPipeline -fuzztime "$fuzztime" -fuzzminimizetime 5000x ./fuse
  # Every execution runs the C compiler (about 0.1 s): a budget of its own.
  step "fuzz compiled code against the reference (${FUZZCOMPILED:-2000x})"
  go test -run '^$' -fuzz FuzzCompiled -fuzztime "${FUZZCOMPILED:-2000x}" -fuzzminimizetime 50x ./codegen
fi
