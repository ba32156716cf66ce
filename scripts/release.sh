#!/usr/bin/env bash
# release.sh [VERSION]: builds a release of cnf into release/VERSION/:
#   - cnf-VERSION-linux-amd64.tar.gz: the static cnf with HiGHS linked in (cgo);
#   - cnf-VERSION-{linux-arm64,darwin-amd64,darwin-arm64}.tar.gz and -windows-amd64.zip: cnf built
#     without cgo (cross-compiled; HiGHS does not cross-build here), which clusters through a
#     solver executable on PATH (highs, glpsol, cbc) or, with none, exhaustively or greedily,
#     labelled (README, "Installing");
#   - cnf-VERSION-TARGET.vsix: the VS Code extension with the cnf of that target bundled
#     (linux-x64 with HiGHS; linux-arm64, darwin-x64, darwin-arm64, win32-x64 without cgo),
#     and cnf-VERSION-universal.vsix with no server (cnf.server.path or cnf on PATH);
#   - SHA256SUMS of all of them.
# VERSION (default: the extension's package.json version) is stamped into `cnf version`, the
# language server's serverInfo and each extension's version; the revision is added by Go.
# Every archive holds cnf, README.md, LICENSE and CHANGELOG.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.bash >/dev/null

version=${1:-$(node -p "require('./vscode-extension/package.json').version")}
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release: VERSION must be MAJOR.MINOR.PATCH, not $version" >&2; exit 2; }
out=release/$version
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d "${TMPDIR:-/tmp}/cnf-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT
stamp="-X github.com/cnf-tools/cnf/internal/buildinfo.version=v$version"

# pack GOOS GOARCH BINARY: the archive of one target.
pack() {
  local goos=$1 goarch=$2 bin=$3 name="cnf-$version-$1-$2" exe=cnf
  [ "$goos" = windows ] && exe=cnf.exe
  mkdir -p "$stage/$name"
  cp "$bin" "$stage/$name/$exe"
  cp README.md LICENSE CHANGELOG.md "$stage/$name/"
  if [ "$goos" = windows ]; then
    (cd "$stage" && zip -qr "$OLDPWD/$out/$name.zip" "$name")
  else
    tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
  fi
}

[ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ] || { echo "release: the HiGHS build is made on linux/amd64; this is $(go env GOOS)/$(go env GOARCH)" >&2; exit 2; }
echo "release: cnf $version ($(git rev-parse --short=12 HEAD 2>/dev/null || echo 'no git'))"
# The host build: static, HiGHS linked in.
go build -buildvcs=auto -tags netgo,osusergo -ldflags "-s -w -linkmode external -extldflags -static $stamp" -o "$stage/cnf-linux-amd64" ./cmd/cnf
"$stage/cnf-linux-amd64" version | grep -q "v$version" || { echo "release: the linux-amd64 build does not say v$version" >&2; exit 1; }
pack linux amd64 "$stage/cnf-linux-amd64"
# The cross builds, without cgo.
for t in linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
  goos=${t%/*} goarch=${t#*/} exe=""
  [ "$goos" = windows ] && exe=.exe
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -buildvcs=auto -ldflags "-s -w $stamp" -o "$stage/cnf-$goos-$goarch$exe" ./cmd/cnf
  pack "$goos" "$goarch" "$stage/cnf-$goos-$goarch$exe"
done

# The extensions: one per target with its server, and the universal one.
(
  cd vscode-extension
  [ -d node_modules ] || npm ci --no-audit --no-fund --silent
  node build.mjs
  pkg() { node package.mjs --version "$version" --out "../$out/cnf-$version-$1.vsix" "${@:2}" >/dev/null; }
  pkg linux-x64 --target linux-x64 --server "$stage/cnf-linux-amd64"
  pkg linux-arm64 --target linux-arm64 --server "$stage/cnf-linux-arm64"
  pkg darwin-x64 --target darwin-x64 --server "$stage/cnf-darwin-amd64"
  pkg darwin-arm64 --target darwin-arm64 --server "$stage/cnf-darwin-arm64"
  pkg win32-x64 --target win32-x64 --server "$stage/cnf-windows-amd64.exe"
  pkg universal
  rm -rf bin examples
)

(cd "$out" && sha256sum -- * >SHA256SUMS)
echo "release: $out"
ls -l "$out" | tail -n +2 | awk '{printf "  %-40s %s\n", $9, $5}'
