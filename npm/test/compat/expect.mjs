// A small vitest-compatible `describe` / `it` / `expect` / `vi.fn` for the ported LangGraph.js
// tests (npm/test/compat/ported/), so their bodies stay as LangGraph.js wrote them. Semantics
// follow vitest: toEqual ignores undefined properties and class identity, toStrictEqual does
// not; toMatchObject is a recursive subset; asymmetric matchers (expect.any,
// objectContaining, arrayContaining, stringMatching, stringContaining, anything); the
// interrupt matchers of libs/langgraph-core/src/tests/matchers/interrupt.ts
// (toBeInterrupted, toHaveInterruptValue) use the engine's own INTERRUPT / isInterrupted.

import { inspect, format } from "node:util";

class Asymmetric {
  constructor(name, test) {
    this.name = name;
    this.test = test;
  }
  [inspect.custom]() {
    return this.name;
  }
  toJSON() {
    return this.name;
  }
}

export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
    this.matcherResult = true;
  }
}

const show = (v) => inspect(v, { depth: 6, breakLength: 120, maxArrayLength: 30, maxStringLength: 300 });

function isPlainish(v) {
  return v !== null && typeof v === "object";
}

/** vitest `equals`: strict adds class identity, undefined-vs-absent and sparseness checks. */
export function equals(a, b, strict = false) {
  if (b instanceof Asymmetric) return b.test(a);
  if (a instanceof Asymmetric) return a.test(b);
  // jest-style asymmetric matchers (tests' own, e.g. utils.ts's AnyStringSame)
  if (typeof b?.asymmetricMatch === "function") return b.asymmetricMatch(a);
  if (typeof a?.asymmetricMatch === "function") return a.asymmetricMatch(b);
  if (Object.is(a, b)) return true;
  if (!isPlainish(a) || !isPlainish(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && b instanceof Error) return a.message === b.message && (!strict || a.name === b.name);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !equals(v, b.get(k), strict)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (![...b].some((w) => equals(v, w, strict))) return false;
    return true;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i], strict)) return false;
    return true;
  }
  const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) && !(b[k] instanceof Asymmetric)) return false;
    if (!equals(a[k], b[k], strict)) return false;
  }
  return true;
}

/** vitest toMatchObject: every property of `expected` is in `actual` (recursively). */
function matchesObject(actual, expected) {
  if (expected instanceof Asymmetric) return expected.test(actual);
  if (!isPlainish(expected) || !isPlainish(actual)) return equals(actual, expected);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e, i) => matchesObject(actual[i], e));
  }
  for (const k of Object.keys(expected)) {
    if (!(k in Object(actual))) return false;
    if (!matchesObject(actual[k], expected[k])) return false;
  }
  return true;
}

function throwsMatch(err, expected) {
  if (expected === undefined) return true;
  const message = err?.message ?? String(err);
  if (typeof expected === "string") return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === "function") return err instanceof expected;
  if (expected instanceof Error) return message === expected.message;
  if (expected instanceof Asymmetric) return expected.test(err);
  if (isPlainish(expected)) return matchesObject(err, expected);
  return false;
}

const custom = {};

