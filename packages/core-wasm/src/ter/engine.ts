// TER's edit rate: sacreBLEU 2.6.0 `lib_ter.translation_edit_rate` over words interned to integers (see
// interning.ts): shifts searched greedily with tercom's ranking and limits, and a beam edit distance.
import { InvalidArgumentError } from "../errors.js";

const MAX_SHIFT_SIZE = 10;
const MAX_SHIFT_DIST = 50;
const BEAM_WIDTH = 25;
const MAX_SHIFT_CANDIDATES = 1000;
const INF = 0x3fffffff; // sacreBLEU's int(1e16): larger than any real cost, INF + 1 still fits

const OP_NOP = 0;
const OP_SUB = 1;
const OP_INS = 2;
const OP_DEL = 3;
const OP_UNDEF = 4;

/**
 * sacreBLEU's `translation_edit_rate` for one hypothesis and one reference, words interned to small ids.
 *
 * sacreBLEU caches edit-distance rows in a prefix trie; every row depends only on the hypothesis prefix
 * (all candidates have the hypothesis's length, so the beam is fixed), so any reuse of rows gives the same
 * numbers. Here the rows of the current hypothesis (region A, traced) and of the last candidate (region B)
 * are kept, and a candidate starts from the longer common prefix with either. When the beam covers the
 * whole table (the reference is short: ≤ 25 words at the usual length ratios) the beam distance is the
 * plain Levenshtein distance, and a candidate's distance comes from Myers' bit-parallel recurrence over
 * the reference's word bitmasks instead (≤ 32 reference words; one 32-bit word per hypothesis word),
 * started from the state of the common prefix with the current hypothesis.
 */
export class TerEngine {
  private nh = 0;
  private nr = 0;
  private W = 1;
  private lengthRatio = 1;
  private beam = BEAM_WIDTH;
  private bitParallel = false;

  /** Words of the reference, of the current hypothesis, of the candidate and of the last DP candidate. */
  private ref = new Int32Array(64);
  private cur = new Int32Array(64);
  private cand = new Int32Array(64);
  private last = new Int32Array(64);
  private lastValid = false;
  private best = new Int32Array(64);

  /** Rows: region A (rows 0…nh, the current hypothesis, with operations) then region B (rows nh+1…2nh+1). */
  private cost = new Int32Array(4096);
  private op = new Uint8Array(2048);
  /** Row of each depth of the last DP candidate. */
  private path = new Int32Array(64);

  /** Bit-parallel: reference word masks by id, and the state after each prefix of the current hypothesis. */
  private peq = new Int32Array(256);
  private bpP = new Int32Array(64);
  private bpM = new Int32Array(64);
  private bpS = new Int32Array(64);

  /** Reference positions by word: the first of each id (-1: none) and the next of the same word (-1: last). */
  private firstAt = new Int32Array(256);
  private nextAt = new Int32Array(64);

  /** The trace of the current hypothesis, and its alignment. */
  private trace = new Uint8Array(128);
  private traceLength = 0;
  private align = new Int32Array(64);
  private hypErr = new Uint8Array(64);
  private refErr = new Uint8Array(64);

  /** Edits of `hyp[hypAt…hypAt+nh)` against `ref[refAt…refAt+nr)` (sacreBLEU `translation_edit_rate`), ids < vocab. */
  editRate(words: Int32Array, hypAt: number, nh: number, refAt: number, nr: number, vocab: number): number {
    if (nr === 0) return nh;
    this.setup(words, hypAt, nh, refAt, nr, vocab);
    let shifts = 0;
    let checked = 0;
    for (;;) {
      const preScore = this.tracedDistance();
      if (nh === 0) return shifts + preScore;
      const r = this.shiftOnce(preScore, checked);
      checked = r;
      if (checked >= MAX_SHIFT_CANDIDATES || this.bestDelta <= 0) return shifts + preScore;
      shifts++;
      const t = this.cur;
      this.cur = this.best;
      this.best = t;
    }
  }

