// Optional peer dependencies (`@langchain/core`, `@langchain/langgraph-checkpoint`,
// the savers' drivers), looked up without making them required, and never
// imported statically: a static import resolves from the package's real
// path, which for a linked package (`npm link`, a workspace, a `file:`
// folder) is outside the application, and a bundler or test runner (vite,
// vitest) stops at it ("Could not resolve ... imported by chronograph").
// In Node a peer is looked up from the application first (its entry module,
// `process.argv[1]`, then the working directory), then beside the package:
// the application's copy is the one its own code imports, so its classes
// are the ones the application's values are instances of. Elsewhere (a
// browser, a bundle) the bare specifier is left to the bundler or the page's
// import map.

/** A minimal `require` (the package has no `@types/node` dependency). */
interface NodeRequire {
  (id: string): unknown;
  resolve(id: string): string;
}

/** Whether a process-wide switch turns the peers off (`CHRONOGRAPH_LANGCHAIN=off`, for benchmarks and tests). */
export function peersSwitchedOff(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.CHRONOGRAPH_LANGCHAIN === "off";
}

/**
 * The module `pkg` exports at `subpath` (`"."`, `"./messages"`), or
 * `undefined` when it cannot be found: in Node from the application first
 * (see `bases`), else by its bare specifier. The specifier is a variable,
 * so that bundlers do not require the packages at build time.
 */
export async function importPeer(pkg: string, subpath: string): Promise<unknown> {
  const file = peerEntry(pkg, subpath);
  if (file !== undefined) {
    try {
      return await import(/* @vite-ignore */ /* webpackIgnore: true */ file);
    } catch {
      // Found but not loadable here: try the bare specifier.
    }
  }
  const specifier = subpath === "." ? pkg : `${pkg}/${subpath.slice(2)}`;
  try {
    return await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
  } catch {
    return undefined;
  }
}

/** The file URL of the ES module `pkg` exports at `subpath`, as the application resolves it (Node only), or `undefined`. */
function peerEntry(pkg: string, subpath: string): string | undefined {
  const node = nodeModules();
  const manifest = peerManifest(pkg);
  if (node === undefined || manifest === undefined) return undefined;
  try {
    const exported = (node.module.createRequire(manifest)(manifest) as { exports?: Record<string, unknown> }).exports?.[subpath];
    const file = esmEntry(exported);
    return file === undefined ? undefined : new URL(file, node.url.pathToFileURL(manifest)).href;
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

/** What the synchronous lookups need of Node: `process.getBuiltinModule` (Node 20.16+). */
interface NodeProcess {
  getBuiltinModule?(id: string): unknown;
  argv?: string[];
  cwd?(): string;
}

/** Node's `module` and `url`, when `process.getBuiltinModule` gives them synchronously. */
function nodeModules(): { module: { createRequire(from: string): NodeRequire }; url: { pathToFileURL(p: string): URL; fileURLToPath(u: URL): string } } | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  const module = proc?.getBuiltinModule?.("module") as { createRequire(from: string): NodeRequire } | undefined;
  const url = proc?.getBuiltinModule?.("url") as { pathToFileURL(p: string): URL; fileURLToPath(u: URL): string } | undefined;
  return module && url ? { module, url } : undefined;
}

/**
 * Where a peer is looked up from: `from` when given, else the application
 * (its entry module, then the working directory), then beside the package.
 */
function bases(from?: string): string[] {
  if (from !== undefined) return [from];
  const proc = (globalThis as { process?: NodeProcess }).process;
  return [proc?.argv?.[1], `${proc?.cwd?.() ?? "."}/`, import.meta.url].filter((b): b is string => typeof b === "string" && b !== "");
}

/** The `package.json` path of `pkg` as seen from `from` (see `bases`; Node only), or `undefined`. */
export function peerManifest(pkg: string, from?: string): string | undefined {
  const node = nodeModules();
  if (node === undefined) return undefined;
  for (const base of bases(from)) {
    try {
      return node.module.createRequire(base).resolve(`${pkg}/package.json`);
    } catch {
      // Try the next place.
    }
  }
  return undefined;
}

/**
 * The module `pkg` exports at `subpath`, loaded synchronously (Node only,
 * where `require` loads an ES module: Node 20.19+, 22.12+), or `undefined`.
 * The ES module entry is the one `import()` loads, so the module is the
 * same instance an application imports. Looked up from `from` when given
 * (a file path or URL), else as `bases` says.
 */
export function requirePeer(pkg: string, subpath: string, from?: string): unknown {
  const node = nodeModules();
  const manifest = peerManifest(pkg, from);
  if (node === undefined || manifest === undefined) return undefined;
  try {
    const require = node.module.createRequire(manifest);
    const file = esmEntry((require(manifest) as { exports?: Record<string, unknown> }).exports?.[subpath]);
    return file ? require(node.url.fileURLToPath(new URL(file, node.url.pathToFileURL(manifest)))) : undefined;
  } catch {
    // This Node cannot `require` an ES module, or the module failed to load.
    return undefined;
  }
}

/**
 * A CommonJS peer (a driver: `better-sqlite3`), `require`d as `bases`
 * says (Node only); `undefined` when it is found nowhere. An error of the
 * module itself (a native addon built for another Node) is thrown.
 */
export function requireDriver(id: string): unknown {
  const node = nodeModules();
  if (node === undefined) return undefined;
  for (const base of bases()) {
    let require: NodeRequire;
    try {
      require = node.module.createRequire(base);
      require.resolve(id);
    } catch {
      continue;
    }
    return require(id);
  }
  return undefined;
}

/**
 * `@langchain/langgraph-checkpoint` (LangGraph.js's checkpoint package),
 * when installed: looked up once, at import; `undefined` without it or
 * with the peers switched off. Its `InMemoryStore` is the package's
 * (checkpoint/store.ts), and its `MemorySaver` keeps the storage of a `MemorySaver`
 * subclass that overrides the saver methods (checkpoint/engine_saver.ts).
 */
export const checkpointPeer = peersSwitchedOff()
  ? undefined
  : ((await importPeer("@langchain/langgraph-checkpoint", ".")) as Record<string, unknown> | undefined);
