// Input-size limits of the kernels. Every entry point checks its strings against them before any work,
// so an oversized row is refused in microseconds with an `InputTooLargeError` (code "INPUT_TOO_LARGE")
// instead of running for minutes or growing the WebAssembly memory by gigabytes. The figures keep
// one call under ~1 GiB of module memory and ~10 s of CPU on a slow core, and leave room for real
// documents (a 10 MB hypothesis against a 10 MB reference is tested).
import { InputTooLargeError, InvalidArgumentError, describe, type InputLimitKind } from "./errors.js";

/** The limits, in UTF-8 bytes (what crosses into WebAssembly) unless the name says otherwise. */
export interface InputLimits {
  /** Any one string (hypothesis, reference, text, choice): 16 MiB of UTF-8. */
  readonly maxStringBytes: number;
  /** One item of a batch: a hypothesis with all its references (a text, a pair, a question): 32 MiB. */
  readonly maxItemBytes: number;
  /** All strings of one call together: 256 MiB (split larger corpora and sum their statistics). */
  readonly maxBatchBytes: number;
  /**
   * Quadratic kernels, per compared pair, as the product of the two strings' lengths in UTF-16 code
   * units (JS `length`): Levenshtein 2^31 (its bit-parallel path falls back to an O(m·n) table
   * when the shorter string has many distinct characters), ROUGE-L and BYOB's LCS 2^36. ROUGE-Lsum (also subject to
   * the ROUGE-L limit): 2^31 for tokens(hyp) × tokens(ref) + 64 × lines(hyp) × lines(ref), counted
   * only when the length product exceeds it.
   */
  readonly maxLevenshteinCells: number;
  readonly maxLcsCells: number;
  readonly maxLcsSumCells: number;
  /** TER: hypothesis words × reference words per reference (after TER's tokenization): 2^24. */
  readonly maxTerWordPairs: number;
  /**
   * The module's memory (I/O region plus scratch) for one call: 1 GiB. Inputs within the limits above
   * whose tables would need more (e.g. 16 MiB of all-distinct words under chrF) are refused with
   * `kind: "memory"` once the kernel reaches it.
   */
  readonly maxMemoryBytes: number;
}

export const INPUT_LIMITS: InputLimits = Object.freeze({
  maxStringBytes: 16 * 2 ** 20,
  maxItemBytes: 32 * 2 ** 20,
  maxBatchBytes: 256 * 2 ** 20,
  maxLevenshteinCells: 2 ** 31,
  maxLcsCells: 2 ** 36,
  maxLcsSumCells: 2 ** 31,
  maxTerWordPairs: 2 ** 24,
  maxMemoryBytes: 2 ** 30,
});

const NON_ASCII = /[^\0-\x7f]/;

/** Bytes of `s` in UTF-8 as `TextEncoder` writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  if (typeof s !== "string") {
    throw new InvalidArgumentError(`utf8Length needs a string, got ${describe(s)}`, {
      argument: "s",
      expected: "string",
      actual: describe(s),
    });
  }
  const n = s.length;
  if (!NON_ASCII.test(s)) return n; // a native scan: most long strings are ASCII
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two units are 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

const MiB = 2 ** 20;
const fmt = (bytes: number): string => (bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${bytes} bytes`);
const at = (argument: string, index: number | undefined): string => (index === undefined ? argument : `${argument}[${index}]`);

function tooLarge(kind: InputLimitKind, argument: string, index: number | undefined, limit: number, size: number, what: string): never {
  throw new InputTooLargeError(
    `${what} is ${kind === "string" && what.endsWith(" it") ? "at least " : ""}${fmt(size)} of UTF-8` +
      `, over the ${kind} limit of ${fmt(limit)} (INPUT_LIMITS): ` +
      (kind === "batch" ? "split the batch and sum the statistics" : "refused without scoring it"),
    { argument, index, expected: `at most ${limit} bytes`, actual: `${size} bytes`, kind, limit, size, unit: "bytes" },
  );
}

/**
 * Size bound of one string against `maxStringBytes`: 3 bytes per UTF-16 unit when that is under the
 * limit (no pass over the string), else the exact UTF-8 length; throws past the limit.
 */