  private setup(words: Int32Array, hypAt: number, nh: number, refAt: number, nr: number, vocab: number): void {
    this.nh = nh;
    this.nr = nr;
    const W = (this.W = nr + 1);
    const words1 = Math.max(nh, nr) + 1;
    if (this.cur.length < words1) {
      const size = 2 * words1;
      this.ref = new Int32Array(size);
      this.cur = new Int32Array(size);
      this.cand = new Int32Array(size);
      this.last = new Int32Array(size);
      this.best = new Int32Array(size);
      this.path = new Int32Array(size);
      this.bpP = new Int32Array(size);
      this.bpM = new Int32Array(size);
      this.bpS = new Int32Array(size);
      this.align = new Int32Array(size);
      this.hypErr = new Uint8Array(size);
      this.refErr = new Uint8Array(size);
      this.trace = new Uint8Array(2 * size);
      this.nextAt = new Int32Array(size);
    }
    for (let i = 0; i < nh; i++) this.cur[i] = words[hypAt + i]!;
    for (let j = 0; j < nr; j++) this.ref[j] = words[refAt + j]!;
    // the shift search visits only reference positions holding the hypothesis word, in ascending order
    if (this.firstAt.length < vocab) this.firstAt = new Int32Array(2 * vocab);
    const firstAt = this.firstAt;
    const nextAt = this.nextAt;
    firstAt.fill(-1, 0, vocab);
    for (let j = nr - 1; j >= 0; j--) {
      const id = this.ref[j]!;
      nextAt[j] = firstAt[id]!;
      firstAt[id] = j;
    }
    const cells = (nh + 1) * W;
    if (this.op.length < cells) this.op = new Uint8Array(2 * cells);
    if (this.cost.length < 2 * cells) this.cost = new Int32Array(4 * cells);
    for (let j = 0; j <= nr; j++) {
      this.cost[j] = j;
      this.op[j] = OP_INS;
    }
    // the beam (sacreBLEU's, from the length ratio; fixed, as every shifted hypothesis has nh words)
    const lengthRatio = (this.lengthRatio = nh > 0 ? nr / nh : 1);
    const beam = (this.beam = BEAM_WIDTH < lengthRatio / 2 ? Math.ceil(lengthRatio / 2 + BEAM_WIDTH) : BEAM_WIDTH);
    let full = nr <= 32;
    for (let i = 1; full && i <= nh; i++) {
      const pseudoDiag = Math.floor(i * lengthRatio);
      if (pseudoDiag - beam > 0 || (i < nh && pseudoDiag + beam < nr + 1)) full = false;
    }
    this.bitParallel = full;
    if (full) {
      if (this.peq.length < vocab) this.peq = new Int32Array(2 * vocab);
      const peq = this.peq;
      peq.fill(0, 0, vocab);
      for (let j = 0; j < nr; j++) {
        const id = this.ref[j]!;
        peq[id] = peq[id]! | (1 << j);
      }
    }
  }

  /** Beam edit distance of the current hypothesis into region A, with its trace (rewriting hyp → ref). */
  private tracedDistance(): number {
    const nh = this.nh;
    const nr = this.nr;
    const W = this.W;
    const cost = this.cost;
    const op = this.op;
    const ref = this.ref;
    const hyp = this.cur;
    const lengthRatio = this.lengthRatio;
    const beam = this.beam;
    // a beam that covers the table sets every cell: no row needs its INF/UNDEF fill
    const full = this.bitParallel;
    for (let i = 1; i <= nh; i++) {
      const at = i * W;
      const pat = at - W;
      if (!full) {
        cost.fill(INF, at, at + W);
        op.fill(OP_UNDEF, at, at + W);
      }
      const pseudoDiag = Math.floor(i * lengthRatio);
      const minJ = Math.max(0, pseudoDiag - beam);
      const maxJ = i === nh ? nr + 1 : Math.min(nr + 1, pseudoDiag + beam);
      const word = hyp[i - 1]!;
      let j = minJ;
      if (j === 0) {
        cost[at] = cost[pat]! + 1;
        op[at] = OP_DEL;
        j = 1;
      }
      for (; j < maxJ; j++) {
        const same = word === ref[j - 1];
        let best = cost[pat + j - 1]! + (same ? 0 : 1);
        let bestOp = same ? OP_NOP : OP_SUB;
        if (best >= INF) {
          // an unset cell keeps INF unless an operation is strictly cheaper (as sacreBLEU's comparisons)
          best = INF;
          bestOp = OP_UNDEF;
        }
        const del = cost[pat + j]! + 1;
        if (best > del) {
          best = del;
          bestOp = OP_DEL;
        }
        const ins = cost[at + j - 1]! + 1;
        if (best > ins) {
          best = ins;
          bestOp = OP_INS;
        }
        cost[at + j] = best;
        op[at + j] = bestOp;
      }
    }
    const total = cost[nh * W + nr]!;
    if (this.trace.length < nh + nr) this.trace = new Uint8Array(2 * (nh + nr));
    const rev = this.trace;
    let len = 0;
    let i = nh;
    let j = nr;
    while (i > 0 || j > 0) {
      const o = op[i * W + j]!;
      rev[len++] = o;
      if (o === OP_SUB || o === OP_NOP) {
        i--;
        j--;
      } else if (o === OP_INS) j--;
      else if (o === OP_DEL) i--;
      else throw new InvalidArgumentError("internal: TER edit trace reached an unset cell", { argument: "hyp" });
    }
    rev.subarray(0, len).reverse();
    this.traceLength = len;
    this.lastValid = false;
    if (this.bitParallel) {
      // Myers' state after each prefix of the current hypothesis (pattern: the reference)
      const peq = this.peq;
      const lst = 1 << (nr - 1);
      let pv = -1;
      let mv = 0;
      let sc = nr;
      this.bpP[0] = pv;
      this.bpM[0] = mv;
      this.bpS[0] = sc;
      for (let k = 0; k < nh; k++) {
        let eq = peq[hyp[k]!]!;
        const xv = eq | mv;
        eq |= ((eq & pv) + pv) ^ pv;
        mv |= ~(eq | pv);
        pv &= eq;
        if (mv & lst) sc++;
        if (pv & lst) sc--;
        mv = (mv << 1) | 1;
        pv = (pv << 1) | ~(xv | mv);
        mv &= xv;
        this.bpP[k + 1] = pv;
        this.bpM[k + 1] = mv;
        this.bpS[k + 1] = sc;
      }
      if (sc !== total) throw new InvalidArgumentError("internal: TER bit-parallel distance differs from the beam", { argument: "hyp" });
    }
    return total;
  }

