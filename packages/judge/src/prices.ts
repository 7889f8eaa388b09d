// The bundled price table: USD per one million tokens for well-known hosted models, as the providers
// published them on PRICES_AS_OF. Prices change; a stale entry is a wrong cost, so users override or
// extend the table (`setModelPrices`, or a judge's `prices` / `price` option, which win over it).
// A model not in the table has an unknown cost (null), never 0.
import { checkPriceTable, type ModelPrice, type PriceTable } from "./usage.js";

/** The date the bundled prices were taken from the providers' price pages. */
export const PRICES_AS_OF = "2025-08-15";

/**
 * OpenAI's list prices (standard tier, USD per 1M tokens) on {@link PRICES_AS_OF}. `cachedInputPerMTok`
 * is the price of prompt tokens served from OpenAI's prompt cache.
 */
export const BUNDLED_PRICES: PriceTable = Object.freeze({
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4, cachedInputPerMTok: 0.005 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  "gpt-4-turbo": { inputPerMTok: 10, outputPerMTok: 30 },
  "gpt-4": { inputPerMTok: 30, outputPerMTok: 60 },
  "gpt-3.5-turbo": { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  o1: { inputPerMTok: 15, outputPerMTok: 60, cachedInputPerMTok: 7.5 },
  "o1-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.55 },
  o3: { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  "o3-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.55 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.275 },
  // embeddings are priced by input tokens only
  "text-embedding-3-small": { inputPerMTok: 0.02, outputPerMTok: 0 },
  "text-embedding-3-large": { inputPerMTok: 0.13, outputPerMTok: 0 },
  "text-embedding-ada-002": { inputPerMTok: 0.1, outputPerMTok: 0 },
  // OpenAI's moderation models are free
  "omni-moderation-latest": { inputPerMTok: 0, outputPerMTok: 0 },
  "text-moderation-latest": { inputPerMTok: 0, outputPerMTok: 0 },
});

let overrides: PriceTable = Object.freeze({});
let useBundled = true;

/**
 * Extend or override the prices every judge falls back to. Entries are merged over earlier ones;
 * `{ replace: true }` drops the earlier user entries first; `{ bundled: false }` stops using the
 * bundled table (then only your entries price anything).
 *
 * @example
 * setModelPrices({ "my-finetune": { inputPerMTok: 3, outputPerMTok: 12 } });
 */
export function setModelPrices(table: PriceTable, options: { replace?: boolean; bundled?: boolean } = {}): void {
  checkPriceTable(table, "table");
  overrides = Object.freeze({ ...(options.replace ? {} : overrides), ...table });
  if (options.bundled !== undefined) useBundled = options.bundled;
}

/** Back to the bundled table only (for tests). */
export function resetModelPrices(): void {
  overrides = Object.freeze({});
  useBundled = true;
}

/** The table in effect: the bundled prices (unless turned off) overlaid by `setModelPrices` entries. */
export function modelPrices(): PriceTable {
  return useBundled ? Object.freeze({ ...BUNDLED_PRICES, ...overrides }) : overrides;
}

const DATED_SNAPSHOT = /^-\d{4}-\d{2}-\d{2}$/;

/**
 * The price of `model` from the table in effect: an exact name, or a dated snapshot of one
 * (`gpt-4o-2024-08-06` → `gpt-4o`). Unlike a judge's own `prices`, no looser prefix match: a bundled
 * `gpt-4` must not price an unknown `gpt-4.5-preview`. Undefined when unknown.
 */
export function knownPrice(...models: readonly (string | undefined)[]): ModelPrice | undefined {
  const table = modelPrices();
  for (const model of models) {
    if (!model) continue;
    const name = model;
    if (Object.prototype.hasOwnProperty.call(table, name)) return table[name];
    const snapshot = name.match(/^(.*)(-\d{4}-\d{2}-\d{2})$/);
    if (snapshot && DATED_SNAPSHOT.test(snapshot[2] as string) && Object.prototype.hasOwnProperty.call(table, snapshot[1] as string)) {
      return table[snapshot[1] as string];
    }
  }
  return undefined;
}
