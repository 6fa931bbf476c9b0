// `stream()`'s result: the chunks a run pushes, as an async iterator that
// ends with the run (and rethrows its failure).

/** An async iterator over the chunks `start(push)` pushes, ending when its Promise settles. */
export function chunkIterator<T>(start: (push: (chunk: T) => void) => Promise<unknown>): AsyncIterableIterator<T> {
  const queue: (T | undefined)[] = [];
  let head = 0;
  let finished = false;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  let started: Promise<unknown>;
  try {
    started = start((chunk) => {
      if (!finished) queue.push(chunk);
      notify();
    });
  } catch (e) {
    started = Promise.reject(e);
  }
  started.then(
    () => {
      finished = true;
      notify();
    },
    (error: unknown) => {
      // Ended by `return()` (or `cancel()`): what the run does after that is not the caller's.
      if (finished) return;
      failure = { error };
      finished = true;
      notify();
    },
  );
  return {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (head < queue.length) {
          const value = queue[head] as T;
          queue[head++] = undefined;
          return { value, done: false };
        }
        if (failure) {
          const { error } = failure;
          failure = null;
          throw error;
        }
        if (finished) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<T>> {
      finished = true;
      queue.length = head = 0;
      // A `next()` waiting for a chunk (a `cancel()` from elsewhere) ends too.
      notify();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
