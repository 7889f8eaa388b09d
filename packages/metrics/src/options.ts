// Unknown option keys are a typed error, never silently ignored: `new SandboxMetric({ command: [...] })`
// (the option is `commands`) must not quietly run the default `cargo test`.
import { UnknownOptionError } from "./errors.js";

/** Edit distance (insertions, deletions, substitutions) between two short keys. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

/**
 * How near a guess must be to count. Names (metrics, settings, fields, option values) ignore case, `-`
 * and `_`, within two edits. Option keys ignore case only, and allow at most a third of the key's
 * length in edits (two at most), so a two-letter key is only ever matched in another case.
 */
export interface Nearness {
  readonly fold: (s: string) => string;
  readonly maxEdits: (name: string) => number;
}

export const NAME_NEARNESS: Nearness = { fold: (s) => s.toLowerCase().replace(/[-_]/g, ""), maxEdits: () => 2 };
export const OPTION_KEY_NEARNESS: Nearness = { fold: (s) => s.toLowerCase(), maxEdits: (key) => Math.min(2, Math.floor(key.length / 3)) };

/** The closest candidate to `name` under `nearness` (the first of equally close ones), if any is near enough. */
export function didYouMean(name: string, candidates: Iterable<string>, nearness: Nearness = NAME_NEARNESS): string | undefined {
  const folded = nearness.fold(name);
  const limit = nearness.maxEdits(name);
  let best: { name: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(folded, nearness.fold(c));
    if (d <= limit && (!best || d < best.d)) best = { name: c, d };
  }
  return best?.name;
}

/**
 * Throws `UnknownOptionError` for the first own key of `options` that is not in `known`.
 *
 * @param known the accepted keys, or an object whose keys they are (e.g. `{ name: true, field: true }
 *   satisfies Record<keyof MyOptions, true>`, which keeps the list in step with the options type)
 * @param metric the metric's name for the message (`SandboxMetric`)
 * @param argument where the options object was passed (default `options`)
 */
export function rejectUnknownOptions(
  options: object,
  known: readonly string[] | Readonly<Record<string, unknown>>,
  metric: string,
  argument = "options",
): void {
  const keys = Array.isArray(known) ? (known as readonly string[]) : Object.keys(known);
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) {
      throw new UnknownOptionError(metric, key, keys, { argument, suggestion: didYouMean(key, keys, OPTION_KEY_NEARNESS) });
    }
  }
}
