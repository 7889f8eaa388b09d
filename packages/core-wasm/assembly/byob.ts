// NeMo Evaluator BYOB (`nemo_evaluator.contrib.byob.scorers`): the statistic its ROUGE-L needs that
// the sacreBLEU and rouge-score kernels do not produce, and its own BLEU formula as a pure function of
// sacreBLEU-layout statistics.
//
// byobLcsBatch: tokens are `x.lower().split()` (BYOB's `rouge`), pair layout of assembly/batch.ts
//   (item i: hypothesis string i, its first reference string refStart[i]). Output per item, 3 f64 at
//   out + 24*i: hypothesis token count, reference token count, LCS length of the two token lists
//   (bit-parallel, Hyyrö 2004: one pass over the reference, a bit vector over hypothesis positions).
//
// byobBleuScoreBatch: rows of [sysLen, refLen, counts[4], totals[4]] (sacreBLEU statistics with the
//   "none" tokenizer and lowercase, which split on Python whitespace after str.lower(): BYOB's tokens)
//   -> 4 f64 per row, bleu_1..bleu_4 exactly as BYOB's `bleu`:
//     0 if either side has no token; bp = exp(1 - refLen/sysLen) if sysLen < refLen else 1;
//     log_avg += log((clipped + 1) / (total + 1)) / 4; bleu_n = bp * exp(log_avg * 4 / n)
//   Add-one smoothing applies even when an order has no n-gram (p_n = 1). log/exp are the table-based
//   musl/ARM routines (shrinkLevel 0), which give glibc's results, so the values match CPython's.

import { alloc, allocTable, allocZero, mark, release } from "./mem";
import { Intern, internInit, intern, NONE } from "./hash";
import { strPtr, strLen, refFirst } from "./batch";
import { lowerTokensUtf8, tokLen } from "./normalize";

/** Interns the tokens of a token string (U+0020-separated code points) into `ids`; returns the count. */
function tokenIds(table: Intern, p: usize, m: i32, ids: usize, add: bool): i32 {
  let k = 0;
  let s = 0;
  for (let j = 0; j <= m; j++) {
    if (j == m || load<u32>(p + (<usize>j << 2)) == 0x20) {
      if (j > s) {
        store<u32>(ids + (<usize>k << 2), intern(table, p + (<usize>s << 2), j - s, add));
        k++;
      }
      s = j + 1;
    }
  }
  return k;
}

export function byobLcsBatch(n: i32, bytes: usize, strOffs: usize, refStart: usize, out: usize): void {
  const table = changetype<Intern>(alloc(offsetof<Intern>()));
  for (let i = 0; i < n; i++) {
    const m0 = mark();
    const hp = lowerTokensUtf8(strPtr(bytes, strOffs, i), strLen(strOffs, i));
    const hm = tokLen;
    const r = refFirst(refStart, i);
    const rp = lowerTokensUtf8(strPtr(bytes, strOffs, r), strLen(strOffs, r));
    const rm = tokLen;
    // a token string of m code points holds at most m/2 + 1 tokens
    internInit(table, (hm >> 1) + 1);
    const hIds = alloc((<usize>(hm >> 1) + 2) << 2);
    const rIds = alloc((<usize>(rm >> 1) + 2) << 2);
    const h = tokenIds(table, hp, hm, hIds, true);
    const rl = tokenIds(table, rp, rm, rIds, false);
    let lcs = 0;
    if (h > 0 && rl > 0) {
      const w = (h + 63) >> 6;
      const masks = allocTable((<u64>table.count * <u64>w) << 3, true);
      for (let j = 0; j < h; j++) {
        const row = masks + ((<usize>load<u32>(hIds + (<usize>j << 2)) * <usize>w) << 3);
        const word = row + (<usize>(j >> 6) << 3);
        store<u64>(word, load<u64>(word) | (<u64>1 << <u64>(j & 63)));
      }
      const v = alloc(<usize>w << 3);
      memory.fill(v, 0xff, <usize>w << 3);
      for (let t = 0; t < rl; t++) {
        const id = load<u32>(rIds + (<usize>t << 2));
        if (id == NONE) continue; // no match anywhere: the vector is unchanged
        const row = masks + ((<usize>id * <usize>w) << 3);
        let carry: u64 = 0;
        for (let k = 0; k < w; k++) {
          const pv = v + (<usize>k << 3);
          const x = load<u64>(pv);
          const u = x & load<u64>(row + (<usize>k << 3));
          const sum = x + u;
          const c1: u64 = sum < x ? 1 : 0;
          const s2 = sum + carry;
          const c2: u64 = s2 < sum ? 1 : 0;
          carry = c1 | c2;
          store<u64>(pv, s2 | (x - u));
        }
      }
      const full = h >> 6;
      for (let k = 0; k < full; k++) lcs += <i32>popcnt(~load<u64>(v + (<usize>k << 3)));
      const rest = h & 63;
      if (rest != 0) lcs += <i32>popcnt(~load<u64>(v + (<usize>full << 3)) & ((<u64>1 << <u64>rest) - 1));
    }
    const o = out + <usize>i * 24;
    store<f64>(o, <f64>h);
    store<f64>(o, <f64>rl, 8);
    store<f64>(o, <f64>lcs, 16);
    release(m0);
  }
}

export function byobBleuScoreBatch(n: i32, stats: usize, out: usize): void {
  for (let i = 0; i < n; i++) {
    const row = stats + <usize>i * 80;
    const o = out + <usize>i * 32;
    const sysLen = load<f64>(row);
    const refLen = load<f64>(row, 8);
    if (sysLen == 0 || refLen == 0) {
      store<f64>(o, 0);
      store<f64>(o, 0, 8);
      store<f64>(o, 0, 16);
      store<f64>(o, 0, 24);
      continue;
    }
    const bp = sysLen < refLen ? Math.exp(1 - refLen / sysLen) : 1.0;
    let logAvg = 0.0;
    for (let k = 0; k < 4; k++) {
      const clipped = load<f64>(row + (<usize>(2 + k) << 3));
      const total = load<f64>(row + (<usize>(6 + k) << 3));
      logAvg += Math.log((clipped + 1) / (total + 1)) / 4;
      store<f64>(o + (<usize>k << 3), bp * Math.exp((logAvg * 4) / <f64>(k + 1)));
    }
  }
}
