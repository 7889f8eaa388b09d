// Multiple-choice argmax (lm-evaluation-harness `process_results`, NeMo BYOB `multiple_choice_acc`):
// per question, the first index of the maximum of ll, ll/chars, ll/bytes and ll/max(bytes, 1).
// Division follows IEEE (numpy): x/0 is ±inf, 0/0 is NaN, and numpy's argmax returns the first NaN.

import { strLen, strPtr } from "./batch";

function codePointCount(p: usize, byteLen: i32): i32 {
  let n = 0;
  for (let i = 0; i < byteLen; i++) if ((load<u8>(p + i) & 0xc0) != 0x80) n++;
  return n;
}

// @ts-ignore: decorator
@inline function better(v: f64, best: f64): bool {
  return v > best;
}

/**
 * `q` questions; question j has choices (strings) choiceStart[j] .. choiceStart[j+1]-1 and one f64
 * log-likelihood per choice at `lls` (same indexing). Writes 4 f64 per question at `out`:
 * [argmax ll, argmax ll/chars, argmax ll/bytes, argmax ll/max(bytes,1)].
 */
export function mcArgmaxBatch(q: i32, bytes: usize, strOffs: usize, choiceStart: usize, lls: usize, out: usize): void {
  for (let j = 0; j < q; j++) {
    const c0 = <i32>load<u32>(choiceStart + (<usize>j << 2));
    const c1 = <i32>load<u32>(choiceStart + (<usize>j << 2), 4);
    for (let kind = 0; kind < 4; kind++) {
      let bestIdx = -1;
      let best: f64 = -Infinity;
      for (let c = c0; c < c1; c++) {
        const ll = load<f64>(lls + (<usize>c << 3));
        let v: f64 = ll;
        if (kind == 1) v = ll / <f64>codePointCount(strPtr(bytes, strOffs, c), strLen(strOffs, c));
        else if (kind == 2) v = ll / <f64>strLen(strOffs, c);
        else if (kind == 3) {
          const b = strLen(strOffs, c);
          v = ll / <f64>(b > 1 ? b : 1);
        }
        if (isNaN(v)) {
          bestIdx = c - c0;
          break;
        }
        if (bestIdx < 0 || better(v, best)) {
          best = v;
          bestIdx = c - c0;
        }
      }
      store<f64>(out + (<usize>(j * 4 + kind) << 3), <f64>bestIdx);
    }
  }
}
