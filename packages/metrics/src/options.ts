// Unknown option keys are a typed error, never silently ignored: `new SandboxMetric({ command: [...] })`
// (the option is `commands`) must not quietly run the default `cargo test`.
import { UnknownOptionError } from "./errors.js";

/** Edit distance (insertions, deletions, substitutions) between two short keys. */
function distance(a: string, b: string): number {
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

/** The known key closest to `key`: same letters in another case, or at most 2 edits (a third of its length). */
export function closestOption(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 3)) + 1;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
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
      throw new UnknownOptionError(metric, key, keys, { argument, suggestion: closestOption(key, keys) });
    }
  }
}
