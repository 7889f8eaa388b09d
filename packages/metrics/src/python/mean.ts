// Python's `statistics.mean` over floats: the exact rational mean of the doubles, rounded once.
//
// Why: `statistics.mean` sums with `fractions.Fraction` and converts `total / n` to float with one
// correct rounding. A left-to-right `sum / n` in doubles differs in the last bit for about 6% of the
// evalwire top_k goldens (`[0.95, 1.0, 1.0]` → 0.9833333333333333, not ...334).
import { PythonCompatError } from "../errors.js";

const view = new DataView(new ArrayBuffer(8));

/** A finite, non-zero double as `mantissa * 2^exponent` (integers; exponent ≥ -1074). */
function decompose(value: number): [bigint, number] {
  view.setFloat64(0, value);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  const mantissa = biased === 0 ? fraction : fraction | 0x10000000000000n;
  return [high >>> 31 === 1 ? -mantissa : mantissa, (biased === 0 ? 1 : biased) - 1075];
}

/** Number of bits of a positive bigint. */
function bitLength(n: bigint): number {
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0] as string, 16)));
}

/** The double nearest to `numerator / denominator * 2^scale` (ties to even), `denominator > 0`. */
export function ratioToDouble(numerator: bigint, denominator: bigint, scale = 0): number {
  if (denominator <= 0n) throw new RangeError("denominator must be positive");
  if (numerator === 0n) return 0;
  const negative = numerator < 0n;
  const p = negative ? -numerator : numerator;
  // e: the power of two of the last kept bit, so that the quotient has 53 significant bits (fewer
  // for subnormals).
  let e = bitLength(p) - bitLength(denominator) - 53 + scale;
  const quotient = (exp: number): [bigint, bigint, bigint] => {
    const shift = exp - scale;
    const num = shift >= 0 ? p : p << BigInt(-shift);
    const den = shift >= 0 ? denominator << BigInt(shift) : denominator;
    return [num / den, num % den, den];
  };
  let [q, r, d] = quotient(e);
  if (q >= 1n << 53n) {
    e += 1;
    [q, r, d] = quotient(e);
  }
  if (e < -1074) {
    e = -1074;
    [q, r, d] = quotient(e);
  }
  const twice = 2n * r;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  if (q === 1n << 53n) {
    q = 1n << 52n;
    e += 1;
  }
  let magnitude: number;
  if (e > 971) magnitude = Infinity;
  else if (e < -1022)
    magnitude = Number(q) * 2 ** -1022 * 2 ** (e + 1022); // exact: a subnormal multiple of 2^-1074
  else magnitude = Number(q) * 2 ** e;
  return negative ? -magnitude : magnitude;
}

/**
 * Python `statistics.mean(values)` for floats: the exact mean, rounded once to the nearest double
 * (ties to even). Infinities and NaN propagate as in Python. Throws `statistics.StatisticsError`
 * (pythonType) for an empty input.
 *
 * @example
 * exactMean([0.95, 1.0, 1.0]); // 0.9833333333333333 ((0.95 + 1 + 1) / 3 gives ...334)
 */
export function exactMean(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) throw new PythonCompatError("statistics.StatisticsError", "mean requires at least one data point");
  let special: number | undefined;
  const parts: Array<[bigint, number]> = [];
  let lowest = Infinity;
  for (const value of values) {
    if (typeof value !== "number") throw new PythonCompatError("TypeError", "can't convert type to numerator/denominator");
    if (!Number.isFinite(value)) special = special === undefined ? value : special + value;
    else if (value !== 0) {
      const part = decompose(value);
      parts.push(part);
      if (part[1] < lowest) lowest = part[1];
    }
  }
  if (special !== undefined) return special / n;
  if (parts.length === 0) return 0;
  // Sum exactly in units of the smallest power of two present.
  let total = 0n;
  for (const [mantissa, exponent] of parts) total += mantissa << BigInt(exponent - lowest);
  return ratioToDouble(total, BigInt(n), lowest);
}
