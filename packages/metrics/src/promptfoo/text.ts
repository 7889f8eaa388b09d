// promptfoo's deterministic text assertions as pair rules (promptfoo/promptfoo src/assertions/contains.ts,
// startsWith.ts, wordCount.ts, refusal.ts, finishReason.ts, perplexity.ts, cost.ts, latency.ts): each is
// `(output, references, options, row)` → 1 (pass) / 0 (fail), or the measured value for the rules that
// promptfoo compares with a threshold (perplexity, cost, latency: lower is better). `not-` and thresholds
// belong to the caller (a suite runner); the rules give the un-negated result.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { assertionValue, badValue, jsonish, listValue, rowNumber, type Options } from "./values.js";
import { REFUSAL_PREFIXES, REFUSAL_SUBSTRINGS, normalizeApostrophes } from "./refusal-phrases.js";

type Row = Options | undefined;

function containsSome(type: string, output: string, references: readonly string[], options: Options, fold: boolean, all: boolean): boolean {
  const values = listValue(type, assertionValue(references, options));
  const text = fold ? output.toLowerCase() : output;
  const found = (v: string) => text.includes(fold ? v.toLowerCase() : v);
  return all ? values.every(found) : values.some(found);
}

/** `contains-any`: the output contains at least one of the values (case-sensitive). */
export function containsAny(output: string, references: readonly string[], options: Options = {}): boolean {
  return containsSome("contains-any", output, references, options, false, false);
}
/** `icontains-any`: as `contains-any`, ignoring case. */
export function icontainsAny(output: string, references: readonly string[], options: Options = {}): boolean {
  return containsSome("icontains-any", output, references, options, true, false);
}
/** `contains-all`: the output contains every value — all or nothing, as promptfoo scores it. */
export function containsAll(output: string, references: readonly string[], options: Options = {}): boolean {
  return containsSome("contains-all", output, references, options, false, true);
}
/** `icontains-all`: as `contains-all`, ignoring case. */
export function icontainsAll(output: string, references: readonly string[], options: Options = {}): boolean {
  return containsSome("icontains-all", output, references, options, true, true);
}

/** `starts-with`: the output starts with the value (case-sensitive, no trimming). */
export function startsWith(output: string, references: readonly string[], options: Options = {}): boolean {
  const value = assertionValue(references, options);
  if (typeof value !== "string" || value === "") throw badValue("starts-with", "needs a string value");
  return output.startsWith(value);
}

/** Words as promptfoo counts them: the trimmed text split on runs of whitespace. */
export function countWords(text: string): number {
  const t = text.trim();
  return t === "" ? 0 : t.split(/\s+/).filter((w) => w.length > 0).length;
}

function bound(v: unknown, key: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw badValue("word-count", `${key} must be a number`);
  return n;
}

/**
 * `word-count`: the number of words equals the value (a number), or lies in `{ min, max }` (either may be
 * left out; both bounds inclusive). The options `min` / `max` are the same as an object value.
 */
export function wordCount(output: string, references: readonly string[], options: Options = {}): boolean {
  const bounds = options.min !== undefined || options.max !== undefined;
  const raw = bounds ? { min: options.min, max: options.max } : jsonish(assertionValue(references, options));
  if (raw === undefined || raw === null || raw === "") throw badValue("word-count", "needs a value: a number, or { min, max }");
  const n = countWords(output);
  if (typeof raw === "object" && !Array.isArray(raw)) {
    const min = bound((raw as Options).min, "min");
    const max = bound((raw as Options).max, "max");
    if (min === undefined && max === undefined) throw badValue("word-count", "an object value needs min and/or max");
    if (min !== undefined && max !== undefined && min > max) {
      throw badValue("word-count", `min (${min}) must be less than or equal to max (${max})`);
    }
    return (min === undefined || n >= min) && (max === undefined || n <= max);
  }
  const exact = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  if (!Number.isFinite(exact)) throw badValue("word-count", "the value must be a number or an object with min/max");
  return n === exact;
}

