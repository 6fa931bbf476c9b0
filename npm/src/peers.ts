// Optional peer dependencies (`@langchain/core`, `@langchain/langgraph-checkpoint`),
// looked up without making them required: beside the package first, then
// from the application's entry module (Node only), where a linked package
// (`npm link`, a symlinked `node_modules` entry) finds what the application
// installed.

/** A minimal `require` (the package has no `@types/node` dependency). */
interface NodeRequire {
  (id: string): unknown;
  resolve(id: string): string;
}
declare const process: { cwd(): string };

/** Whether a process-wide switch turns the peers off (`CHRONOGRAPH_LANGCHAIN=off`, for benchmarks and tests). */
export function peersSwitchedOff(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.CHRONOGRAPH_LANGCHAIN === "off";
}

/**
 * The module `pkg` exports at `subpath` (`"."`, `"./messages"`), or
 * `undefined` when it cannot be found. The specifiers are variables, so
 * that bundlers do not require the packages at build time.
 */
export async function importPeer(pkg: string, subpath: string): Promise<unknown> {
  const specifier = subpath === "." ? pkg : `${pkg}/${subpath.slice(2)}`;
  try {
    return await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
  } catch {
    // Not beside the package: try from the application's entry (Node only).
  }
  const proc = (globalThis as { process?: { argv?: string[]; versions?: { node?: string } } }).process;
  if (!proc?.versions?.node) return undefined;
  try {
    const nodeModule = "node:module";
    const nodeUrl = "node:url";
    const { createRequire } = (await import(nodeModule)) as { createRequire(from: string | URL): NodeRequire };
    const { pathToFileURL } = (await import(nodeUrl)) as { pathToFileURL(p: string): URL };
    const from = proc.argv?.[1] ? pathToFileURL(proc.argv[1]) : pathToFileURL(`${process.cwd()}/`);
    const require = createRequire(from);
    const manifest = require.resolve(`${pkg}/package.json`);
    const exported = (require(manifest) as { exports?: Record<string, unknown> }).exports?.[subpath];
    const file = esmEntry(exported);
    if (!file) return undefined;
    return await import(new URL(file, pathToFileURL(manifest)).href);
  } catch {
    return undefined;
  }
}

/** The ES module file of a `package.json` `exports` entry (`"./x.js"`, `{ import }`, `{ import: { default } }`). */
function esmEntry(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (entry === null || typeof entry !== "object") return undefined;
  const e = entry as { import?: unknown; default?: unknown };
  return esmEntry(e.import) ?? (typeof e.default === "string" ? e.default : undefined);
}

/**
 * `@langchain/langgraph-checkpoint` (LangGraph.js's checkpoint package),
 * when installed: looked up once, at import; `undefined` without it or
 * with the peers switched off. Its `InMemoryStore` is the package's
 * (store.ts), and its `MemorySaver` keeps the storage of a `MemorySaver`
 * subclass that overrides the saver methods (saver.ts).
 */
export const checkpointPeer = peersSwitchedOff()
  ? undefined
  : ((await importPeer("@langchain/langgraph-checkpoint", ".")) as Record<string, unknown> | undefined);
