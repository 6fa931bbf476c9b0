#!/usr/bin/env bash
# Installs every tool the build and the tests need, only where it is missing.
# Idempotent: a second run does nothing but check. Nothing here downloads from
# outside the package registries (crates.io, Debian, npm).
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
# PostgreSQL's server, for npm/test/interop (PostgresSaver): started by the test in a temporary directory.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
# A CJK font, so headless screenshots show Chinese text as glyphs, not empty boxes.
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  need_apt+=(fonts-noto-cjk)
fi
# Python with venv, for the Agent Server of web/e2e/server.test.mjs (langgraph dev).
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  # --locked first; its lock file can name a crate version the registry no longer
  # serves (webpki-roots 1.0.11 here), so fall back to a fresh resolution.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! wasm-pack --version 2>/dev/null | grep -q "$WASM_PACK_VERSION"; then
  log "cargo install wasm-pack $WASM_PACK_VERSION (a few minutes, once)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force \
    || cargo install wasm-pack --version "$WASM_PACK_VERSION" --force
fi

# Node packages, one `npm ci` per folder with a package-lock.json, again only when
# that lock changes: build tools (binaryen's wasm-opt 132; Debian's binaryen 108
# corrupts wasm-bindgen 0.2.130's externref table); in npm/test the npm package's
# JS, type and browser test packages (playwright-core never downloads a browser);
# in npm/test/interop LangGraph.js's checkpoint packages (saver validation suite,
# SqliteSaver with better-sqlite3, whose native addon builds at install); in
# web/e2e the app's end-to-end test packages (playwright-core, axe-core).
here="$(cd "$(dirname "$0")/.." && pwd)"
for dir in tools npm/test npm/test/interop web/e2e; do
  lock="$here/$dir/package-lock.json"
  stamp="$here/$dir/node_modules/.chronograph-lock.sha"
  [ -f "$lock" ] || continue
  sum="$(sha256sum "$lock" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
    log "npm ci ($dir/)"
    (cd "$here/$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$sum" > "$stamp"
  fi
done
# The Agent Server of web/e2e/server.test.mjs: langgraph-cli[inmem], pinned in
# web/e2e/server/requirements.txt, in a virtual environment in the build cache
# (pip, from PyPI; again only when the requirements change). Only for the tests
# (`./dev test` passes --tests): `./dev app` does not need it.
if [ "${1:-}" = "--tests" ]; then
  node "$here/web/e2e/server/agent_server.mjs" venv
fi
log "tools ready"
