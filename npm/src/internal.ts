// Where the package's classes keep their raw wasm-bindgen object: a
// non-enumerable symbol-keyed property, invisible to `Object.keys`, JSON
// and the type declarations, but readable by the other classes of the
// package (a graph reads its saver's, a parent graph its subgraph's).

/** The key of the raw object behind a `StateGraph`, `CompiledStateGraph` or `MemorySaver`. */
export const RAW: unique symbol = Symbol("chronograph.raw");

/** The key of what a graph learned from its state definition (state.ts `StateDefinitionInfo`). */
export const DEFINITION: unique symbol = Symbol("chronograph.definition");