  /** Distance of the candidate in `cand`, whose first `known` words are the current hypothesis's. */
  private candidateDistance(known: number): number {
    const nh = this.nh;
    const cand = this.cand;
    if (this.bitParallel) {
      const peq = this.peq;
      const lst = 1 << (this.nr - 1);
      let pv = this.bpP[known]!;
      let mv = this.bpM[known]!;
      let sc = this.bpS[known]!;
      for (let k = known; k < nh; k++) {
        let eq = peq[cand[k]!]!;
        const xv = eq | mv;
        eq |= ((eq & pv) + pv) ^ pv;
        mv |= ~(eq | pv);
        pv &= eq;
        if (mv & lst) sc++;
        if (pv & lst) sc--;
        mv = (mv << 1) | 1;
        pv = (pv << 1) | ~(xv | mv);
        mv &= xv;
      }
      return sc;
    }
    // common prefix with the current hypothesis (region A) or with the last candidate (its path)
    const cur = this.cur;
    let p = known;
    while (p < nh && cand[p] === cur[p]) p++;
    const path = this.path;
    let q = 0;
    if (this.lastValid) {
      const last = this.last;
      while (q < nh && cand[q] === last[q]) q++;
    }
    if (q <= p) {
      for (let i = 0; i <= p; i++) path[i] = i;
    } else p = q;
    const nr = this.nr;
    const W = this.W;
    const cost = this.cost;
    const ref = this.ref;
    const lengthRatio = this.lengthRatio;
    const beam = this.beam;
    for (let i = p + 1; i <= nh; i++) {
      const row = nh + 1 + i;
      const at = row * W;
      const pat = path[i - 1]! * W;
      cost.fill(INF, at, at + W);
      const pseudoDiag = Math.floor(i * lengthRatio);
      const minJ = Math.max(0, pseudoDiag - beam);
      const maxJ = i === nh ? nr + 1 : Math.min(nr + 1, pseudoDiag + beam);
      const word = cand[i - 1]!;
      let j = minJ;
      if (j === 0) {
        cost[at] = cost[pat]! + 1;
        j = 1;
      }
      for (; j < maxJ; j++) {
        let best = cost[pat + j - 1]! + (word === ref[j - 1] ? 0 : 1);
        if (best > INF) best = INF;
        const del = cost[pat + j]! + 1;
        if (best > del) best = del;
        const ins = cost[at + j - 1]! + 1;
        if (best > ins) best = ins;
        cost[at + j] = best;
      }
      path[i] = row;
    }
    // the candidate's words become the last candidate's
    this.cand = this.last;
    this.last = cand;
    this.lastValid = true;
    return cost[path[nh]! * W + nr]!;
  }

  private bestDelta = 0;

