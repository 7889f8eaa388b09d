import { InvalidArgumentError, describe } from "./errors.js";

export function requireString(value: unknown, argument: string, index?: number): string {
  if (typeof value !== "string") {
    throw new InvalidArgumentError(`${argument}${index === undefined ? "" : `[${index}]`} must be a string, got ${describe(value)}`, {
      argument,
      index,
      expected: "string",
      actual: describe(value),
    });
  }
  return value;
}

export function requireArray(value: unknown, argument: string): readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(`${argument} must be an array, got ${describe(value)}`, {
      argument,
      expected: "array",
      actual: describe(value),
    });
  }
  return value;
}

/**
 * sacreBLEU's rule for the references of a segment (`Metric._cache_references`, in `sentence_score` and
 * `corpus_score` alike): a `None` reference is dropped, an empty string stays an (empty) reference.
 */
export const NULLS = Object.freeze({ nulls: true });

/**
 * The references of one item as a non-empty string array. `nulls: true` drops null entries (sacreBLEU's
 * `None` in a reference stream); a single string is accepted as one reference where `single` is true.
 */
export function referenceList(
  value: unknown,
  argument: string,
  index: number | undefined,
  options: { nulls?: boolean; single?: boolean } = {},
): readonly string[] {
  if (options.single && typeof value === "string") return [value];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(
      `${argument}${index === undefined ? "" : `[${index}]`} must be an array of reference strings, got ${describe(value)}`,
      { argument, index, expected: "string[]", actual: describe(value) },
    );
  }
  let out: string[] | undefined;
  for (let j = 0; j < value.length; j++) {
    const r: unknown = value[j];
    if (typeof r === "string") {
      out?.push(r);
      continue;
    }
    if (r === null && options.nulls) {
      out ??= (value as string[]).slice(0, j);
      continue;
    }
    throw new InvalidArgumentError(
      `${argument}${index === undefined ? "" : `[${index}]`}[${j}] must be a string${options.nulls ? " or null" : ""}, got ${describe(r)}`,
      { argument, index, expected: options.nulls ? "string | null" : "string", actual: describe(r) },
    );
  }
  const refs = out ?? (value as string[]);
  if (refs.length === 0) {
    throw new InvalidArgumentError(
      `${argument}${index === undefined ? "" : `[${index}]`} has no reference: give at least one reference string`,
      { argument, index, expected: "at least one reference", actual: "[]" },
    );
  }
  return refs;
}

/** Validates a (hypotheses, references-per-hypothesis) batch and returns the normalised references. */
export function pairBatch(
  hyps: unknown,
  refs: unknown,
  options: { nulls?: boolean; single?: boolean } = {},
): { hyps: readonly string[]; refs: (readonly string[])[] } {
  const h = requireArray(hyps, "hyps");
  const r = requireArray(refs, "refs");
  if (h.length !== r.length) {
    throw new InvalidArgumentError(
      `hyps and refs must have the same length (one reference list per hypothesis)` +
        `: got ${h.length} hypotheses and ${r.length} reference lists`,
      { argument: "refs", expected: `length ${h.length}`, actual: `length ${r.length}` },
    );
  }
  const out: (readonly string[])[] = new Array(h.length);
  for (let i = 0; i < h.length; i++) {
    requireString(h[i], "hyps", i);
    out[i] = referenceList(r[i], "refs", i, options);
  }
  return { hyps: h as readonly string[], refs: out };
}

export function optionInt(value: unknown, argument: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${argument} must be an integer from ${min} to ${max}, got ${describe(value)}`, {
      argument,
      expected: `integer ${min}..${max}`,
      actual: describe(value),
    });
  }
  return value;
}

export function optionNumber(value: unknown, argument: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`${argument} must be a finite number, got ${describe(value)}`, {
      argument,
      expected: "finite number",
      actual: describe(value),
    });
  }
  return value;
}

export function optionBool(value: unknown, argument: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(`${argument} must be a boolean, got ${describe(value)}`, {
      argument,
      expected: "boolean",
      actual: describe(value),
    });
  }
  return value;
}

export function optionEnum<T extends string>(value: unknown, argument: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(
      `${argument} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${describe(value)}`,
      {
        argument,
        expected: allowed.join(" | "),
        actual: describe(value),
      },
    );
  }
  return value as T;
}

/** The largest count a statistic may hold: 2^53, beyond which f64 sums stop being exact. */
export const MAX_STATISTIC = 2 ** 53;

function badStatistic(argument: string, index: number, message: string, actual: unknown): never {
  throw new InvalidArgumentError(`${argument}[${index}] ${message}, got ${describe(actual)}`, {
    argument,
    index,
    expected: "an integer count from 0 to 2^53",
    actual: describe(actual),
  });
}

/** A count statistic: an integer from 0 to 2^53 (never NaN, ±Infinity, a fraction or a negative). */
export function requireCount(value: unknown, argument: string, index: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_STATISTIC) {
    badStatistic(argument, index, "must be an integer count from 0 to 2^53", value);
  }
  return value as number;
}

/**
 * Checks rows of BLEU statistics `[sysLen, refLen, counts[N], totals[N]]` in `stats` (n rows): every
 * value a count (`requireCount`) and every n-gram match count at most its total. sacreBLEU would turn
 * impossible statistics into a BLEU of 500 or NaN; here they are a typed error.
 */
export function checkBleuRows(stats: ArrayLike<number>, maxOrder: number, argument: string): void {
  const w = 2 + 2 * maxOrder;
  for (let r = 0; r + w <= stats.length; r += w) {
    for (let j = 0; j < w; j++) requireCount(stats[r + j], argument, r + j);
    for (let k = 0; k < maxOrder; k++) {
      const c = stats[r + 2 + k]!;
      const t = stats[r + 2 + maxOrder + k]!;
      if (c > t) badStatistic(argument, r + 2 + k, `(matched ${k + 1}-grams) must not exceed the ${k + 1}-gram total ${t}`, c);
    }
  }
}

/**
 * Checks rows of chrF statistics (`[hyp, ref, match]` per order, `order` orders per row): counts, and
 * every match count at most both its hypothesis and reference counts.
 */
export function checkChrfRows(stats: ArrayLike<number>, argument: string): void {
  for (let j = 0; j < stats.length; j++) requireCount(stats[j], argument, j);
  for (let j = 0; j + 3 <= stats.length; j += 3) {
    const m = stats[j + 2]!;
    if (m > stats[j]! || m > stats[j + 1]!) {
      badStatistic(argument, j + 2, `(matches) must not exceed the hypothesis count ${stats[j]} or the reference count ${stats[j + 1]}`, m);
    }
  }
}
