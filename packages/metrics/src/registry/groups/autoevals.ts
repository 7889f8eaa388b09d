// Rule group "autoevals" (see ../rules.ts): autoevals' NumericDiff and JSONDiff against the best reference.
import { JSONDiff } from "../../common/json-diff.js";
import { numericDiff as commonNumericDiff } from "../../common/numeric-diff.js";

function parseNumber(text: string, what: string): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value)) throw new Error(`${what} is not a number: ${JSON.stringify(text.slice(0, 40))}`);
  return value;
}

/** autoevals `NumericDiff` between the hypothesis and the best reference, both read as numbers. */
export function numericDiff(hypothesis: string, references: readonly string[]): number {
  const h = parseNumber(hypothesis, "hypothesis");
  let best = -Infinity;
  for (const r of references) best = Math.max(best, commonNumericDiff(h, parseNumber(r, "reference")));
  return best;
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** autoevals `JSONDiff` between the hypothesis and the best reference (each parsed as JSON when it is JSON). */
export function jsonDiff(hypothesis: string, references: readonly string[]): number {
  const output = jsonValue(hypothesis);
  let best = -Infinity;
  for (const r of references) best = Math.max(best, JSONDiff({ output, expected: jsonValue(r) }).score ?? 0);
  return best;
}
