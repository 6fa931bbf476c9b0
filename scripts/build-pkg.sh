#!/usr/bin/env bash
# Builds the npm package into pkg/ (generated, not committed):
#   pkg/wasm/chronograph.js + chronograph_bg.wasm   wasm-pack --target web, release profile,
#                                                    crate `chronograph-wasm` (core/wasm/, the bindings)
#   pkg/**/*.js + *.d.ts (index.d.ts)              the TypeScript layer (npm/src/**/*.ts: one entry module
#                                                    per subpath at the top, the code in folders after
#                                                    LangGraph.js's own), compiled by tsc (tools/: typescript)
#                                                    into the same layout, against the bindings' own
#                                                    declarations (pkg/wasm/chronograph.d.ts)
#   pkg/{node,browser}.js                            the entries (npm/), which load the wasm module;
#   pkg/langgraph-{node,browser}.js                  those of `chronograph/langgraph` (npm/src/langgraph.ts, over npm/src/checkpoint/langgraph_saver.ts)
#   pkg/pregel-{node,browser}.js                     those of `chronograph/pregel` (npm/src/pregel.ts, over npm/src/pregel/)
#   pkg/prebuilt-{node,browser}.js                   those of `chronograph/prebuilt` (npm/src/prebuilt.ts, over npm/src/prebuilt/)
#   pkg/migrate.mjs                                  the `chronograph-migrate` command (bin), over pkg/checkpoint/migrate.js
#   pkg/package.json, pkg/README.md                 from npm/ (version from core/Cargo.toml)
# One wasm build serves both entries: Node loads it synchronously (node.js), browsers
# with a top-level await (browser.js); package.json `exports` picks the entry.
# Idempotent; nothing is downloaded (wasm-pack finds the wasm-bindgen CLI on PATH, and
# wasm-opt -O3 (speed: the package is the engine) runs here, only when it is recent enough: WASM_OPT=/path/to/wasm-opt to pick one).
#
#   scripts/build-pkg.sh          release build
#   scripts/build-pkg.sh --dev    dev profile (faster, no wasm-opt)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log() { printf '\033[1;34m[build-pkg]\033[0m %s\n' "$*"; }

profile=--release
case "${1:-}" in
  "") ;;
  --dev) profile=--dev ;;
  -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--dev]" >&2; exit 2 ;;
esac

for tool in cargo wasm-pack wasm-bindgen node; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-pkg: '$tool' not found; run scripts/setup.sh" >&2; exit 1; }
done
# The CLI must match the wasm-bindgen crate pinned in Cargo.toml, or the generated glue breaks.
"$root/scripts/wasm-bindgen-check.sh" build-pkg

pkg="$root/pkg"
out="$pkg/wasm"
rm -rf "$pkg"
mkdir -p "$out"

log "wasm-pack build core/wasm --target web $profile"
wasm-pack --quiet build core/wasm --target web "$profile" --no-opt --no-pack --no-gitignore \
  --weak-refs --out-dir "$out" --out-name chronograph
rm -f "$out/README.md" "$out/package.json" "$out/.gitignore" "$out/chronograph_bg.wasm.d.ts"

bg="$out/chronograph_bg.wasm"
if [ "$profile" = --release ]; then
  # -O3: the package is the engine, so speed first (BENCHMARKS.md, "Size"). The two strip
  # passes only drop custom sections nothing reads at run time (the toolchain's names and
  # the feature list wasm-opt itself has just read): smaller, and the code is unchanged.
  scripts/wasm-opt.sh build-pkg "$bg" -O3 --strip-producers --strip-target-features
fi

tsc="$root/tools/node_modules/typescript/bin/tsc"
[ -f "$tsc" ] || { echo "build-pkg: tools/node_modules/typescript is missing; run scripts/setup.sh" >&2; exit 1; }
# npm/src/langgraph.ts (the `chronograph/langgraph` entry) is checked against the declarations
# of its peer dependencies, installed in tools/ (build tools); tsc finds them through this link.
ln -sfn ../tools/node_modules npm/node_modules
log "tsc -p npm (npm/src/**/*.ts -> pkg/**/*.js, *.d.ts)"
node "$tsc" -p npm
# The bindings' declarations served the check above; the package's own declare the public surface.
rm -f "$out/chronograph.d.ts"
cp npm/node.js npm/browser.js npm/langgraph-node.js npm/langgraph-browser.js npm/pregel-node.js npm/pregel-browser.js \
  npm/prebuilt-node.js npm/prebuilt-browser.js npm/migrate.mjs npm/README.md "$pkg/"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
node -e '
  const fs = require("fs");
  const [src, dst, version] = process.argv.slice(1);
  const p = JSON.parse(fs.readFileSync(src, "utf8"));
  p.version = version;
  fs.writeFileSync(dst, JSON.stringify(p, null, 2) + "\n");
' npm/package.json "$pkg/package.json" "$version"

log "pkg/ ready (chronograph@$version):"
(cd "$pkg" && find . -type f | sort | while read -r f; do printf '  %-32s %8s bytes\n' "${f#./}" "$(wc -c <"$f")"; done)
