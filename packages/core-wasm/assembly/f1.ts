// Token F1 over the pair layout of assembly/batch.ts: item i's prediction is string i, its references
// are strings refStart[i] .. refStart[i+1]-1.
//
// flags bit 0: tokenizer: 0 = DSPy (`normalize_text(x).split()`), 1 = NeMo BYOB f1_token
//              (`x.lower().split()`).
// flags bit 1: HotPot rule (DSPy `hotpot_f1_score`): if the normalised prediction or the normalised
//              reference is "yes", "no" or "noanswer" and the two normalised strings differ, the score
//              is 0.
//
// Per reference: common = multiset intersection size of the token lists; common == 0 (which includes an
// empty side) gives f1 = precision = recall = 0; otherwise precision = common/len(pred),
// recall = common/len(ref), f1 = ((2*p)*r)/(p+r), all in doubles as in Python.
// Output per item (3 f64 at out + 24*i): f1, precision, recall of the reference with the largest f1; on
// ties the first such reference (Python `max` keeps the first maximum). DSPy's F1/HotPotF1 are the f1;
// BYOB f1_token with a single target is all three.

import { alloc, allocTable, allocZero, mark, release, persistBase, PERSIST_FREE } from "./mem";
import { Intern, internInit, intern, NONE } from "./hash";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { normalizeUtf8, lowerTokensUtf8, articlesAndSpaces, tokLen } from "./normalize";
import { cpsEqual, isPyWs } from "./text";
import { nfdLowerOne, NFD_MAX_EXPANSION } from "./ucd";

/** Token string (tokens joined by single spaces) of string k; length in `tokLen`. */
// @ts-ignore: decorator
@inline function tokensOf(byob: bool, bytes: usize, strOffs: usize, k: i32): usize {
  const src = strPtr(bytes, strOffs, k);
  const len = strLen(strOffs, k);
  return byob ? lowerTokensUtf8(src, len) : normalizeUtf8(src, len);
}

/** Number of tokens of a token string of length m. */
function countTokens(p: usize, m: i32): i32 {
  if (m == 0) return 0;
  let k = 1;
  for (let i = 0; i < m; i++) if (load<u32>(p + (<usize>i << 2)) == 0x20) k++;
  return k;
}

/** Is the token string "yes", "no" or "noanswer"? */
function isHotpotSpecial(p: usize, m: i32): bool {
  if (m == 3) {
    return load<u32>(p) == 0x79 && load<u32>(p, 4) == 0x65 && load<u32>(p, 8) == 0x73;
  }
  if (m == 2) return load<u32>(p) == 0x6e && load<u32>(p, 4) == 0x6f;
  if (m == 8) {
    // "noanswer"
    return (
      load<u64>(p) == 0x0000006f0000006e &&
      load<u64>(p, 8) == 0x0000006e00000061 &&
      load<u64>(p, 16) == 0x0000007700000073 &&
      load<u64>(p, 24) == 0x0000007200000065
    );
  }
  return false;
}

