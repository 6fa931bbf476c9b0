#!/usr/bin/env bash
# Tests of the npm package, one command for every layer (pkg/ must be built
# first: scripts/build-pkg.sh; the npm packages of tests/ installed: scripts/setup.sh):
#   1. wasm-pack test --node core/wasm --test wasm_api              the binding layer (DTOs, errors)
#   2. node --test tests/*.test.mjs                                  the package in Node (conformance,
#                                                                    nodes, errors, stream, saver,
#                                                                    state, README, npm install)
#   3. tsc --noEmit -p tests                                         the type declarations
#   4. node tests/browser/run.mjs                                    the package in headless Chromium
#   5. tests/interop: LangGraph.js's saver validation suite (vitest --globals) on
#      chronograph/langgraph's MemorySaver, tsc over tests/interop/types.check.ts, and
#      node --test tests/interop/*.test.mjs (SqliteSaver on a temporary file; PostgresSaver
#      on a server started from Debian's postgresql in a temporary directory, skipped
#      when initdb/pg_ctl are not installed)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
step() { printf '\n\033[1;34m[test-pkg]\033[0m %s\n' "$*"; }

[ -f pkg/node.js ] || { echo "test-pkg: pkg/ is not built; run scripts/build-pkg.sh" >&2; exit 2; }
[ -d tests/node_modules/typescript ] && [ -d tests/node_modules/playwright-core ] \
  || { echo "test-pkg: tests/node_modules is missing; run scripts/setup.sh" >&2; exit 2; }
# The tests import the package by name, as an application would.
ln -sfn ../../pkg tests/node_modules/chronograph

step "wasm-pack test --node core/wasm --test wasm_api"
wasm-pack test --node core/wasm --test wasm_api

step "node --test tests/*.test.mjs"
timeout 900 node --test --test-timeout=300000 tests/*.test.mjs

step "tsc --noEmit -p tests"
(cd tests && node node_modules/typescript/bin/tsc --noEmit -p . && echo "types: ok (tests/types.check.ts)")

step "browser: node tests/browser/run.mjs"
timeout 300 node tests/browser/run.mjs

[ -d tests/interop/node_modules/@langchain/langgraph-checkpoint-validation ] \
  || { echo "test-pkg: tests/interop/node_modules is missing; run scripts/setup.sh" >&2; exit 2; }
# A copy, not a link: pkg/langgraph.js must resolve its peer dependency
# @langchain/langgraph-checkpoint from tests/interop/node_modules, the very copy
# LangGraph.js uses there (a link would resolve from pkg/'s real path).
rm -rf tests/interop/node_modules/chronograph
cp -r pkg tests/interop/node_modules/chronograph

step "LangGraph.js's saver validation suite on chronograph/langgraph (vitest --globals)"
(cd tests/interop && timeout 600 node node_modules/vitest/vitest.mjs run --globals validation.spec.mjs)

step "tsc --noEmit -p tests/interop (LangGraph.js's savers in compile, ours in LangGraph.js's)"
(cd tests/interop && node ../../tools/node_modules/typescript/bin/tsc --noEmit -p . && echo "types: ok (tests/interop/types.check.ts)")

step "node --test tests/interop/*.test.mjs (LangGraph.js on Chronograph's saver; Chronograph on SqliteSaver and PostgresSaver)"
(cd tests/interop && timeout 900 node --test --test-concurrency=1 --test-timeout=300000 ./*.test.mjs)
