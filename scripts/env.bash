# env.bash: sourced by run.bash and test.bash. Makes sure the tools cnf needs are here
# (installing HiGHS if it is missing) and sets the environment the Go build uses.
set -euo pipefail

command -v go >/dev/null 2>&1 || { echo "cnf: Go is required (https://go.dev/dl/); it is not on PATH" >&2; exit 2; }
command -v gcc >/dev/null 2>&1 || { echo "cnf: gcc is required for cgo (apt-get install gcc)" >&2; exit 2; }

export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig:$HOME/.local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export CGO_ENABLED=1
scripts/install-highs.sh

# A self-contained binary: HiGHS, the C++ runtime and libc are linked in, so bin/cnf runs
# anywhere on linux-x64 without LD_LIBRARY_PATH (the VS Code extension ships it).
STATIC_FLAGS=(-buildvcs=auto -tags netgo,osusergo -ldflags '-s -w -linkmode external -extldflags "-static"')

build_cnf() {
  go build "${STATIC_FLAGS[@]}" -o bin/cnf ./cmd/cnf
}
