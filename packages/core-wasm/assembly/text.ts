// Code-point text helpers. Strings arrive as UTF-8 (written by JS with TextEncoder.encodeInto, so lone
// surrogates have already become U+FFFD) and are decoded into u32 code-point arrays in scratch memory.
// Everything that follows works on code points, as Python strings do.

/** Decode `byteLen` bytes of UTF-8 at `src` into a new scratch u32 array; returns the code-point count. */
export function decodeUtf8(src: usize, byteLen: i32, out: usize): i32 {
  let i = 0;
  let n = 0;
  while (i < byteLen) {
    const b0 = <u32>load<u8>(src + i);
    let cp: u32;
    if (b0 < 0x80) {
      cp = b0;
      i += 1;
    } else if (b0 < 0xe0) {
      cp = ((b0 & 0x1f) << 6) | (<u32>load<u8>(src + i + 1) & 0x3f);
      i += 2;
    } else if (b0 < 0xf0) {
      cp = ((b0 & 0x0f) << 12) | ((<u32>load<u8>(src + i + 1) & 0x3f) << 6) | (<u32>load<u8>(src + i + 2) & 0x3f);
      i += 3;
    } else {
      cp =
        ((b0 & 0x07) << 18) |
        ((<u32>load<u8>(src + i + 1) & 0x3f) << 12) |
        ((<u32>load<u8>(src + i + 2) & 0x3f) << 6) |
        (<u32>load<u8>(src + i + 3) & 0x3f);
      i += 4;
    }
    store<u32>(out + (<usize>n << 2), cp);
    n++;
  }
  return n;
}

/** Encode code points as UTF-8 at `out`; returns the byte count. */
export function encodeUtf8(cps: usize, n: i32, out: usize): i32 {
  let o: usize = out;
  for (let i = 0; i < n; i++) {
    const cp = load<u32>(cps + (<usize>i << 2));
    if (cp < 0x80) {
      store<u8>(o++, <u8>cp);
    } else if (cp < 0x800) {
      store<u8>(o++, <u8>(0xc0 | (cp >> 6)));
      store<u8>(o++, <u8>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      store<u8>(o++, <u8>(0xe0 | (cp >> 12)));
      store<u8>(o++, <u8>(0x80 | ((cp >> 6) & 0x3f)));
      store<u8>(o++, <u8>(0x80 | (cp & 0x3f)));
    } else {
      store<u8>(o++, <u8>(0xf0 | (cp >> 18)));
      store<u8>(o++, <u8>(0x80 | ((cp >> 12) & 0x3f)));
      store<u8>(o++, <u8>(0x80 | ((cp >> 6) & 0x3f)));
      store<u8>(o++, <u8>(0x80 | (cp & 0x3f)));
    }
  }
  return <i32>(o - out);
}

/** Python whitespace below U+0040 as a bit mask: U+0009–U+000D, U+001C–U+001F, U+0020. */
const WS_LO: u64 = 0x1f0003e00;

/**
 * Python's `str.split()` / `str.strip()` whitespace: U+0009–U+000D, U+001C–U+001F, U+0020, U+0085,
 * U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. (Not U+200B, not U+FEFF.)
 * ASCII is a mask lookup (no compare chain); callers that filter whitespace should store
 * unconditionally and advance by `!isPyWs(c)`, since a branch per code point mispredicts at every
 * word boundary.
 */
// @ts-ignore: decorator
@inline export function isPyWs(c: u32): bool {
  if (c < 0x80) return <bool>((select<u64>(WS_LO, 0, c < 0x40) >> <u64>(c & 63)) & 1);
  // most text beyond ASCII is below U+1680 (Latin, Greek, Cyrillic …) or above U+3000 (CJK, Hangul):
  // two compares there, and the call for the rest
  if (c < 0x1680) return c == 0x85 || c == 0xa0;
  return c <= 0x3000 && isPyWsNonAscii(c);
}

/** isPyWs for U+1680 ..= U+3000. */
function isPyWsNonAscii(c: u32): bool {
  return (
    c == 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c == 0x2028 ||
    c == 0x2029 ||
    c == 0x202f ||
    c == 0x205f ||
    c == 0x3000
  );
}

/**
 * Python `str.split()`: writes (start, end) index pairs of the non-whitespace runs of `cps[0..n)` as
 * u32 pairs at `out` (capacity n/2+1 pairs suffices); returns the token count.
 */
export function splitWs(cps: usize, n: i32, out: usize): i32 {
  let count = 0;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWs(load<u32>(cps + (<usize>i << 2)))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isPyWs(load<u32>(cps + (<usize>i << 2)))) i++;
    store<u32>(out + (<usize>count << 3), start);
    store<u32>(out + (<usize>count << 3) + 4, i);
    count++;
  }
  return count;
}

/** Python `str.rstrip()`: the new length. */
export function rstripLen(cps: usize, n: i32): i32 {
  while (n > 0 && isPyWs(load<u32>(cps + (<usize>(n - 1) << 2)))) n--;
  return n;
}

/** Python `str.strip()`: returns the start index and sets `stripEnd` to the end. */
// @ts-ignore: decorator
@lazy export let stripEnd: i32 = 0;
export function stripStart(cps: usize, n: i32): i32 {
  let s = 0;
  while (s < n && isPyWs(load<u32>(cps + (<usize>s << 2)))) s++;
  let e = n;
  while (e > s && isPyWs(load<u32>(cps + (<usize>(e - 1) << 2)))) e--;
  stripEnd = e;
  return s;
}

/**
 * Equality of two code-point ranges. Compared 16 bytes at a time with SIMD (wasm loads need no alignment),
 * then one last u64/u32: `memory.compare` compares word-wise only when both ranges share their alignment
 * mod 8, which two 4-byte-aligned token ranges do half the time, and byte by byte otherwise.
 */
export function cpsEqual(a: usize, b: usize, n: i32): bool {
  let bytes = <usize>n << 2;
  while (bytes >= 16) {
    if (v128.any_true(v128.xor(v128.load(a), v128.load(b)))) return false;
    a += 16;
    b += 16;
    bytes -= 16;
  }
  if (bytes >= 8) {
    if (load<u64>(a) != load<u64>(b)) return false;
    a += 8;
    b += 8;
    bytes -= 8;
  }
  return bytes == 0 || load<u32>(a) == load<u32>(b);
}

// @ts-ignore: decorator
@inline export function mix(h: u32, v: u32): u32 {
  // multiplicative mixing (murmur3-style round); good enough for open addressing with exact compare
  let k = v * 0xcc9e2d51;
  k = (k << 15) | (k >> 17);
  k *= 0x1b873593;
  h ^= k;
  h = (h << 13) | (h >> 19);
  return h * 5 + 0xe6546b64;
}

// @ts-ignore: decorator
@inline export function finish(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

/** Hash of a code-point (or symbol) range. */
export function hashRange(p: usize, n: i32): u32 {
  let h: u32 = <u32>n * 0x9e3779b1;
  for (let i = 0; i < n; i++) h = mix(h, load<u32>(p + (<usize>i << 2)));
  return finish(h);
}
