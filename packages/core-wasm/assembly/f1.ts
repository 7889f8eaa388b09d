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

import { alloc, allocZero, mark, release } from "./mem";
import { Intern, internInit, intern, NONE } from "./hash";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { normalizeUtf8, lowerTokensUtf8, tokLen } from "./normalize";

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
