// Called once by an entry module (node.js, browser.js) after the wasm module
// is loaded: hands the engine the JS layer's callbacks and error classes.
import * as raw from "./wasm/chronograph.js";
import { ERROR_CLASSES } from "./errors.js";
import { defineLazy } from "./internal/lazy.js";
import { reviveRecord, storedValue } from "./checkpoint/records.js";
import { setStorage, updateText, type AsyncStorage } from "./pregel/runtime.js";

/**
 * `asyncStorage` is Node's AsyncLocalStorage (null in browsers): with it,
 * `interrupt()` finds its node across `await`s.
 */
export function setup(asyncStorage: AsyncStorage | null): void {
  setStorage(asyncStorage);
  raw.registerUpdateText(updateText);
  raw.registerDefineLazy(defineLazy);
  raw.registerErrorClasses(ERROR_CLASSES);
  raw.registerReviveRecord(reviveRecord);
  raw.registerStoredValue(storedValue);
}
