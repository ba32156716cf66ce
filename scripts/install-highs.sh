#!/usr/bin/env bash
# install-highs.sh: make the HiGHS C library (the ILP solver cnf links) available to pkg-config.
#
# Order of preference:
#   1. an installed HiGHS that pkg-config already finds: nothing to do;
#   2. the distribution's libhighs-dev, where the distribution has it;
#   3. HiGHS 1.10.0 built from Debian trixie's source package (bookworm has no HiGHS), installed as
#      a static library so that the cnf binary is self-contained (no LD_LIBRARY_PATH, shippable in
#      the VS Code extension). The build takes about 6 minutes on 2 cores and happens once: a later
#      run finds it through pkg-config and returns at once.
#
# Environment: HIGHS_PREFIX (default /usr/local when writable, else $HOME/.local).
# Prints progress to stderr; exits non-zero with a message when it cannot install.
set -euo pipefail

log() { printf 'install-highs: %s\n' "$*" >&2; }

prefix=${HIGHS_PREFIX:-}
if [ -z "$prefix" ]; then
  if [ -w /usr/local/lib ] || [ "$(id -u)" = 0 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

if pkg-config --exists highs 2>/dev/null; then
  log "HiGHS $(pkg-config --modversion highs) already installed ($(pkg-config --variable=libdir highs))"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else log "not root and no sudo: apt-get steps will fail"; fi
fi
apt_get() { "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }

# 2. The distribution's package, where there is one (trixie and later).
if command -v apt-get >/dev/null 2>&1; then
  apt_get update -qq >/dev/null 2>&1 || log "apt-get update failed (continuing)"
  if apt-cache show libhighs-dev >/dev/null 2>&1; then
    log "installing libhighs-dev from the distribution"
    apt_get install -y -qq libhighs-dev pkg-config >/dev/null
    pkg-config --exists highs && exit 0
  fi
fi

# 3. Build from Debian trixie's source package.
command -v apt-get >/dev/null 2>&1 || { log "no apt-get: install HiGHS 1.10 (with highs.pc) yourself and set PKG_CONFIG_PATH"; exit 1; }
need=()
for tool in cmake make g++ pkg-config xz; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  pkgs=()
  for tool in "${need[@]}"; do
    case $tool in g++) pkgs+=(g++) ;; xz) pkgs+=(xz-utils) ;; *) pkgs+=("$tool") ;; esac
  done
  log "installing build tools: ${pkgs[*]}"
  apt_get install -y -qq "${pkgs[@]}" >/dev/null
fi

# The Debian mirror the machine already uses (deb822 .sources files or one-line .list files).
mirror=$(grep -hoE '^URIs: *https?://[^ ]*debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | sed -E 's/^URIs: *//' || true)
if [ -z "$mirror" ]; then
  mirror=$(grep -hoE '^deb +(\[[^]]*\] +)?https?://[^ ]*debian/? ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
    | head -n1 | awk '{print $NF}' || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

work=$(mktemp -d "${TMPDIR:-/tmp}/highs-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf 'deb-src %s trixie main\n' "$mirror" >"$work/src.list"
mkdir -p "$work/lists/partial"
# This private source list only fetches one hash-checked tarball: download as the calling user
# rather than apt's sandbox user, who cannot write to this temporary folder.
A=(-o "Dir::Etc::SourceList=$work/src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$work/lists"
   -o APT::Sandbox::User="$(id -un)")
log "fetching the HiGHS source package from $mirror (trixie)"
apt-get "${A[@]}" update -qq >/dev/null
(cd "$work" && apt-get "${A[@]}" source --download-only --tar-only highs >/dev/null)
tarball=$(ls "$work"/highs_*.orig.tar.* | head -n1)
log "unpacking $(basename "$tarball")"
mkdir -p "$work/src"
tar -xf "$tarball" -C "$work/src" --strip-components=1

log "building HiGHS (static, Release; several minutes)"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DZLIB=OFF -DFAST_BUILD=ON \
  -DBUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib >"$work/cmake.log" 2>&1 \
  || { tail -n 40 "$work/cmake.log" >&2; exit 1; }
cmake --build "$work/build" --parallel "$(nproc)" >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; exit 1; }
"${sudo_cmd[@]}" cmake --install "$work/build" >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log" >&2; exit 1; }

# A static libhighs needs the C++ runtime at link time; make pkg-config say so, so that cgo links
# with the plain `#cgo pkg-config: highs` of lanl/highs.
pc="$prefix/lib/pkgconfig/highs.pc"
if [ -f "$pc" ] && ! grep -q -- '-lstdc++' "$pc"; then
  "${sudo_cmd[@]}" sed -i -E 's/^(Libs:.*)$/\1 -lstdc++ -lm -lpthread/' "$pc"
fi
pkg-config --exists highs || { log "installed, but pkg-config does not find highs.pc under $prefix"; exit 1; }
log "HiGHS $(pkg-config --modversion highs) installed in $prefix"
