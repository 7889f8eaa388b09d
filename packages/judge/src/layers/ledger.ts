// The ledger layer, a wrapper around any call: books it in a `UsageLedger` when it settles — its usage and
// whether it was served from the cache, or the usage its failure spent (docs/spec/judges.md §10.5).
import { JudgeError, errorString } from "../errors.js";
import type { JudgeUsage } from "../model.js";
import { ZERO_USAGE, type UsageLedger } from "../usage.js";

/** How a call is filed. */
export interface LedgerTag {
  readonly metric: string | undefined;
  readonly model: string;
  readonly endpoint: "chat" | "completions" | "embeddings" | "moderations";
}

/** Failures already booked, per ledger: identical concurrent calls share one failure, booked once. */
const bookedFailures = new WeakMap<UsageLedger, WeakSet<object>>();

/** `task` booked in `ledger` under `tag`, success or failure. */
export async function booked<R extends { readonly usage: JudgeUsage; readonly cached: boolean }>(
  ledger: UsageLedger,
  tag: LedgerTag,
  task: () => Promise<R>,
): Promise<R> {
  let result: R;
  try {
    result = await task();
  } catch (error) {
    if (typeof error === "object" && error !== null) {
      const seen = bookedFailures.get(ledger) ?? new WeakSet<object>();
      bookedFailures.set(ledger, seen);
      if (seen.has(error)) throw error;
      seen.add(error);
    }
    const usage = JudgeError.isInstance(error) && error.usage ? error.usage : { ...ZERO_USAGE };
    ledger.record({ ...tag, usage, cached: false, ok: false, error: errorString(error) });
    throw error;
  }
  ledger.record({ ...tag, usage: result.usage, cached: result.cached, ok: true });
  return result;
}
