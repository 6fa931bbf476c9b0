#!/usr/bin/env bash
# Benchmark smoke run (issue 5): every benchmark at a tiny size, once, so CI
# proves they still run and print. It never asserts a time; the real numbers
# and how to reproduce them are in BENCHMARKS.md.
#   1. core benches (divan `engine` in test mode, `summary` table at smoke sizes),
#      built in the test profile so nothing extra is compiled for release;
#   2. node bench/run.mjs --smoke (chronograph vs LangGraph.js), when pkg/ is built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { printf '\033[1;36m[bench-smoke]\033[0m %s\n' "$*"; }

say "core benches, tiny sizes (cargo test -p chronograph --benches)"
cargo test -q -p chronograph --benches

if [ -f pkg/node.js ] && [ -f pkg/wasm/chronograph_bg.wasm ]; then
  if [ ! -d bench/node_modules/@langchain/langgraph ]; then
    say "installing bench/ devDependencies (npm ci)"
    (cd bench && npm ci --no-audit --no-fund --loglevel=error)
  fi
  say "node bench/run.mjs --smoke"
  node bench/run.mjs --smoke
else
  say "pkg/ not built (scripts/build-pkg.sh): skipping the Node harness"
fi
