#!/usr/bin/env bash
# Builds the visualizer into dist/: index.html + chronograph_web.js + chronograph_web_bg.wasm
# + the static assets of web/assets/, servable by any static server (scripts/serve.mjs), and
# chronograph.html, the same app in one self-contained file that opens with a double-click.
#
#   scripts/build-web.sh          release build, shrunk with wasm-opt -Os when a recent enough
#                                 binaryen is installed (WASM_OPT=/path/to/wasm-opt to pick one)
#   scripts/build-web.sh --dev    dev profile (faster to build, no wasm-opt)
#
# No trunk: cargo + the wasm-bindgen CLI (same version as the crate, 0.2.130) + wasm-opt.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

profile=release
case "${1:-}" in
  "") ;;
  --dev) profile=dev ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--dev]" >&2; exit 2 ;;
esac

log() { printf '\033[1;34m[build-web]\033[0m %s\n' "$*"; }

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "build-web: '$1' not found; run scripts/setup.sh" >&2; exit 1; }
}
need cargo
need wasm-bindgen

# The CLI must match the wasm-bindgen crate pinned in Cargo.toml, or the generated glue breaks.
want="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' Cargo.toml)"
have="$(wasm-bindgen --version | awk '{print $2}')"
if [ -n "$want" ] && [ "$want" != "$have" ]; then
  echo "build-web: wasm-bindgen CLI is $have but Cargo.toml pins $want; run scripts/setup.sh" >&2
  exit 1
fi

target_dir="${CARGO_TARGET_DIR:-$root/target}"
if [ "$profile" = release ]; then
  log "cargo build -p chronograph-web --target wasm32-unknown-unknown --release"
  cargo build -p chronograph-web --target wasm32-unknown-unknown --release
  out_dir="$target_dir/wasm32-unknown-unknown/release"
else
  log "cargo build -p chronograph-web --target wasm32-unknown-unknown"
  cargo build -p chronograph-web --target wasm32-unknown-unknown
  out_dir="$target_dir/wasm32-unknown-unknown/debug"
fi
# The binary target keeps the package's name (with a dash).
wasm="$out_dir/chronograph-web.wasm"
[ -f "$wasm" ] || { echo "build-web: $wasm was not produced" >&2; exit 1; }

dist="$root/dist"
rm -rf "$dist"
mkdir -p "$dist"

log "wasm-bindgen --target web --out-dir dist --out-name chronograph_web"
wasm-bindgen --target web --no-typescript --out-dir "$dist" --out-name chronograph_web "$wasm"

bg="$dist/chronograph_web_bg.wasm"
if [ "$profile" = release ]; then
  wasm_opt="${WASM_OPT:-wasm-opt}"
  if ! command -v "$wasm_opt" >/dev/null 2>&1; then
    log "wasm-opt not found: skipping the size pass (install a recent binaryen, or set WASM_OPT)"
  elif ! "$wasm_opt" --help 2>/dev/null | grep -q -- '--enable-call-indirect-overlong'; then
    # Rust >= 1.82 emits reference types and overlong call_indirect table indices; older
    # binaryen (Debian bookworm ships 108) silently re-points the exported externref table
    # at the function table, and the page dies in __wbindgen_init_externref_table.
    log "$("$wasm_opt" --version) is too old for this module: skipping the size pass"
    log "  (a recent binaryen, e.g. npm's binaryen@132, works: set WASM_OPT=/path/to/wasm-opt)"
  else
    before="$(wc -c <"$bg")"
    # No --enable-* flags: naming some disables the others. wasm-opt reads the features
    # from the module's target_features section.
    "$wasm_opt" -Os "$bg" -o "$bg.opt"
    mv "$bg.opt" "$bg"
    log "$("$wasm_opt" --version | awk '{print $1, $3}') -Os: ${before} -> $(wc -c <"$bg") bytes"
  fi
fi

cp "$root/index.html" "$dist/index.html"
if [ -d "$root/web/assets" ]; then
  cp -R "$root/web/assets/." "$dist/"
fi

# The same app as one file that opens from the file system (browsers block module
# scripts and fetch() on file:// pages, so index.html needs a server).
log "node scripts/single-file.mjs: dist/chronograph.html"
node "$root/scripts/single-file.mjs" "$dist"

log "dist/ ready ($profile):"
(cd "$dist" && for f in *; do printf '  %-26s %8s bytes\n' "$f" "$(wc -c <"$f")"; done)
