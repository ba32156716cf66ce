#!/usr/bin/env bash
# run.sh: end-to-end test of the CNF extension in real VS Code (code-server 4.100.3, the last
# release that runs on node 20) in Debian's Chromium, driven by playwright-core. It installs
# what is missing (chromium, code-server under $E2E_HOME, playwright-core), installs a fresh
# cnf.vsix into a fresh code-server profile, opens examples/normalize2.cnf and checks what a user
# sees; screenshots of every step go to e2e/artifacts/.
# Usage: e2e/run.sh [path/to/cnf.vsix]      (from vscode-extension/)
set -euo pipefail
vsix=$(realpath "${1:-$(dirname "$0")/../cnf.vsix}")
self=$(realpath "$0")
cd "$(dirname "$0")"
E2E_HOME=${E2E_HOME:-/tmp/cnf-e2e}
CS=$E2E_HOME/code-server
sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
apt_install() { "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }

if ! command -v chromium >/dev/null 2>&1 || ! command -v rg >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  apt_install chromium build-essential pkg-config python3 libkrb5-dev ripgrep
fi
if [ ! -x "$CS/node_modules/.bin/code-server" ]; then
  echo "e2e: installing code-server 4.100.3 (about a minute, once)"
  # @vscode/ripgrep's postinstall downloads rg from GitHub; it first looks in its cache, so seed
  # the cache with Debian's ripgrep (13.0.0, the version it wants).
  export TMPDIR=$E2E_HOME/tmp
  cache=$TMPDIR/vscode-ripgrep-cache-1.15.11
  mkdir -p "$cache" "$TMPDIR/rgseed" "$CS"
  cp "$(command -v rg)" "$TMPDIR/rgseed/rg"
  tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$TMPDIR/rgseed" rg
  # unsafe_perm: its postinstall refuses to run as root otherwise; yes: node-pty runs npx node-gyp.
  npm_config_unsafe_perm=true npm_config_yes=true \
    npm install --prefix "$CS" --no-audit --no-fund --silent code-server@4.100.3 >/dev/null
  unset TMPDIR
fi
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --silent

run=$(mktemp -d "$E2E_HOME/run.XXXXXX")
export XDG_CONFIG_HOME=$run/config XDG_DATA_HOME=$run/data XDG_CACHE_HOME=$run/cache
mkdir -p "$run/user/User" "$run/ext" "$run/ws"
cp ../../examples/normalize2.cnf ../../examples/palindrome.cnf ../../examples/closestPoints.cnf fixtures/pipeline35.cnf fixtures/rates.cnf fixtures/rates.json "$run/ws/"
# E2E_RPC_TRACE=FILE: the server writes a line per protocol message to FILE (cnf lsp
# --rpc-trace), through a wrapper that runs the bundled binary.
server_setting=
if [ -n "${E2E_RPC_TRACE:-}" ]; then
  cat >"$run/cnf-traced" <<SH
#!/bin/sh
exec "\$(ls -d "$run"/ext/*/bin/*/cnf | head -n 1)" "\$@" --rpc-trace "$E2E_RPC_TRACE"
SH
  chmod +x "$run/cnf-traced"
  server_setting="\"cnf.server.path\": \"$run/cnf-traced\","
fi
cat >"$run/user/User/settings.json" <<JSON
{
  $server_setting
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "editor.codeLens": true,
  "cnf.debounce": ${E2E_DEBOUNCE:-150},
  "window.restoreWindows": "none",
  "workbench.colorTheme": "${E2E_THEME:-Default Light Modern}"
}
JSON
"$CS/node_modules/.bin/code-server" --user-data-dir "$run/user" --extensions-dir "$run/ext" --install-extension "$vsix" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
setsid "$CS/node_modules/.bin/code-server" --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry \
  --disable-update-check --disable-workspace-trust --user-data-dir "$run/user" --extensions-dir "$run/ext" \
  "$run/ws" >"$run/code-server.log" 2>&1 &
pgid=$!
cleanup() {
  kill -- "-$pgid" 2>/dev/null || true; sleep 1; kill -9 -- "-$pgid" 2>/dev/null || true
  rm -rf "$run"
}
trap cleanup EXIT
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 1
done
mkdir -p artifacts
rm -f artifacts/*.png
# One retry, in a fresh profile: a step that times out once in a while under load should not
# fail CI, but the failure stays in the log, so a step that starts failing often shows up.
# E2E_CHECK=SCRIPT runs another driver in the same setup (lens-clicks.js measures first clicks).
if ! node "${E2E_CHECK:-check.js}" "http://127.0.0.1:$port/?folder=$run/ws" artifacts "$run"; then
  echo "e2e: the end of code-server's log:"; tail -n 20 "$run/code-server.log" || true
  find "$run" -name '*CNF*' -type f | while read -r f; do echo "e2e: the end of $f:"; tail -n 80 "$f"; done
  if [ -z "${E2E_RETRIED:-}" ]; then
    echo "e2e: retrying once in a fresh profile after the failure above"
    cleanup
    trap - EXIT
    E2E_RETRIED=1 exec "$self" "$vsix"
  fi
  exit 1
fi
