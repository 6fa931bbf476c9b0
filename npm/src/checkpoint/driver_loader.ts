// How the persistent savers load their database drivers (sqlite_driver.ts:
// better-sqlite3, postgres_driver.ts: pg), optional peer dependencies: the
// Node entry of `chronograph/langgraph` registers a loader for each (a
// `DriverHolder`), so browser bundles never import one; a missing driver is
// named with the command that installs it.
import { unsupported } from "../graph/unsupported.js";

/**
 * The module `load` returns, for `saver` (its class name): an `UNSUPPORTED`
 * error without a loader (a browser: `why` says what the driver needs) or
 * when the module is not installed, or the loader found it nowhere and
 * returned `undefined` (saying to install `driver`).
 */
export function loadDriver(load: (() => unknown) | undefined, saver: string, driver: string, why: string): unknown {
  if (load === undefined) throw unsupported(`${saver}.fromConnString outside Node.js`, why);
  const missing = () => unsupported(`${saver} without ${driver}`, `install ${driver} (npm install ${driver}), the driver it connects with`);
  let module: unknown;
  try {
    module = load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") throw missing();
    throw error;
  }
  // The loader found it nowhere (internal/peers.ts `requireDriver`).
  if (module === undefined) throw missing();
  return module;
}

/**
 * One optional driver: the loader the Node entry registers, and what the
 * saver uses of the module (`pick`: its class), loaded on first `get`.
 */
export class DriverHolder<T> {
  #load: (() => unknown) | undefined;
  #loaded: T | undefined;

  /** `saver`, `driver` and `why` as `loadDriver` takes them; `pick` finds the class in the loaded module (or throws). */
  constructor(
    private readonly saver: string,
    private readonly driver: string,
    private readonly why: string,
    private readonly pick: (module: unknown) => T,
  ) {}

  /** Registers how the module is loaded (the Node entry does, at import): the module, `undefined` when it is not installed. */
  register(load: () => unknown): void {
    this.#load = load;
  }

  /** What the saver uses of the driver, loaded on the first call; an error naming what to install when it is missing. */
  get(): T {
    this.#loaded ??= this.pick(loadDriver(this.#load, this.saver, this.driver, this.why));
    return this.#loaded;
  }
}