export function tokenF1Batch(n: i32, bytes: usize, strOffs: usize, refStart: usize, out: usize, flags: i32): void {
  if ((flags & 1) == 0) {
    dspyF1Batch(n, bytes, strOffs, refStart, out, (flags & 2) != 0);
    return;
  }
  const byob = (flags & 1) != 0;
  const hotpot = (flags & 2) != 0;
  const table = changetype<Intern>(alloc(offsetof<Intern>()));
  for (let i = 0; i < n; i++) {
    const m0 = mark();
    const pp = tokensOf(byob, bytes, strOffs, i);
    const pm = tokLen;
    const predLen = countTokens(pp, pm);
    const predSpecial = hotpot && isHotpotSpecial(pp, pm);

    // intern the prediction's tokens: ids in order, count per id
    internInit(table, predLen);
    const ids = alloc(<usize>(predLen + 1) << 2);
    const predCount = allocZero(<usize>(predLen + 1) << 2);
    const refCount = alloc(<usize>(predLen + 1) << 2);
    let s = 0;
    let k = 0;
    for (let j = 0; j <= pm; j++) {
      if (j == pm || load<u32>(pp + (<usize>j << 2)) == 0x20) {
        if (j > s) {
          const id = intern(table, pp + (<usize>s << 2), j - s, true);
          store<u32>(ids + (<usize>k << 2), id);
          const c = predCount + (<usize>id << 2);
          store<u32>(c, load<u32>(c) + 1);
          k++;
        }
        s = j + 1;
      }
    }
    const uniq = <usize>table.count;

    let bestF1 = -1.0;
    let bestP = 0.0;
    let bestR = 0.0;
    const r0 = refFirst(refStart, i);
    const r1 = refEnd(refStart, i);
    for (let r = r0; r < r1; r++) {
      const m1 = mark();
      const rp = tokensOf(byob, bytes, strOffs, r);
      const rm = tokLen;
      memory.fill(refCount, 0, uniq << 2);
      let common = 0;
      let refLen = 0;
      let same = true; // token sequences equal so far
      s = 0;
      for (let j = 0; j <= rm; j++) {
        if (j == rm || load<u32>(rp + (<usize>j << 2)) == 0x20) {
          if (j > s) {
            const id = intern(table, rp + (<usize>s << 2), j - s, false);
            if (refLen >= predLen || id != load<u32>(ids + (<usize>refLen << 2))) same = false;
            if (id != NONE) {
              const c = refCount + (<usize>id << 2);
              const v = load<u32>(c) + 1;
              store<u32>(c, v);
              if (v <= load<u32>(predCount + (<usize>id << 2))) common++;
            }
            refLen++;
          }
          s = j + 1;
        }
      }
      if (refLen != predLen) same = false;
      let f1 = 0.0;
      let p = 0.0;
      let rc = 0.0;
      const zero = hotpot && !same && (predSpecial || isHotpotSpecial(rp, rm));
      if (common > 0 && !zero) {
        p = <f64>common / <f64>predLen;
        rc = <f64>common / <f64>refLen;
        f1 = (2 * p * rc) / (p + rc);
      }
      if (f1 > bestF1) {
        bestF1 = f1;
        bestP = p;
        bestR = rc;
      }
      release(m1);
    }
    if (bestF1 < 0) bestF1 = 0; // no reference (the JS side rejects that)
    const o = out + (<usize>i * 24);
    store<f64>(o, bestF1);
    store<f64>(o, bestP, 8);
    store<f64>(o, bestR, 16);
    release(m0);
  }
}

// ------------------------------------------------------------------------------------------------
// DSPy mode, tokens straight from the bytes: for a string of ASCII letters, digits, whitespace and
// punctuation (no other control character), normalize_text(x).split() is: delete string.punctuation,
// lowercase, split at Python whitespace, drop the tokens "a", "an" and "the" (after the deletion only
// letters and digits are left inside a token, so `\b` can only fall at its ends). Any other string goes
// through normalizeUtf8 and is split at its spaces. Either way a token is a code-point range with a
// hash computed as it is written, interned once in a table sized for the prediction.

/**
 * Does a run of code points hold an "a" or a "t"? Without one it holds no article, and the run (no
 * whitespace inside) is one token even when it has a code point that is not \w.
 */
function hasArticleStart(p: usize, m: i32): bool {
  for (let j = 0; j < m; j++) {
    const c = load<u32>(p + (<usize>j << 2));
    if (c == 0x61 || c == 0x74) return true;
  }
  return false;
}

/** Per byte: 0 whitespace, 1 string.punctuation (deleted), 2 anything else (general path), else the lowercase letter or digit. */
// @ts-ignore: decorator
@lazy const DSPY_BYTE: usize = memory.data<u8>([
  2,2,2,2,2,2,2,2,2,0,0,0,0,0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,
  0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,48,49,50,51,52,53,54,55,56,57,1,1,1,1,1,1,
  1,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,1,1,1,1,1,
  1,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,1,1,1,1,2,
  2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,
  2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,
  2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,
  2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,
]);

