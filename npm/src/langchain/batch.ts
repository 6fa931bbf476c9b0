// LangChain's `Runnable.batch` for compiled graphs: several runs at once.
import { plainError } from "../errors.js";
import { argumentError, describe, isArray, option } from "../internal/args.js";
import type { RunnableConfig } from "../pregel/types.js";

/**
 * Runs `invoke(inputs[i], configs[i])` for every input, at most
 * `maxConcurrency` at a time (the first config's, else `options`'), and
 * resolves to the results in input order, as LangChain's `Runnable.batch`:
 * one config for all, or one per input (LangChain's error when the counts
 * differ); with `returnExceptions`, a failed run's error takes its place
 * instead of rejecting the batch.
 */
export async function batchRuns<I, O>(
  invoke: (input: I, config: RunnableConfig | undefined) => Promise<O>,
  inputs: I[],
  configs: RunnableConfig | RunnableConfig[] | undefined,
  options: { maxConcurrency?: number; returnExceptions?: boolean } | undefined,
): Promise<(O | Error)[]> {
  if (!isArray(inputs)) throw argumentError(`batch(inputs, configs): inputs must be an array, got ${describe(inputs)}`);
  if (isArray(configs) && configs.length !== inputs.length) {
    throw plainError(
      `Passed "options" must be an array with the same length as the inputs, but got ${configs.length} options for ${inputs.length} inputs`,
      "INVALID_ARGUMENT",
    );
  }
  const configOf = (i: number): RunnableConfig | undefined => (isArray(configs) ? configs[i] : configs);
  const limit = option(configOf(0), "maxConcurrency", "batch(inputs, configs): configs[0]") ?? option(options, "maxConcurrency", "batch(inputs, configs, options): options");
  if (limit !== undefined && (typeof limit !== "number" || !(limit >= 1))) {
    throw argumentError(`batch(inputs, configs): maxConcurrency must be a number >= 1, got ${describe(limit)}`);
  }
  const returnExceptions = option(options, "returnExceptions", "batch(inputs, configs, options): options") === true;
  const results: (O | Error)[] = new Array(inputs.length);
  let next = 0;
  // Each worker takes the next input until none is left: `limit` runs in flight at most.
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const i = next++;
      try {
        results[i] = await invoke(inputs[i]!, configOf(i));
      } catch (e) {
        if (!returnExceptions) throw e;
        results[i] = e as Error;
      }
    }
  };
  const workers = Math.min(inputs.length, (limit as number | undefined) ?? inputs.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
