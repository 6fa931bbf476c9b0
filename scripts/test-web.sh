#!/usr/bin/env bash
# Tests of the visualizer in a browser, after scripts/build-web.sh has built dist/:
#   1. component tests: wasm-pack test --headless --chrome web (web/tests/*.rs, system chromedriver)
#   2. end-to-end: web/e2e/*.test.mjs (node --test, playwright-core over the system Chromium;
#      its npm packages, installed by scripts/setup.sh, in web/e2e/node_modules), which also
#      saves screenshots to web/e2e/screenshots/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export PATH="$root/tools/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

printf '\033[1;34m[test-web]\033[0m %s\n' "component tests (wasm-pack test --headless --chrome web)"
wasm-pack test --headless --chrome web

if [ ! -f dist/index.html ]; then
  echo "test-web: dist/ is not built; run scripts/build-web.sh first" >&2
  exit 1
fi
# The 2,000-checkpoint test writes its thread with `cargo run --example big_thread`: built
# here, outside that test file's time budget, so waiting on a busy build lock cannot time it out.
cargo build -q -p chronograph-web --example big_thread
printf '\033[1;34m[test-web]\033[0m %s\n' "end-to-end (node --test web/e2e/*.test.mjs)"
cd web/e2e
[ -d node_modules/playwright-core ] && [ -d node_modules/axe-core ] || npm ci --no-audit --no-fund
# Bounded: a hung browser must fail the run, not stall CI.
timeout 1200 node --test --test-concurrency=1 --test-timeout=300000 ./*.test.mjs