const FNV_BASIS: u32 = 0x811c9dc5;
const FNV_PRIME: u32 = 0x01000193;

/** Tokens of the last `dspyTokens`: records of 3 u32 (code-point pointer, length, hash). */
// @ts-ignore: decorator
@lazy let recCount: i32 = 0;

// @ts-ignore: decorator
@inline function isArticle(p: usize, len: i32): bool {
  if (len == 1) return load<u32>(p) == 0x61;
  if (len == 2) return load<u64>(p) == 0x0000006e00000061;
  if (len == 3) return load<u64>(p) == 0x0000006800000074 && load<u32>(p, 8) == 0x65;
  return false;
}

// @ts-ignore: decorator
@inline function pushRecord(rec: usize, n: i32, p: usize, len: i32, h: u32): void {
  const r = rec + <usize>n * 12;
  store<u32>(r, <u32>p);
  store<u32>(r, <u32>len, 4);
  store<u32>(r, h, 8);
}

/**
 * Direct-mapped cache of `nfdLowerOne` for results of at most two code points: 1024 slots of 16 bytes
 * (code point + 1 (0 = empty), result, first and second code point). Static, so zero at start.
 */
const NFD_CACHE = memory.data(1024 * 16, 16);

// @ts-ignore: decorator
@inline function nfdLowerCached(cp: u32, out: usize): i32 {
  const s = NFD_CACHE + (<usize>(cp & 1023) << 4);
  if (load<u32>(s) == cp + 1) {
    const c = load<i32>(s, 4);
    store<u64>(out, load<u64>(s, 8)); // out has room for NFD_MAX_EXPANSION code points
    return c;
  }
  const c = nfdLowerOne(cp, out);
  if ((c & 0xff) <= 2) {
    store<u32>(s, cp + 1);
    store<i32>(s, c, 4);
    store<u64>(s, c >= 0 ? load<u64>(out) : 0, 8);
  }
  return c;
}

/**
 * `normalize_text(x).split()` of `byteLen` bytes of UTF-8 at `src`: returns the token records (count in
 * `recCount`). normalize_text works piecewise on the runs between ASCII whitespace (NFD reorders only
 * marks, lower()'s final-sigma context and `\b` stop at whitespace), so a run of ASCII letters, digits and
 * punctuation is a token (or an article, or nothing) read straight from the bytes, and any other run goes
 * through normalizeUtf8 and is split at its spaces.
 */
