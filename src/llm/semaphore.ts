/** The cap on LLM calls in flight in this process (LLM_MAX_CONCURRENT). */

interface Limiter {
  size: number;
  active: number;
  waiting: (() => void)[];
}

/** One per process; its size follows the settings of the latest call. */
const limiter: Limiter = { size: 1, active: 0, waiting: [] };

function limiterFor(size: number): Limiter {
  limiter.size = size;
  return limiter;
}

/** Runs `task` once fewer than `size` calls are in flight; a call waiting is dropped when `signal` aborts. */
export async function withSlot<T>(size: number, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
  const l = limiterFor(size);
  if (l.active >= l.size) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = l.waiting.indexOf(go);
        if (at >= 0) l.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      l.waiting.push(go);
    });
  } else {
    l.active++;
  }
  try {
    return await task();
  } finally {
    const next = l.waiting.shift();
    // The slot passes straight to the next caller; otherwise it is freed.
    if (next) next();
    else l.active--;
  }
}

/** Calls in flight right now (tests). */
export function llmCallsInFlight(): number {
  return limiter.active;
}
