// Node entry: loads the wasm module synchronously, so `import` is all it takes.
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/chronograph.js";
import { setup } from "./setup.js";

initSync({ module: readFileSync(new URL("./wasm/chronograph_bg.wasm", import.meta.url)) });
setup(new AsyncLocalStorage());

export * from "./index.js";
