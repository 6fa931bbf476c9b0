#!/usr/bin/env bash
# Tests of the npm package, one command for every layer (pkg/ must be built
# first: scripts/build-pkg.sh; the npm packages of npm/test/ installed: scripts/setup.sh):
#   1. wasm-pack test --node core/wasm --test wasm_api              the binding layer (DTOs, errors)
#   2. node --test npm/test/*.test.mjs                               the package in Node (conformance,
#                                                                    compatibility suite, nodes, errors,
#                                                                    stream, saver, state, README,
#                                                                    npm install: install.test.mjs installs
#                                                                    the packed pkg/ three ways, with
#                                                                    npm/test/interop's node_modules)
#   3. tsc --noEmit -p npm/test                                      the type declarations
#   4. node npm/test/browser/run.mjs                                 the package in headless Chromium
#   5. npm/test/interop: LangGraph.js's saver validation suite (vitest --globals) on
#      chronograph/langgraph's MemorySaver, SqliteSaver and PostgresSaver, tsc over npm/test/interop/types.check.ts,
#      and node --test npm/test/interop/*.test.mjs (chronograph/langgraph's SqliteSaver and PostgresSaver
#      against LangGraph.js's; Chronograph on SqliteSaver on a temporary file; PostgresSaver
#      on a server started from Debian's postgresql in a temporary directory, skipped
#      when initdb/pg_ctl are not installed)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
step() { printf '\n\033[1;34m[test-pkg]\033[0m %s\n' "$*"; }

[ -f pkg/node.js ] || { echo "test-pkg: pkg/ is not built; run scripts/build-pkg.sh" >&2; exit 2; }
[ -d npm/test/node_modules/typescript ] && [ -d npm/test/node_modules/playwright-core ] \
  || { echo "test-pkg: npm/test/node_modules is missing; run scripts/setup.sh" >&2; exit 2; }
# The tests import the package by name, as an application would.
ln -sfn ../../../pkg npm/test/node_modules/chronograph

step "wasm-pack test --node core/wasm --test wasm_api"
wasm-pack test --node core/wasm --test wasm_api

step "node --test npm/test/*.test.mjs"
timeout 900 node --test --test-timeout=300000 npm/test/*.test.mjs

step "tsc --noEmit -p npm/test"
(cd npm/test && node node_modules/typescript/bin/tsc --noEmit -p . && echo "types: ok (npm/test/types.check.ts)")

step "browser: node npm/test/browser/run.mjs"
timeout 300 node npm/test/browser/run.mjs

[ -d npm/test/interop/node_modules/@langchain/langgraph-checkpoint-validation ] \
  || { echo "test-pkg: npm/test/interop/node_modules is missing; run scripts/setup.sh" >&2; exit 2; }
# A copy, not a link: pkg/langgraph.js must resolve its peer dependency
# @langchain/langgraph-checkpoint from npm/test/interop/node_modules, the very copy
# LangGraph.js uses there (a link would resolve from pkg/'s real path).
rm -rf npm/test/interop/node_modules/chronograph
cp -r pkg npm/test/interop/node_modules/chronograph

step "LangGraph.js's saver validation suite on chronograph/langgraph's MemorySaver, SqliteSaver and PostgresSaver (vitest --globals)"
(cd npm/test/interop && timeout 600 node node_modules/vitest/vitest.mjs run --globals validation.spec.mjs)

step "tsc --noEmit -p npm/test/interop (LangGraph.js's savers in compile, ours in LangGraph.js's)"
(cd npm/test/interop && node ../../../tools/node_modules/typescript/bin/tsc --noEmit -p . && echo "types: ok (npm/test/interop/types.check.ts)")

step "node --test npm/test/interop/*.test.mjs (LangGraph.js on Chronograph's saver; Chronograph on SqliteSaver and PostgresSaver)"
(cd npm/test/interop && timeout 900 node --test --test-concurrency=1 --test-timeout=300000 ./*.test.mjs)
