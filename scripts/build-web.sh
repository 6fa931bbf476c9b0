#!/usr/bin/env bash
# Builds the visualizer into dist/: index.html + chronograph_web.js + chronograph_web_bg.wasm
# + the static assets of web/assets/, servable by any static server (scripts/serve.mjs), and
# chronograph.html, the same app in one self-contained file that opens with a double-click.
#
#   scripts/build-web.sh          size-first build: cargo profile `web` (Cargo.toml: opt-level "z"
#                                 for every crate, the engine included) with Leptos's
#                                 `--cfg erase_components`, then wasm-opt -Oz when a recent
#                                 enough binaryen is installed (scripts/wasm-opt.sh)
#   scripts/build-web.sh --dev    dev profile (faster to build, no wasm-opt)
#
# No trunk: cargo + the wasm-bindgen CLI (same version as the crate, 0.2.130) + wasm-opt.
# scripts/check-sizes.mjs holds the sizes of dist/ to their budgets.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

profile=web
case "${1:-}" in
  "") ;;
  --dev) profile=dev ;;
  -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--dev]" >&2; exit 2 ;;
esac

log() { printf '\033[1;34m[build-web]\033[0m %s\n' "$*"; }

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "build-web: '$1' not found; run scripts/setup.sh" >&2; exit 1; }
}
need cargo
need wasm-bindgen

# The CLI must match the wasm-bindgen crate pinned in Cargo.toml, or the generated glue breaks.
"$root/scripts/wasm-bindgen-check.sh" build-web

target_dir="${CARGO_TARGET_DIR:-$root/target}"
if [ "$profile" = web ]; then
  # Leptos 0.8's type-erased views (a cfg flag, not a feature): every component returns
  # an AnyView and every reactive child closure one shared type, so the renderer is
  # monomorphized per output type, not per call site: -164 KB raw, -75 KB gzip
  # (BENCHMARKS.md, "Size"). Only the size-first build sets it: the dev build and the
  # wasm-pack tests share target/wasm32-unknown-unknown/debug, and a flag that differs
  # between them would rebuild every dependency at each switch.
  export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--cfg erase_components"
  log "cargo build -p chronograph-web --target wasm32-unknown-unknown --profile web"
  cargo build -p chronograph-web --target wasm32-unknown-unknown --profile web
  out_dir="$target_dir/wasm32-unknown-unknown/web"
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
if [ "$profile" = web ]; then
  # The producers and target_features sections are read by no browser (the package's
  # build drops them too).
  scripts/wasm-opt.sh build-web "$bg" -Oz --strip-producers --strip-target-features
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