function stringBound(s: string, argument: string, index: number | undefined): number {
  const units = s.length;
  const max = INPUT_LIMITS.maxStringBytes;
  if (units * 3 <= max) return units * 3;
  if (units > max) tooLarge("string", argument, index, max, units, `${at(argument, index)} has ${units} UTF-16 code units, so it`);
  const bytes = utf8Length(s);
  if (bytes > max) tooLarge("string", argument, index, max, bytes, at(argument, index));
  return bytes;
}

/**
 * Checks the sizes of `n` items; item i has strings `first(i)` and `rest(i)` (may be empty). One
 * `length` read per string in the common case; exact UTF-8 lengths only near a limit.
 */
export function checkItems(
  n: number,
  first: (i: number) => string,
  rest: (i: number) => readonly string[] | string,
  firstArgument: string,
  restArgument: string,
  single: boolean,
): void {
  const maxItem = INPUT_LIMITS.maxItemBytes;
  let batch = 0;
  for (let i = 0; i < n; i++) {
    const index = single ? undefined : i;
    const h = first(i);
    const r = rest(i);
    let item = stringBound(h, firstArgument, index);
    if (typeof r === "string") item += stringBound(r, restArgument, index);
    else for (let j = 0; j < r.length; j++) item += stringBound(r[j]!, restArgument, index);
    if (item > maxItem) {
      // the bound counts 3 bytes per code unit for short strings: recount exactly
      item = utf8Length(h);
      if (typeof r === "string") item += utf8Length(r);
      else for (let j = 0; j < r.length; j++) item += utf8Length(r[j]!);
      if (item > maxItem) tooLarge("item", firstArgument, index, maxItem, item, `item ${i} (a string with its counterparts)`);
    }
    batch += item;
  }
  const maxBatch = INPUT_LIMITS.maxBatchBytes;
  if (batch > maxBatch) {
    let exact = 0;
    for (let i = 0; i < n; i++) {
      exact += utf8Length(first(i));
      const r = rest(i);
      if (typeof r === "string") exact += utf8Length(r);
      else for (const s of r) exact += utf8Length(s);
    }
    if (exact > maxBatch) tooLarge("batch", firstArgument, undefined, maxBatch, exact, "the batch");
  }
}

const NONE: readonly string[] = [];

/** Checks pair-kernel input (each hypothesis with its references) against `INPUT_LIMITS`. */
export function checkPairSizes(
  hyps: readonly string[],
  refs: readonly (readonly string[])[],
  hypArgument: string,
  refArgument: string,
  single: boolean,
): void {
  checkItems(
    hyps.length,
    (i) => hyps[i]!,
    (i) => refs[i]!,
    hypArgument,
    refArgument,
    single,
  );
}

/** Checks single-string-kernel input (normalize, DPR tokenizer) against `INPUT_LIMITS`. */
export function checkTextSizes(texts: readonly string[], argument: string, single: boolean): void {
  checkItems(
    texts.length,
    (i) => texts[i]!,
    () => NONE,
    argument,
    argument,
    single,
  );
}

/** Checks groups of strings (the choices of a question) against `INPUT_LIMITS`. */
export function checkGroupSizes(groups: readonly (readonly string[])[], argument: string): void {
  checkItems(
    groups.length,
    () => "",
    (i) => groups[i]!,
    argument,
    argument,
    false,
  );
}

/**
 * Quadratic kernels: `a.length × b.length` against `limit` (code-unit pairs), for the kernel named
 * `what` (`"levenshtein"`, `"rougeL"`...).
 */
export function checkCells(a: string, b: string, limit: number, what: string, argument: string, index: number | undefined): void {
  const cells = a.length * b.length;
  if (cells > limit) {
    throw new InputTooLargeError(
      `${what} of ${at(argument, index)} compares ${a.length} × ${b.length} = ${cells} code-unit pairs` +
        `, over its limit of ${limit} (INPUT_LIMITS)` +
        `: its time grows with the product of the lengths`,
      { argument, index, expected: `at most ${limit} cells`, actual: `${cells} cells`, kind: "pair", limit, size: cells, unit: "cells" },
    );
  }
}