/**
 * `is-refusal`: promptfoo's basic refusal check — an empty (or whitespace) output, an output starting with
 * one of its refusal openings, or containing one of its refusal phrases (case-insensitive, curly
 * apostrophes read as straight ones).
 */
export function isRefusal(output: string): boolean {
  const text = normalizeApostrophes(output.trim().toLowerCase());
  if (text === "") return true;
  return REFUSAL_PREFIXES.some((p) => text.startsWith(p)) || REFUSAL_SUBSTRINGS.some((s) => text.includes(s));
}

/** The row's finish reason (`finishReason` or `finish_reason`), if any. */
function finishReasonOf(row: Row): string | undefined {
  const v = row?.finishReason ?? row?.finish_reason;
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * `finish-reason`: the row's `finishReason` (or `finish_reason`) equals the value, ignoring case. A row
 * without one fails, as promptfoo fails a provider that gave none.
 */
export function finishReason(_output: string, references: readonly string[], options: Options = {}, row?: Row): boolean {
  const value = assertionValue(references, options);
  if (typeof value !== "string" || value === "") throw badValue("finish-reason", "needs a string value (stop, length, tool_calls, ...)");
  const got = finishReasonOf(row);
  return got !== undefined && got.toLowerCase() === value.toLowerCase();
}

function logprobOf(item: unknown): number {
  const v = typeof item === "object" && item !== null ? (item as { logprob?: unknown }).logprob : item;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new InvalidArgumentError(`logprobs holds ${JSON.stringify(v)}, not a finite number`, { argument: "logprobs" });
  }
  return v;
}

/**
 * The token logprobs of a row: `logprobs` (or `logProbs`) as a list of numbers, a list of `{ logprob }`
 * (the judge client's token logprobs), OpenAI's `{ content: [{ token, logprob }] }`, or any of these as JSON
 * text (a CSV cell).
 */
export function rowLogprobs(row: Row, type: string): number[] {
  let v = row?.logprobs ?? row?.logProbs;
  if (typeof v === "string") v = jsonish(v);
  const content = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as { content?: unknown }).content : undefined;
  if (Array.isArray(content)) v = content;
  if (!Array.isArray(v) || v.length === 0) {
    throw new InvalidArgumentError(`${type} needs the token logprobs of the output in the row's logprobs field`, { argument: "logprobs" });
  }
  return v.map(logprobOf);
}

/** exp(−mean(logprobs)): the output's perplexity under the model that wrote it. */
function perplexityOf(logprobs: readonly number[]): number {
  let sum = 0;
  for (const lp of logprobs) sum += lp;
  return Math.exp(-sum / logprobs.length);
}

/** `perplexity`: exp(−mean(logprobs)) of the row's `logprobs` (lower is better; promptfoo passes it when ≤ threshold). */
export function perplexity(_output: string, _references: readonly string[], _options: Options = {}, row?: Row): number {
  return perplexityOf(rowLogprobs(row, "perplexity"));
}

/** `perplexity-score`: 1 / (1 + perplexity), in (0, 1], higher is better. */
export function perplexityScore(_output: string, _references: readonly string[], _options: Options = {}, row?: Row): number {
  return 1 / (1 + perplexityOf(rowLogprobs(row, "perplexity-score")));
}

/** `cost`: the row's `cost` (USD of the call that produced the output; lower is better, pass when ≤ threshold). */
export function cost(_output: string, _references: readonly string[], _options: Options = {}, row?: Row): number {
  const c = rowNumber(row, ["cost", "costUsd", "cost_usd"]);
  if (c === undefined) throw new InvalidArgumentError("cost needs the row's cost field (USD of the call)", { argument: "cost" });
  return c;
}

/** `latency`: the row's `latencyMs` (or `latency_ms`), milliseconds; lower is better, pass when ≤ threshold. */
export function latency(_output: string, _references: readonly string[], _options: Options = {}, row?: Row): number {
  const ms = rowNumber(row, ["latencyMs", "latency_ms"]);
  if (ms === undefined) throw new InvalidArgumentError("latency needs the row's latencyMs field (milliseconds)", { argument: "latencyMs" });
  return ms;
}