function matchers(actual, negate, label, interruptOf) {
  let current = "";
  const check = (pass, message) => {
    if (pass === negate) throw new AssertionError(`${label}${negate ? ".not" : ""}.${current}: ${message()}`);
  };
  const m = {
    toBe: (e) => check(Object.is(actual, e), () => `expected ${show(actual)} to be ${show(e)}`),
    toEqual: (e) => check(equals(actual, e), () => `expected ${show(actual)} to equal ${show(e)}`),
    toStrictEqual: (e) => check(equals(actual, e, true), () => `expected ${show(actual)} to strictly equal ${show(e)}`),
    toMatchObject: (e) => check(matchesObject(actual, e), () => `expected ${show(actual)} to match object ${show(e)}`),
    toContain: (e) =>
      check(
        typeof actual === "string" ? actual.includes(e) : actual != null && [...actual].some((x) => Object.is(x, e)),
        () => `expected ${show(actual)} to contain ${show(e)}`,
      ),
    toContainEqual: (e) =>
      check(actual != null && [...actual].some((x) => equals(x, e)), () => `expected ${show(actual)} to contain equal ${show(e)}`),
    toBeDefined: () => check(actual !== undefined, () => `expected ${show(actual)} to be defined`),
    toBeUndefined: () => check(actual === undefined, () => `expected ${show(actual)} to be undefined`),
    toBeNull: () => check(actual === null, () => `expected ${show(actual)} to be null`),
    toBeTruthy: () => check(!!actual, () => `expected ${show(actual)} to be truthy`),
    toBeFalsy: () => check(!actual, () => `expected ${show(actual)} to be falsy`),
    toBeGreaterThan: (e) => check(actual > e, () => `expected ${show(actual)} > ${show(e)}`),
    toBeGreaterThanOrEqual: (e) => check(actual >= e, () => `expected ${show(actual)} >= ${show(e)}`),
    toBeLessThan: (e) => check(actual < e, () => `expected ${show(actual)} < ${show(e)}`),
    toBeLessThanOrEqual: (e) => check(actual <= e, () => `expected ${show(actual)} <= ${show(e)}`),
    toBeInstanceOf: (c) => check(actual instanceof c, () => `expected ${show(actual)} to be an instance of ${c?.name}`),
    toHaveLength: (n) => check(actual?.length === n, () => `expected length ${n}, got ${actual?.length} (${show(actual)})`),
    toHaveProperty: (p, ...v) => {
      const path = Array.isArray(p) ? p : String(p).split(".");
      let cur = actual;
      let has = true;
      for (const k of path) {
        if (cur == null || !(k in Object(cur))) { has = false; break; }
        cur = cur[k];
      }
      check(has && (v.length === 0 || equals(cur, v[0])), () => `expected ${show(actual)} to have property ${p}${v.length ? ` = ${show(v[0])}` : ""}`);
    },
    toMatch: (e) => check(typeof e === "string" ? actual.includes(e) : e.test(actual), () => `expected ${show(actual)} to match ${e}`),
    toThrow: (e) => {
      let threw = false;
      let err;
      try {
        actual();
      } catch (x) {
        threw = true;
        err = x;
      }
      check(threw && throwsMatch(err, e), () => (threw ? `expected error ${show(err)} to match ${show(e)}` : `expected function to throw`));
    },
    toHaveBeenCalled: () => check(actual.mock.calls.length > 0, () => `expected mock to have been called`),
    toHaveBeenCalledTimes: (n) => check(actual.mock.calls.length === n, () => `expected ${n} calls, got ${actual.mock.calls.length}`),
    toHaveBeenCalledWith: (...args) =>
      check(actual.mock.calls.some((c) => equals(c, args)), () => `expected a call with ${show(args)}; calls: ${show(actual.mock.calls)}`),
    toBeInterrupted: () => {
      const { isInterrupted } = interruptOf();
      check(isInterrupted(actual), () => `expected value ${show(actual)} to be interrupted`);
    },
    toHaveInterruptValue: (e) => {
      const { isInterrupted, INTERRUPT } = interruptOf();
      const pass = isInterrupted(actual) && actual[INTERRUPT][0]?.value === e;
      check(pass, () => `expected interrupted result with value ${show(e)}, got ${show(actual)}`);
    },
  };
  m.toThrowError = m.toThrow;
  for (const [name, fn] of Object.entries(custom)) {
    m[name] = (...args) => {
      const r = fn.call({ isNot: negate, equals }, actual, ...args);
      check(r.pass, () => (typeof r.message === "function" ? r.message() : String(r.message)));
    };
  }
  for (const [name, fn] of Object.entries(m)) {
    m[name] = (...args) => {
      current = name;
      return fn(...args);
    };
  }
  return m;
}

