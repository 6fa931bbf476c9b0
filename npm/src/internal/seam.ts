// The seam: the one module where the TypeScript layer asserts a type it
// cannot prove (`as unknown as`). Everywhere else values are typed by what
// produced them: the bindings' declarations (core/wasm/src: a
// `typescript_custom_section` next to each Rust data type, which every
// export's arguments and results name), LangGraph.js's and LangChain's own
// types, and the package's. Each function here says why its assertion
// holds; a new one needs as good a reason. (They are identities: V8 inlines
// them, so `builtNodeConfig` on the node-call path costs nothing.)
import type { NodeConfig } from "../pregel/types.js";

/**
 * A node function (a task's, an entrypoint's, an error handler's) as the
 * package calls it: with whatever state and config the engine hands it.
 * Its parameter types are its author's declaration (a `UserNode` takes
 * `never`), which LangGraph.js does not check either: it calls nodes with
 * the state and config of the run.
 */
export function nodeCall(fn: (state: never, config: never) => unknown): (this: unknown, state: unknown, config: unknown) => unknown {
  return fn as (this: unknown, state: unknown, config: unknown) => unknown;
}

/**
 * A value the caller gave, handed on unchecked to the bindings, typed as
 * what they take: they validate it and throw the `TypeError` (code
 * `INVALID_ARGUMENT`) that names it, so the package's errors are the
 * engine's own texts.
 */
export function checkedByEngine<T>(value: unknown): T {
  return value as T;
}

/**
 * A LangChain message instance (`@langchain/core`'s) as the caller's
 * message type: once a graph found `@langchain/core` installed, the
 * messages of its state are instances (LangGraph.js's are too), whatever
 * type the caller declared for them.
 */
export function asMessage<M>(instance: object): M {
  return instance as unknown as M;
}

/**
 * A class standing in for one of an optional peer (a package the caller
 * did not install): its constructor throws the error that names the peer,
 * so no instance of the type it is declared as is ever made.
 */
export function peerStandIn<C>(cls: abstract new () => object): C {
  return cls as unknown as C;
}

/**
 * A node's config as the package builds it, key by key (in LangGraph.js's
 * order, and so that V8 keeps it a fast object: pregel/node_config.ts):
 * every field of `NodeConfig` is set, which TypeScript cannot follow.
 */
export function builtNodeConfig(config: Record<string | symbol, unknown>): NodeConfig {
  return config as unknown as NodeConfig;
}

/**
 * A value seen through another declaration of the same implementation:
 * LangGraph.js's overloads and generic signatures (`new StateGraph<S>(...)`,
 * `entrypoint<I, O>(...)`) over one implementation with an untyped
 * signature, or that implementation behind the overloads (a method called
 * with the arguments another one was given), which TypeScript cannot
 * check against each other.
 */
export function declaredAs<T>(implementation: object): T {
  return implementation as unknown as T;
}