function dspyTokens(src: usize, byteLen: i32): usize {
  const cap = byteLen > 0 ? byteLen : 1;
  // NFD expands a code point of k >= 2 UTF-8 bytes to at most NFD_MAX_EXPANSION code points
  const cps = alloc(<usize>cap * <usize>NFD_MAX_EXPANSION * 2);
  // a token needs a code point and a separator one more byte: at most (byteLen + 1) / 2 tokens
  const rec = alloc(<usize>((cap >> 1) + 1) * 12);
  let n = 0;
  let o = 0; // code points written (ASCII runs)
  let start = 0; // where the current run's token starts in cps
  let chunk = 0; // byte where the current run starts
  let h = FNV_BASIS;
  let nonWord = 0; // 0x100 when the current run holds a code point that is not \w
  let i = 0;
  while (i <= byteLen) {
    const v: u32 = i < byteLen ? <u32>load<u8>(DSPY_BYTE + <usize>load<u8>(src + i)) : 0;
    if (v > 2) {
      // a run of ASCII letters and digits in one tight loop
      let x = v;
      do {
        store<u32>(cps + (<usize>o << 2), x);
        o++;
        h = (h ^ x) * FNV_PRIME;
        i++;
        if (i >= byteLen) break;
        x = <u32>load<u8>(DSPY_BYTE + <usize>load<u8>(src + i));
      } while (x > 2);
      continue;
    }
    if (v == 1) {
      i++;
      continue;
    }
    let wsWidth = v == 0 ? 1 : 0; // bytes of the whitespace character at i, 0 when there is none
    if (v == 2) {
      // v == 2: a non-ASCII code point whose lower(NFD(.)) needs no context (nfdLowerOne) is written here
      // too; a run with one that is not \w gets the article pass at its end
      const b0 = <u32>load<u8>(src + i);
      if (b0 >= 0xc2) {
        let cp: u32 = 0xffffffff;
        let w = 0;
        if (b0 < 0xe0) {
          if (i + 1 < byteLen) {
            const b1 = <u32>load<u8>(src + i + 1);
            if ((b1 & 0xc0) == 0x80) {
              cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
              w = 2;
            }
          }
        } else if (b0 < 0xf0) {
          if (i + 2 < byteLen) {
            const b1 = <u32>load<u8>(src + i + 1);
            const b2 = <u32>load<u8>(src + i + 2);
            if (((b1 & 0xc0) | ((b2 & 0xc0) << 8)) == 0x8080) {
              cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
              if (cp >= 0x800 && cp - 0xd800 >= 0x800) w = 3;
            }
          }
        } else if (b0 < 0xf5 && i + 3 < byteLen) {
          const b1 = <u32>load<u8>(src + i + 1);
          const b2 = <u32>load<u8>(src + i + 2);
          const b3 = <u32>load<u8>(src + i + 3);
          if (((b1 & 0xc0) | ((b2 & 0xc0) << 8) | ((b3 & 0xc0) << 16)) == 0x808080) {
            cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
            if (cp - 0x10000 < 0x100000) w = 4;
          }
        }
        if (cp - 0x4e00 < 0x5200) {
          // CJK Unified Ideographs U+4E00..U+9FFF: letters (\w) that NFD and lower() leave alone, too
          // many distinct ones for the cache
          store<u32>(cps + (<usize>o << 2), cp);
          o++;
          h = (h ^ cp) * FNV_PRIME;
          i += 3;
          continue;
        }
        if (w != 0) {
          const c = nfdLowerCached(cp, cps + (<usize>o << 2));
          if (c >= 0) {
            const oe = o + (c & 0xff);
            for (; o < oe; o++) h = (h ^ load<u32>(cps + (<usize>o << 2))) * FNV_PRIME;
            nonWord |= c;
            i += w;
            continue;
          }
          // Python whitespace beyond ASCII (U+00A0, U+3000 …) ends a run as ASCII whitespace does: NFD maps
          // it to whitespace, and lower()'s context, `\b` and split() all stop at it
          if (isPyWs(cp)) wsWidth = w;
        }
      }
    }
    if (wsWidth == 0) {
      // anything else: this run goes through normalize_text
      o = start;
      nonWord = 0;
      let e = i + 1;
      while (e < byteLen && load<u8>(DSPY_BYTE + <usize>load<u8>(src + e)) != 0) e++;
      const t = normalizeUtf8(src + <usize>chunk, e - chunk);
      const m = tokLen;
      let ts = 0;
      let th = FNV_BASIS;
      for (let j = 0; j <= m; j++) {
        const c = j < m ? load<u32>(t + (<usize>j << 2)) : 0x20;
        if (c == 0x20) {
          if (j > ts) pushRecord(rec, n++, t + (<usize>ts << 2), j - ts, th);
          ts = j + 1;
          th = FNV_BASIS;
        } else th = (th ^ c) * FNV_PRIME;
      }
      i = e; // the whitespace after the run (or the end) comes next
      continue;
    }
    // whitespace: the run before it is done
    if (nonWord & 0x100 && hasArticleStart(cps + (<usize>start << 2), o - start)) {
      // a code point that is not \w: `\b` can fall inside the run, so the article pass runs on it
      // (the run is lower(NFD(.)) with punctuation deleted already) and it splits at its spaces
      const t = cps + (<usize>start << 2);
      const m = articlesAndSpaces(t, o - start);
      let ts = 0;
      let th = FNV_BASIS;
      for (let j = 0; j <= m; j++) {
        const c = j < m ? load<u32>(t + (<usize>j << 2)) : 0x20;
        if (c == 0x20) {
          if (j > ts) pushRecord(rec, n++, t + (<usize>ts << 2), j - ts, th);
          ts = j + 1;
          th = FNV_BASIS;
        } else th = (th ^ c) * FNV_PRIME;
      }
      o = start + m;
      start = o;
    } else if (o > start) {
      // one token (the run holds no whitespace), unless it is an article
      const p = cps + (<usize>start << 2);
      const len = o - start;
      if (isArticle(p, len)) o = start;
      else {
        pushRecord(rec, n++, p, len, h);
        start = o;
      }
    }
    nonWord = 0;
    h = FNV_BASIS;
    i += wsWidth;
    chunk = i;
    continue;
  }
  recCount = n;
  return rec;
}

