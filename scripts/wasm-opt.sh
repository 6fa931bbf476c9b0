#!/usr/bin/env bash
# Runs binaryen's wasm-opt over one wasm-bindgen output in place, for scripts/build-pkg.sh
# (speed first: -O3) and scripts/build-web.sh (size first: -Oz):
#
#   scripts/wasm-opt.sh <log tag> <file.wasm> <wasm-opt flags...>
#
# Picks WASM_OPT if set, else the binaryen of tools/ (npm's binaryen@132, installed by
# scripts/setup.sh), else wasm-opt on PATH. Skips the pass, saying why, when none is found
# or it is too old: Rust >= 1.82 emits reference types and overlong call_indirect table
# indices, and older binaryen (Debian bookworm ships 108) silently re-points the exported
# externref table at the function table, so the module dies in
# __wbindgen_init_externref_table. WASM_OPT=/nonexistent skips it on purpose (a module that
# keeps its function names, for profiles).
set -euo pipefail

tag="$1"
wasm="$2"
shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { printf '\033[1;34m[%s]\033[0m %s\n' "$tag" "$*"; }

wasm_opt="${WASM_OPT:-}"
if [ -z "$wasm_opt" ]; then
  if [ -x "$root/tools/node_modules/.bin/wasm-opt" ]; then
    wasm_opt="$root/tools/node_modules/.bin/wasm-opt"
  else
    wasm_opt=wasm-opt
  fi
fi
if ! command -v "$wasm_opt" >/dev/null 2>&1; then
  log "wasm-opt not found: skipping the wasm-opt pass (scripts/setup.sh installs one in tools/)"
  exit 0
fi
if ! "$wasm_opt" --help 2>/dev/null | grep -q -- '--enable-call-indirect-overlong'; then
  log "$("$wasm_opt" --version) is too old for this module: skipping the wasm-opt pass"
  log "  (npm's binaryen@132 works: scripts/setup.sh installs it in tools/, or set WASM_OPT)"
  exit 0
fi
before="$(wc -c <"$wasm")"
# No --enable-* flags: naming some disables the others. wasm-opt reads the features from
# the module's target_features section.
"$wasm_opt" "$@" "$wasm" -o "$wasm.opt"
mv "$wasm.opt" "$wasm"
log "$("$wasm_opt" --version | awk '{print $1, $3}') $*: ${before} -> $(wc -c <"$wasm") bytes"
