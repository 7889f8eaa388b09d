// Python `round(x, ndigits)` for floats: the exact binary value of `x` rounded to `ndigits` decimals,
// ties (only exact binary ties) to even, then the nearest double (CPython `double_round`, which goes
// through `_Py_dg_dtoa` mode 3 and back). `round(2.675, 2)` is 2.67 because 2.675 is stored as
// 2.67499999999999982236431605997495353221893310546875; `round(0.125, 2)` is 0.12 (an exact tie).
//
// JS `toFixed` breaks ties away from zero and `Math.round(x * 10 ** n) / 10 ** n` rounds the scaled,
// already-rounded product, so neither is Python's rounding.
import { PythonCompatError } from "../errors.js";

/** x = mantissa × 2^exponent exactly, mantissa an integer. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (x < 0) mantissa = -mantissa;
  return { mantissa, exponent };
}

const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** round(n / d) with ties to even, d > 0. */
function divRoundHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d; // truncates toward zero
  const r = n - q * d;
  const twice = abs(r) * 2n;
  if (twice < d) return q;
  const away = q + (n < 0n ? -1n : 1n);
  if (twice > d) return away;
  return q % 2n === 0n ? q : away;
}

/**
 * Python `round(x, ndigits)` for a float `x` and an int `ndigits` (negative rounds to tens, hundreds…).
 *
 * @example
 * pyRound(2.675, 2) === 2.67; pyRound(0.125, 2) === 0.12; pyRound(0.375, 2) === 0.38
 */
export function pyRound(x: number, ndigits: number): number {
  if (typeof x !== "number") throw new PythonCompatError("TypeError", "pyRound rounds a number");
  if (!Number.isInteger(ndigits)) throw new PythonCompatError("TypeError", "'float' object cannot be interpreted as an integer");
  if (!Number.isFinite(x) || x === 0) return x;
  // CPython: beyond these bounds the answer is x itself, or a zero of x's sign
  if (ndigits > 323) return x;
  if (ndigits < -308) return x < 0 ? -0 : 0;
  const { mantissa, exponent } = decompose(x);
  // x × 10^ndigits = mantissa × 2^exponent × 10^ndigits, as a fraction num/den
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (ndigits >= 0) num *= 10n ** BigInt(ndigits);
  else den *= 10n ** BigInt(-ndigits);
  const r = divRoundHalfEven(num, den);
  // the decimal r × 10^-ndigits, parsed back: JS Number() is correctly rounded like _Py_dg_strtod
  const value = Number(`${r}e${-ndigits}`);
  if (!Number.isFinite(value)) throw new PythonCompatError("OverflowError", "rounded value too large to represent");
  return r === 0n && x < 0 ? -0 : value;
}

/**
 * Python's `f"{x:.{digits}f}"` (`format(x, ".Nf")`): the exact binary value rounded to `digits` decimals,
 * exact ties to even, as sacreBLEU prints its scores. `toFixed` breaks exact ties away from zero
 * (`(0.125).toFixed(2)` is "0.13", Python prints "0.12"); rounding with `pyRound` first settles the tie,
 * and the double nearest a `digits`-decimal number prints as that number.
 */
export function pyFormatFixed(x: number, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0 || digits > 100)
    throw new PythonCompatError("ValueError", "precision must be an integer from 0 to 100");
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const text = pyRound(x, digits).toFixed(digits);
  // Python keeps the sign of a negative number that rounds to zero ("-0.0")
  return (x < 0 || Object.is(x, -0)) && !text.startsWith("-") ? `-${text}` : text;
}