/**
 * Table of the prediction's distinct tokens, slots of 32 bytes: hash, stamp, pointer, length, count in
 * the prediction, count in the current reference, the reference stamp of that count, unused. A slot is
 * in use only when its stamp is the current prediction's, and its reference count only when the
 * reference stamp is the current reference's, so neither the table nor the counts are cleared between
 * pairs: the table lives in the persistent arena (PERSIST_FREE), or in zeroed scratch for a prediction
 * of more tokens than that holds. A token's id is its slot index.
 */
// @ts-ignore: decorator
@lazy let tabSlots: usize = 0;
// @ts-ignore: decorator
@lazy let tabMask: u32 = 0;
/** The stamp of the current prediction's slots, and the last stamp handed out (0 marks a slot never used). */
// @ts-ignore: decorator
@lazy let predStamp: u32 = 0;
// @ts-ignore: decorator
@lazy let lastStamp: u32 = 0;
/** Slots of the persistent table: 64 KiB. */
const PERSIST_SLOTS: u32 = 2048;

// @ts-ignore: decorator
@inline function slotOf(h: u32): u32 {
  return (h ^ (h >> 15)) & tabMask;
}

/**
 * Called before each prediction: once half the stamps are used up the persistent table is cleared and
 * the count restarts, so no stale slot can carry a stamp handed out later (one prediction's references
 * cannot use up the other half: there are fewer strings than 2^31 in a 1 GiB memory).
 */
function restartStampsIfWorn(): void {
  if (lastStamp < 0x80000000) return;
  memory.fill(persistBase() + PERSIST_FREE, 0, <usize>PERSIST_SLOTS << 5);
  lastStamp = 0;
}

/** Slot address of the token at record r, or 0 when the prediction has no such token. */
// @ts-ignore: decorator
@inline function lookup(r: usize): usize {
  const p = <usize>load<u32>(r);
  const len = load<u32>(r, 4);
  const h = load<u32>(r, 8);
  const stamp = predStamp;
  let i = slotOf(h);
  while (true) {
    const s = tabSlots + (<usize>i << 5);
    if (load<u32>(s, 4) != stamp) return 0;
    if (load<u32>(s) == h && load<u32>(s, 12) == len && cpsEqual(<usize>load<u32>(s, 8), p, <i32>len)) return s;
    i = (i + 1) & tabMask;
  }
}

/** Interns the prediction's tokens (records at pr) into the table; returns the slot index per token. */
function internPrediction(pr: usize, predLen: i32): usize {
  let cap: u32 = 16;
  while (cap < <u32>predLen * 2) cap <<= 1;
  tabMask = cap - 1;
  restartStampsIfWorn();
  // a larger table is fresh zeroed scratch, where any stamp is new
  tabSlots = cap <= PERSIST_SLOTS ? persistBase() + PERSIST_FREE : allocTable(<u64>cap << 5, true);
  const stamp = (predStamp = ++lastStamp);
  const ids = alloc(<usize>(predLen + 1) << 2);
  for (let k = 0; k < predLen; k++) {
    const r = pr + <usize>k * 12;
    const p = <usize>load<u32>(r);
    const len = load<u32>(r, 4);
    const h = load<u32>(r, 8);
    let j = slotOf(h);
    while (true) {
      const s = tabSlots + (<usize>j << 5);
      if (load<u32>(s, 4) != stamp) {
        store<u32>(s, h);
        store<u32>(s, stamp, 4);
        store<u32>(s, <u32>p, 8);
        store<u32>(s, len, 12);
        store<u32>(s, 1, 16);
        store<u32>(s, 0, 24);
        break;
      }
      if (load<u32>(s) == h && load<u32>(s, 12) == len && cpsEqual(<usize>load<u32>(s, 8), p, <i32>len)) {
        store<u32>(s, load<u32>(s, 16) + 1, 16);
        break;
      }
      j = (j + 1) & tabMask;
    }
    store<u32>(ids + (<usize>k << 2), j);
  }
  return ids;
}