/** Builds the vitest-like API for one engine `lg` (the interrupt matchers use its names). */
export function makeExpect(lg) {
  const interruptOf = () => ({
    INTERRUPT: lg.INTERRUPT ?? "__interrupt__",
    isInterrupted:
      lg.isInterrupted ??
      ((v) => {
        throw new AssertionError("the engine exports no isInterrupted (LangGraph.js exports it from @langchain/langgraph)");
      }),
  });
  const expect = (actual, label = "expect") => {
    const api = matchers(actual, false, label, interruptOf);
    api.not = matchers(actual, true, label, interruptOf);
    const later = (negate) =>
      new Proxy(
        {},
        {
          get: (_, name) => async (...args) => {
            let value;
            let threw = false;
            try {
              value = await (typeof actual === "function" ? actual() : actual);
            } catch (e) {
              threw = true;
              value = e;
            }
            if (negate === "rejects") {
              if (!threw) throw new AssertionError(`expect(promise).rejects.${String(name)}: promise resolved to ${show(value)}`);
              if (name === "toThrow" || name === "toThrowError") {
                if (!throwsMatch(value, args[0])) throw new AssertionError(`expect(promise).rejects.${name}: error ${show(value)} does not match ${show(args[0])}`);
                return;
              }
              return matchers(value, false, "expect(promise).rejects", interruptOf)[name](...args);
            }
            if (threw) throw new AssertionError(`expect(promise).resolves.${String(name)}: promise rejected with ${show(value)}`);
            return matchers(value, false, "expect(promise).resolves", interruptOf)[name](...args);
          },
        },
      );
    api.rejects = later("rejects");
    api.resolves = later("resolves");
    return api;
  };
  expect.any = (c) =>
    new Asymmetric(`Any<${c?.name}>`, (v) =>
      c === String ? typeof v === "string" || v instanceof String
      : c === Number ? typeof v === "number" || v instanceof Number
      : c === Boolean ? typeof v === "boolean"
      : c === Function ? typeof v === "function"
      : c === Object ? v !== null && typeof v === "object"
      : v instanceof c,
    );
  expect.anything = () => new Asymmetric("Anything", (v) => v !== null && v !== undefined);
  expect.objectContaining = (o) => new Asymmetric(`ObjectContaining ${show(o)}`, (v) => isPlainish(v) && Object.keys(o).every((k) => k in v && equals(v[k], o[k])));
  expect.arrayContaining = (a) => new Asymmetric(`ArrayContaining ${show(a)}`, (v) => Array.isArray(v) && a.every((x) => v.some((y) => equals(y, x))));
  expect.stringMatching = (r) => new Asymmetric(`StringMatching ${r}`, (v) => typeof v === "string" && (typeof r === "string" ? new RegExp(r) : r).test(v));
  expect.stringContaining = (s) => new Asymmetric(`StringContaining ${show(s)}`, (v) => typeof v === "string" && v.includes(s));
  expect.soft = expect;
  expect.extend = (ms) => Object.assign(custom, ms);
  // vitest's expect.poll(fn, { timeout, interval }).matcher(...): retries until it passes.
  expect.poll = (fn, { timeout = 1000, interval = 50 } = {}) =>
    new Proxy(
      {},
      {
        get: (_, name) => async (...args) => {
          const deadline = Date.now() + timeout;
          for (;;) {
            try {
              return matchers(await fn(), false, "expect.poll", interruptOf)[name](...args);
            } catch (err) {
              if (Date.now() > deadline) throw err;
              await new Promise((r) => setTimeout(r, interval));
            }
          }
        },
      },
    );
  return expect;
}

export const vi = {
  fn(impl = () => undefined) {
    const mock = { calls: [], results: [] };
    const f = function (...args) {
      mock.calls.push(args);
      const r = impl.apply(this, args);
      mock.results.push({ type: "return", value: r });
      return r;
    };
    f.mock = mock;
    f.mockImplementation = (g) => {
      impl = g;
      return f;
    };
    return f;
  },
};

/**
 * Collects the `it`s of a ported file. `register(lg, api)` is the file's default export;
 * it calls describe/it as the original did. Returns [{ name, fn, skip }] where name is
 * "describe > ... > it".
 */
export function collect(register, lg) {
  const cases = [];
  const stack = [];
  const beforeEach = [];
  const describe = (name, body) => {
    stack.push(name);
    beforeEach.push([]);
    body();
    beforeEach.pop();
    stack.pop();
  };
  describe.skip = () => {};
  describe.each = (rows) => (name, body) => rows.forEach((row) => describe(fmt(name, row), () => body(...[].concat(row))));
  const seen = new Map();
  // Two tests with one name (pregel.test.ts has some) get " (2)", " (3)", ... in order.
  const unique = (full) => {
    const n = (seen.get(full) ?? 0) + 1;
    seen.set(full, n);
    return n === 1 ? full : `${full} (${n})`;
  };
  const it = (name, fn) => {
    const hooks = beforeEach.flat();
    cases.push({
      name: unique([...stack, name].join(" > ")),
      fn: async () => {
        for (const h of hooks) await h();
        await fn();
      },
    });
  };
  it.skip = (name) => cases.push({ name: unique([...stack, name].join(" > ")), skip: true });
  it.each = (rows) => (name, fn) => rows.forEach((row) => it(fmt(name, row), () => fn(...[].concat(row))));
  const api = {
    describe,
    it,
    test: it,
    expect: makeExpect(lg),
    vi,
    beforeEach: (h) => beforeEach[beforeEach.length - 1]?.push(h),
    beforeAll: () => {},
    afterEach: () => {},
    afterAll: () => {},
  };
  register(lg, api);
  return cases;
}

function fmt(name, row) {
  let i = 0;
  const args = [].concat(row);
  return name.replace(/%[sdjop]/g, (m) => (m === "%p" ? inspect(args[i++]) : format(m, args[i++]))).replace(/\$(\w+)/g, (m, k) => (isPlainish(row) && k in row ? String(row[k]) : m));
}