  /**
   * sacreBLEU `_shift`: every candidate shift of the current hypothesis, ranked by tercom's rule (gain,
   * then longer, then earlier start, then earlier target); the best one's words go to `best` and its
   * gain to `bestDelta`. Returns the candidates checked so far.
   */
  private shiftOnce(preScore: number, checked: number): number {
    const nh = this.nh;
    const nr = this.nr;
    const hyp = this.cur;
    const ref = this.ref;
    const trace = this.trace;
    const align = this.align;
    const hypErr = this.hypErr;
    const refErr = this.refErr;
    hypErr.fill(0, 0, nh);
    refErr.fill(0, 0, nr);
    align.fill(0, 0, nr);
    // alignment of the flipped trace (rewriting ref → hyp): ref position → hyp position
    let ph = -1;
    let pr = -1;
    for (let t = 0; t < this.traceLength; t++) {
      const op = trace[t]!;
      if (op === OP_NOP || op === OP_SUB) {
        ph++;
        pr++;
        align[pr] = ph;
        if (op === OP_SUB) {
          hypErr[ph] = 1;
          refErr[pr] = 1;
        }
      } else if (op === OP_DEL) {
        // flipped to an insertion: a hypothesis word
        ph++;
        hypErr[ph] = 1;
      } else {
        // OP_INS flipped to a deletion: a reference word
        pr++;
        align[pr] = ph;
        refErr[pr] = 1;
      }
    }

    let found = false;
    let bestDelta = 0;
    let bestLength = 0;
    let bestStart = 0;
    let bestIdx = 0;
    const firstAt = this.firstAt;
    const nextAt = this.nextAt;
    outer: for (let startH = 0; startH < nh; startH++) {
      const fromR = Math.max(0, startH - MAX_SHIFT_DIST);
      const toR = Math.min(nr, startH + MAX_SHIFT_DIST + 1);
      // a start whose words differ has no candidate: only the positions of this word, in ascending order
      let startR = firstAt[hyp[startH]!]!;
      while (startR !== -1 && startR < fromR) startR = nextAt[startR]!;
      for (; startR !== -1 && startR < toR; startR = nextAt[startR]!) {
        let length = 0;
        let hypWrong = 0;
        let refWrong = 0;
        while (length < MAX_SHIFT_SIZE && hyp[startH + length] === ref[startR + length]) {
          hypWrong |= hypErr[startH + length]!;
          refWrong |= refErr[startR + length]!;
          length++;
          // a candidate (startH, startR, length)
          const a = align[startR]!;
          if (hypWrong && refWrong && !(startH <= a && a < startH + length)) {
            let prevIdx = -1;
            for (let offset = -1; offset < length; offset++) {
              let idx: number;
              if (startR + offset === -1) idx = 0;
              else if (startR + offset < nr) idx = align[startR + offset]! + 1;
              else break;
              if (idx === prevIdx) continue;
              prevIdx = idx;
              const known = this.performShift(startH, length, idx);
              const delta = preScore - this.candidateDistance(known);
              checked++;
              if (
                !found ||
                delta > bestDelta ||
                (delta === bestDelta &&
                  (length > bestLength || (length === bestLength && (startH < bestStart || (startH === bestStart && idx < bestIdx)))))
              ) {
                found = true;
                bestDelta = delta;
                bestLength = length;
                bestStart = startH;
                bestIdx = idx;
              }
            }
            if (checked >= MAX_SHIFT_CANDIDATES) break outer;
          }
          if (nh === startH + length || nr === startR + length) break;
        }
      }
    }
    this.bestDelta = found ? bestDelta : 0;
    if (found && bestDelta > 0 && checked < MAX_SHIFT_CANDIDATES) {
      this.performShift(bestStart, bestLength, bestIdx);
      const t = this.best;
      this.best = this.cand;
      this.cand = t;
    }
    return checked;
  }

  /**
   * sacreBLEU `_perform_shift` of the current hypothesis (Python slice semantics included) into `cand`;
   * returns how many leading words are surely the current hypothesis's.
   */
  private performShift(start: number, length: number, target: number): number {
    const n = this.nh;
    const w = this.cur;
    const out = this.cand;
    if (target < start) {
      copyRange(
        out,
        copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, target), w, n, start, start + length), w, n, target, start),
        w,
        n,
        start + length,
        n,
      );
      return target < 0 ? 0 : target;
    }
    if (target > start + length) {
      copyRange(
        out,
        copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, start), w, n, start + length, target), w, n, start, start + length),
        w,
        n,
        target,
        n,
      );
      return start;
    }
    copyRange(
      out,
      copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, start), w, n, start + length, length + target), w, n, start, start + length),
      w,
      n,
      length + target,
      n,
    );
    return start;
  }
}

/** Appends Python's `w[from:to]` (of a list of n words) to `out` at `at`; returns the new end. */
function copyRange(out: Int32Array, at: number, w: Int32Array, n: number, from: number, to: number): number {
  const a = from < 0 ? 0 : from > n ? n : from;
  const b = to < 0 ? 0 : to > n ? n : to;
  for (let k = a; k < b; k++) out[at++] = w[k]!;
  return at;
}
