// Whether a node function can see the config it is called with. Making a
// node's config as LangGraph.js makes it (pregel/node_config.ts) is a good part of
// what a JS node call costs, and most nodes are written `(state) => ...`:
// for a function that provably never sees its second argument the config
// is made only when something asks for it (`getConfig()`, `interrupt()`,
// `getStore()`, ...: pregel/runtime.ts `wrapNode`). Provably: the answer comes from
// the function's own source text, and every doubt answers "it can see it".

/** The source text of `fn`, or `undefined` when it has none to read (a bound or native function, a Proxy). */
function sourceOf(fn: Function): string | undefined {
  let text: string;
  try {
    text = Function.prototype.toString.call(fn);
  } catch {
    return undefined;
  }
  return text.includes("[native code]") ? undefined : text;
}

/** A JS identifier, alone: the parameter of `state => ...`. */
const BARE_PARAMETER = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]*\s*=>/u;

/**
 * Whether `fn` cannot see a second argument: at most one declared
 * parameter, without a default or a rest (`fn.length` does not count
 * those), and no `arguments` anywhere in its text. A function whose text
 * cannot be read (bound, native, a Proxy), a parameter list with a comment,
 * a string or a computed name in it, or any other form the scan below does
 * not know, counts as one that can.
 */
export function ignoresConfig(fn: Function): boolean {
  if (typeof fn !== "function" || fn.length > 1) return false;
  const text = sourceOf(fn);
  if (text === undefined || /\barguments\b/.test(text)) return false;
  const head = text.replace(/^async\s+/, "");
  if (head.startsWith("class")) return false;
  if (BARE_PARAMETER.test(head)) return true;
  const open = head.indexOf("(");
  // `function name(`, `function* name(`, `(`, or a method's `name(`; a computed name (`[k](`) is not scanned.
  if (open < 0 || head.slice(0, open).includes("[")) return false;
  return singleSimpleParameter(head, open);
}

/**
 * Whether the parameter list opening at `text[open]` declares at most one
 * parameter with no default, rest, comment or string in it (destructuring
 * braces and brackets are fine: their commas are not the list's).
 */
function singleSimpleParameter(text: string, open: number): boolean {
  let depth = 0;
  let parameters = 0;
  let seen = false;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === "=" || c === "." || c === "/" || c === "'" || c === '"' || c === "`") return false;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === ")") {
      if (depth === 0) return parameters + (seen ? 1 : 0) <= 1;
      depth--;
    } else if (c === "," && depth === 0) {
      parameters += seen ? 1 : 0;
      seen = false;
    } else if (!/\s/.test(c)) seen = true;
  }
  return false;
}
