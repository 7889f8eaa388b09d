// The bundled price table: USD per one million tokens for well-known hosted models, as the providers
// published them on PRICES_AS_OF. Prices change; a stale entry is a wrong cost, so users override or
// extend the table (`setModelPrices`, or a judge's `prices` / `price` option, which win over it).
// A model not in the table has an unknown cost (null), never 0.
import { checkPriceTable, type ModelPrice, type PriceTable } from "./usage.js";

/** The date the bundled OpenAI prices were taken from OpenAI's price page. */
export const PRICES_AS_OF = "2025-08-15";

/**
 * The date each provider's bundled prices were taken from its public price page (Anthropic's model
 * pricing table; Google's Gemini API pricing page, standard tier).
 */
export const PROVIDER_PRICES_AS_OF = Object.freeze({ openai: PRICES_AS_OF, anthropic: "2026-11-28", google: "2026-11-28" });

/**
 * Anthropic's list prices (USD per 1M tokens) on {@link PROVIDER_PRICES_AS_OF}: base input, output, and
 * cache hits as `cachedInputPerMTok`. Cache writes (1.25x input for 5 minutes, 2x for an hour) are not a
 * column of the table: they are priced as input. Dated ids (`claude-sonnet-4-5-20250929`) find their
 * alias (`knownPrice`).
 */
const ANTHROPIC_PRICES: PriceTable = {
  "claude-opus-4-6": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5 },
  "claude-opus-4-5": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5 },
  "claude-opus-4-1": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  "claude-opus-4-0": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  "claude-sonnet-4-6": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-sonnet-4-5": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-sonnet-4-0": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1 },
};

/**
 * Google's Gemini API list prices (standard tier, USD per 1M tokens) on {@link PROVIDER_PRICES_AS_OF}.
 * Gemini 2.5 Pro's rate is the one for prompts up to 200k tokens (longer prompts cost more: the table
 * under-prices them). Context-cache rates were not confirmed, so cached tokens are priced as input;
 * Gemini 3 models are left out until their prices are confirmed (their cost is unknown, null).
 */
const GOOGLE_PRICES: PriceTable = {
  "gemini-2.5-pro": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "gemini-2.5-flash": { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  "gemini-2.5-flash-lite": { inputPerMTok: 0.1, outputPerMTok: 0.4 },
};

/**
 * The bundled table: OpenAI's list prices (standard tier, USD per 1M tokens) on {@link PRICES_AS_OF}, and
 * Anthropic's and Google's on {@link PROVIDER_PRICES_AS_OF}. `cachedInputPerMTok` is the price of prompt
 * tokens served from the provider's prompt cache.
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
  ...ANTHROPIC_PRICES,
  ...GOOGLE_PRICES,
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

/** OpenAI's dated snapshots (`gpt-4o-2024-08-06`) and Anthropic's (`claude-sonnet-4-5-20250929`). */
const DATED_SNAPSHOT = /^(.*)(?:-\d{4}-\d{2}-\d{2}|-\d{8})$/;

/**
 * The price of `model` from the table in effect: an exact name, or a dated snapshot of one
 * (`gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`). Unlike a judge's
 * own `prices`, no looser prefix match: a bundled `gpt-4` must not price an unknown `gpt-4.5-preview`.
 * Undefined when unknown.
 */
export function knownPrice(...models: readonly (string | undefined)[]): ModelPrice | undefined {
  const table = modelPrices();
  for (const model of models) {
    if (!model) continue;
    const name = model;
    if (Object.prototype.hasOwnProperty.call(table, name)) return table[name];
    const alias = DATED_SNAPSHOT.exec(name)?.[1];
    if (alias && Object.prototype.hasOwnProperty.call(table, alias)) return table[alias];
  }
  return undefined;
}
