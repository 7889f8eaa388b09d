// One concurrency limiter per run: every judge call of every metric passes through it, so nested fan-out
// (per-node calls inside a metric, metrics in parallel) can never exceed the limit.
import { JudgeAbortedError, JudgeConfigError } from "./errors.js";

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * A FIFO semaphore for in-flight requests.
 *
 * When to use: share one instance between every judge (and so every metric) of a run, e.g.
 * `new OpenAICompatibleJudge({ limiter })` for several models behind one endpoint.
 *
 * Details: a slot is held only while an HTTP request is in flight — not while backing off between
 * retries — so a waiting retry never blocks other calls.
 *
 * @example
 * const limiter = new ConcurrencyLimiter(4);
 * await Promise.all(items.map((x) => limiter.run(() => fetchSomething(x))));
 */
export class ConcurrencyLimiter {
  readonly maxConcurrency: number;
  private active = 0;
  private peak = 0;
  private readonly queue: Waiter[] = [];

  constructor(maxConcurrency: number) {
    if (typeof maxConcurrency !== "number" || !Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
      throw new JudgeConfigError("maxConcurrency must be a positive integer", {
        argument: "maxConcurrency",
        expected: "an integer >= 1",
        actual: String(maxConcurrency),
      });
    }
    this.maxConcurrency = maxConcurrency;
  }

  /** Requests running now. */
  get running(): number {
    return this.active;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** The highest `running` seen. */
  get peakRunning(): number {
    return this.peak;
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new JudgeAbortedError(undefined, { cause: signal.reason }));
    if (this.active < this.maxConcurrency) {
      this.active++;
      if (this.active > this.peak) this.peak = this.active;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(new JudgeAbortedError(undefined, { cause: signal.reason }));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) {
      if (next.signal && next.onAbort) next.signal.removeEventListener("abort", next.onAbort);
      // The slot passes straight to the next waiter: `active` stays the same.
      next.resolve();
    } else {
      this.active--;
    }
  }

  /** Run `task` once a slot is free; the slot is released when it settles. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