function dspyF1Batch(n: i32, bytes: usize, strOffs: usize, refStart: usize, out: usize, hotpot: bool): void {
  for (let i = 0; i < n; i++) {
    const m0 = mark();
    const pr = dspyTokens(strPtr(bytes, strOffs, i), strLen(strOffs, i));
    const predLen = recCount;
    const predSpecial = hotpot && predLen == 1 && isHotpotSpecial(<usize>load<u32>(pr), <i32>load<u32>(pr, 4));
    const ids = internPrediction(pr, predLen);

    let bestF1 = -1.0;
    let bestP = 0.0;
    let bestR = 0.0;
    const r0 = refFirst(refStart, i);
    const r1 = refEnd(refStart, i);
    for (let r = r0; r < r1; r++) {
      const m1 = mark();
      const rr = dspyTokens(strPtr(bytes, strOffs, r), strLen(strOffs, r));
      const refLen = recCount;
      const rs = ++lastStamp;
      let common = 0;
      let same = refLen == predLen; // token sequences equal so far
      for (let k = 0; k < refLen; k++) {
        const s = lookup(rr + <usize>k * 12);
        if (s == 0) {
          same = false;
          continue;
        }
        if (same && <u32>((s - tabSlots) >> 5) != load<u32>(ids + (<usize>k << 2))) same = false;
        // this reference's count of the token, restarted at its first occurrence in this reference
        const v = (load<u32>(s, 24) == rs ? load<u32>(s, 20) : 0) + 1;
        store<u32>(s, v, 20);
        store<u32>(s, rs, 24);
        if (v <= load<u32>(s, 16)) common++;
      }
      let f1 = 0.0;
      let p = 0.0;
      let rc = 0.0;
      const zero = hotpot && !same && (predSpecial || (refLen == 1 && isHotpotSpecial(<usize>load<u32>(rr), <i32>load<u32>(rr, 4))));
      if (common > 0 && !zero) {
        p = <f64>common / <f64>predLen;
        rc = <f64>common / <f64>refLen;
        f1 = (2 * p * rc) / (p + rc);
      }
      if (f1 > bestF1) {
        bestF1 = f1;
        bestP = p;
        bestR = rc;
      }
      release(m1);
    }
    if (bestF1 < 0) bestF1 = 0; // no reference (the JS side rejects that)
    const o = out + (<usize>i * 24);
    store<f64>(o, bestF1);
    store<f64>(o, bestP, 8);
    store<f64>(o, bestR, 16);
    release(m0);
  }
}

/** The reference table of a one-item batch: references are strings 1..nStr-1. */
const ONE_ITEM = memory.data(8);

/**
 * Token F1 of one prediction (string 0) against its references (strings 1..nStr-1) in one call, as one
 * item of `tokenF1Batch`: [f1, precision, recall] at `out`. `b`..`f` are unused (the shared per-call
 * signature).
 */
export function tokenF1Sentence(
  bytes: usize, strOffs: usize, nStr: i32, flags: i32, b: i32, c: i32, d: i32, e: i32, f: i32, out: usize,
): void {
  store<u32>(ONE_ITEM, 1);
  store<u32>(ONE_ITEM, <u32>nStr, 4);
  tokenF1Batch(1, bytes, strOffs, ONE_ITEM, out, flags);
}
