// DSPy's ParallelExecutor (dspy/utils/parallelizer.py) for async work: at most `concurrency` items in
// flight, and straggler resubmission — once no more than `stragglerLimit` attempts are still pending
// (queued or running), an attempt running for `timeoutMs` or longer is started again, once per item, and
// the first attempt to succeed wins. With `concurrency` 1 DSPy runs sequentially and never resubmits; so
// does this.
//
// A slot is held by an item until it settles, so an attempt that lost to its duplicate and never returns
// holds none. Differences, on purpose: a duplicate does not wait for a free slot (DSPy's goes into the same thread
// pool, where it may queue behind the stragglers it is meant to overtake; an async call holds no thread),
// so a run has at most `stragglerLimit` calls beyond `concurrency`; and a failed attempt fails its item
// only when no other attempt of that item is still running (DSPy leaves the row open too, but counts the
// error at once).

/** What one attempt of an item gives: `failed` marks an outcome that loses to a later success. */
export interface Attempt<T> {
  readonly outcome: T;
  readonly failed: boolean;
}

export interface ParallelOptions<T> {
  /** Items in flight at once (≥ 1). */
  readonly concurrency: number;
  /** Milliseconds after which a running attempt is a straggler; `null` or 0 turns resubmission off. */
  readonly timeoutMs: number | null;
  /** Resubmit only once at most this many attempts are pending (DSPy's `straggler_limit`, default 3). */
  readonly stragglerLimit: number;
  /** Checked before an item starts: true stops starting new items (running ones still settle). */
  readonly shouldStop: () => boolean;
  /** Called once per item with the outcome that wins (the first success, else the last failure); not once stopping. */
  readonly onSettled: (index: number, outcome: T) => void;
  /** Clock for the straggler rule (tests may pass their own); default `Date.now`. */
  readonly now?: () => number;
}

interface Running {
  readonly index: number;
  readonly started: number;
}

/** Runs `attempt(index)` for every index below `n` as described above; resolves when every started item settled. */
export function runParallel<T>(n: number, attempt: (index: number) => Promise<Attempt<T>>, options: ParallelOptions<T>): Promise<void> {
  const now = options.now ?? Date.now;
  const stragglers = options.concurrency > 1 && options.timeoutMs !== null && options.timeoutMs > 0;
  const settled = new Uint8Array(n);
  const resubmitted = new Uint8Array(n);
  const runningPerItem = new Uint16Array(n);
  const running = new Set<Running>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let next = 0;
  let open = 0; // items started and not settled: each holds one of the `concurrency` slots until it settles

  return new Promise<void>((resolve, reject) => {
    const finishIfDone = (): void => {
      const noMore = next >= n || options.shouldStop();
      if (open === 0 && noMore) {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        resolve();
      }
    };

    const launch = (index: number): void => {
      const run: Running = { index, started: now() };
      running.add(run);
      runningPerItem[index]!++;
      if (stragglers) armStraggler(run, options.timeoutMs!);
      const done = (result: Attempt<T>): void => {
        running.delete(run);
        runningPerItem[index]!--;
        if (!settled[index] && (!result.failed || runningPerItem[index] === 0)) {
          settled[index] = 1;
          open--;
          // once the run is stopping, what was still in flight settles unseen: the run ends with an error
          // that lists what failed until then, not whatever else happened to be running
          if (!options.shouldStop()) {
            try {
              options.onSettled(index, result.outcome);
            } catch (error) {
              reject(error);
              return;
            }
          }
        }
        fill();
        checkStragglers();
        finishIfDone();
      };
      attempt(index).then(done, (error: unknown) => reject(error));
    };

    // A timer per attempt, at its timeout. A timer may fire a millisecond before the clock says the time is up
    // (timers and `now()` round differently): then it is armed again for what is left, or the straggler would
    // never be seen once nothing else settles.
    const armStraggler = (run: Running, delay: number): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        const left = options.timeoutMs! - (now() - run.started);
        if (left > 0 && running.has(run)) armStraggler(run, left + 1);
        else checkStragglers();
      }, delay);
      timers.add(timer);
    };

    const fill = (): void => {
      while (open < options.concurrency && next < n && !options.shouldStop()) {
        const index = next++;
        open++;
        launch(index);
      }
    };

    const checkStragglers = (): void => {
      if (!stragglers || options.shouldStop()) return;
      if (n - next + running.size > options.stragglerLimit) return;
      const t = now();
      for (const run of [...running]) {
        if (!settled[run.index] && !resubmitted[run.index] && t - run.started >= options.timeoutMs!) {
          resubmitted[run.index] = 1;
          launch(run.index);
        }
      }
    };

    fill();
    finishIfDone();
  });
}
