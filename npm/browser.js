// Browser entry (a plain ES module, no bundler): fetches the wasm module
// next to this file with a top-level await, so `import` is all it takes.
import init from "./wasm/chronograph.js";
import { setup } from "./setup.js";

await init({ module_or_path: new URL("./wasm/chronograph_bg.wasm", import.meta.url) });
setup(null);

export * from "./index.js";
