#!/usr/bin/env bash
# Exits 1 with a message when the wasm-bindgen CLI on PATH is not the version
# Cargo.toml pins for the crate: the generated glue must match the crate, or
# it breaks at load time. Called by build-pkg.sh and build-web.sh.
#   scripts/wasm-bindgen-check.sh CALLER     (CALLER prefixes the message)
set -euo pipefail
caller="${1:-build}"
root="$(cd "$(dirname "$0")/.." && pwd)"
want="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$root/Cargo.toml")"
have="$(wasm-bindgen --version | awk '{print $2}')"
if [ -n "$want" ] && [ "$want" != "$have" ]; then
  echo "$caller: wasm-bindgen CLI is $have but Cargo.toml pins $want; run scripts/setup.sh" >&2
  exit 1
fi
