// TER as sacreBLEU 2.6.0 computes it (`sacrebleu.metrics.TER`, `lib_ter.translation_edit_rate`, the
// `TercomTokenizer`): tercom tokenisation and normalisation, shifts searched greedily with tercom's ranking
// and limits (shift size 10, distance 50, 1000 candidates per sentence), a beam edit distance around the
// length-ratio diagonal (width 25), best reference by edits, average reference length, corpus = summed
// edits / summed average reference lengths, ×100.
//
// Everything here is integer arithmetic except the average reference length and the final division,
// which are the same IEEE operations as Python's, so results are bit-exact in every runtime. Words are
// interned to integers per segment; edit-distance rows are reused across shift candidates (sacreBLEU's
// prefix-trie cache saves work only: every row depends on the hypothesis prefix and its fixed length).
import { InputTooLargeError, InvalidArgumentError, describe } from "./errors.js";
import { INPUT_LIMITS, checkPairSizes } from "./limits.js";
import { pythonLower, pythonLowerBatch } from "./normalize.js";
import { NULLS, optionBool, pairBatch, referenceList, requireString } from "./validate.js";

export interface TerOptions {
  /** tercom normalisation: punctuation split, XML entities, line joins (default false). */
  readonly normalized?: boolean;
  /** Remove punctuation (default false). */
  readonly noPunct?: boolean;
  /** Asian (CJK) character handling, with `normalized` and/or `noPunct` (default false). */
  readonly asianSupport?: boolean;
  /** Keep case (default false: Python `str.lower()`). */
  readonly caseSensitive?: boolean;
}

export interface ResolvedTerOptions {
  readonly normalized: boolean;
  readonly noPunct: boolean;
  readonly asianSupport: boolean;
  readonly caseSensitive: boolean;
}

/** sacreBLEU's `TERScore`: `score` on 0–100 (lower is better), edits and the (summed average) reference length. */
export interface TerResult {
  readonly score: number;
  readonly numEdits: number;
  readonly refLength: number;
}

/** Statistics per segment: [numEdits, refLength]. */
export const TER_STATISTICS_WIDTH = 2;

const OPTION_KEYS = ["normalized", "noPunct", "asianSupport", "caseSensitive"];

export function resolveTerOptions(options: TerOptions | undefined): ResolvedTerOptions {
  if (options === undefined) return { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false };
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError(`TER options must be an object, got ${describe(options)}`, { argument: "options", actual: describe(options) });
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new InvalidArgumentError(`TER has no option ${JSON.stringify(key)}; its options are ${OPTION_KEYS.join(", ")}`, {
        argument: `options.${key}`,
        expected: OPTION_KEYS.join(" | "),
        actual: key,
      });
    }
  }
  return {
    normalized: optionBool(options.normalized, "options.normalized", false),
    noPunct: optionBool(options.noPunct, "options.noPunct", false),
    asianSupport: optionBool(options.asianSupport, "options.asianSupport", false),
    caseSensitive: optionBool(options.caseSensitive, "options.caseSensitive", false),
  };
}

// ------------------------------------------------------------------------------- tokenizer

/** Python's `str.isspace()` set (what `\s`, `split()` and `rstrip()` use on str). */
const WS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_RUN = new RegExp(`[${WS}]+`, "gu");
const WS_LEAD = new RegExp(`^[${WS}]+`, "u");
const WS_TRAIL = new RegExp(`[${WS}]+$`, "u");
const WS_SPLIT = new RegExp(`[${WS}]+`, "u");

const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/gu;
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/gu;

function rstrip(s: string): string {
  return s.replace(WS_TRAIL, "");
}

/** tercom's general and Western normalisation (`_normalize_general_and_western`). */
function normalizeWestern(sent: string): string {
  sent = sent.replace(/\n-/g, "").replace(/\n/g, " ");
  sent = sent.replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  sent = ` ${sent} `;
  sent = sent.replace(/([{-~[-` -&(-+:-@/])/gu, " $1 ");
  sent = sent.replace(/'s /g, " 's ");
  sent = sent.replace(/'s(?=\n?$)/, " 's"); // Python's `$`: the end, or before a final newline
  sent = sent.replace(/([^0-9])([.,])/gu, "$1 $2 ");
  sent = sent.replace(/([.,])([^0-9])/gu, " $1 $2");
  sent = sent.replace(/([0-9])(-)/g, "$1 $2 ");
  return sent;
}

/** tercom's Asian normalisation (`_normalize_asian`), ranges and quirks as sacreBLEU writes them. */
function normalizeAsian(sent: string): string {
  sent = sent.replace(/([\u4e00-\u9fff\u3400-\u4dbf])/gu, " $1 ");
  sent = sent.replace(/([\u31c0-\u31ef\u2e80-\u2eff])/gu, " $1 ");
  sent = sent.replace(/([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/gu, " $1 ");
  sent = sent.replace(/([\u3200-\u3f22])/gu, " $1 ");
  // `(^|^[kana])([kana]+)(?=$|^[kana])`: only a string that is one kana run from its start to its end matches
  sent = sent.replace(/(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(/(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(/(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(ASIAN_PUNCT, " $1 ");
  sent = sent.replace(FULL_WIDTH_PUNCT, " $1 ");
  return sent;
}

/** sacreBLEU `TER._preprocess_segment` then `.split()`: the words of one segment. */
export function terTokenize(text: string, options?: TerOptions): string[] {
  requireString(text, "text");
  return words(text, resolveTerOptions(options));
}

function words(text: string, o: ResolvedTerOptions): string[] {
  return preprocessed(o.caseSensitive ? text : pythonLower(text), o);
}

/**
 * The words of a string already lowercased when asked (`str.lower()` keeps whitespace where it is, so
 * lowering before `rstrip` gives the same words).
 */
function preprocessed(text: string, o: ResolvedTerOptions): string[] {
  let sent = rstrip(text);
  if (sent === "") return [];
  if (o.normalized) {
    sent = normalizeWestern(sent);
    if (o.asianSupport) sent = normalizeAsian(sent);
    sent = sent.replace(WS_RUN, " ").replace(WS_LEAD, "").replace(WS_TRAIL, "");
  }
  if (o.noPunct) {
    sent = sent.replace(/[.,?:;!"()]/g, "");
    if (o.asianSupport) sent = sent.replace(ASIAN_PUNCT, "").replace(FULL_WIDTH_PUNCT, "");
  }
  const out = sent.split(WS_SPLIT);
  if (out.length > 0 && out[0] === "") out.shift();
  if (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

// ------------------------------------------------------------------------------- edit rate

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
class TerEngine {
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
    }
    for (let i = 0; i < nh; i++) this.cur[i] = words[hypAt + i]!;
    for (let j = 0; j < nr; j++) this.ref[j] = words[refAt + j]!;
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
    outer: for (let startH = 0; startH < nh; startH++) {
      const fromR = Math.max(0, startH - MAX_SHIFT_DIST);
      const toR = Math.min(nr, startH + MAX_SHIFT_DIST + 1);
      for (let startR = fromR; startR < toR; startR++) {
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
      copyRange(out, copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, target), w, n, start, start + length), w, n, target, start), w, n, start + length, n);
      return target < 0 ? 0 : target;
    }
    if (target > start + length) {
      copyRange(out, copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, start), w, n, start + length, target), w, n, start, start + length), w, n, target, n);
      return start;
    }
    copyRange(out, copyRange(out, copyRange(out, copyRange(out, 0, w, n, 0, start), w, n, start + length, length + target), w, n, start, start + length), w, n, length + target, n);
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

const ENGINE = new TerEngine();

/** Words of one segment's strings as ids (shared within the segment). */
let segmentWords = new Int32Array(1024);

/**
 * The segment's vocabulary: an open-addressed table of (hash, string, start, length) → id, emptied per
 * segment by a generation stamp; words are compared in place, so no substring is made.
 */
let tabMask = 1023;
let tabGen = new Int32Array(1024);
let tabHash = new Int32Array(1024);
let tabFrom = new Int32Array(1024);
let tabLen = new Int32Array(1024);
let tabId = new Int32Array(1024);
let tabStr: string[] = new Array<string>(1024).fill("");
let generation = 0;
let vocabSize = 0;

/** After a call: a table grown for a long segment is dropped (it holds references to that call's strings). */
function endCall(): void {
  if (tabMask <= 4095) return;
  tabMask = 1023;
  tabGen = new Int32Array(1024);
  tabHash = new Int32Array(1024);
  tabFrom = new Int32Array(1024);
  tabLen = new Int32Array(1024);
  tabId = new Int32Array(1024);
  tabStr = new Array<string>(1024).fill("");
  generation = 0;
}

function beginSegment(): void {
  if (++generation === 0x7fffffff) {
    tabGen.fill(0);
    generation = 1;
  }
  vocabSize = 0;
}

function growTable(): void {
  const size = 2 * (tabMask + 1);
  const [g, h, f, l, d, st] = [tabGen, tabHash, tabFrom, tabLen, tabId, tabStr];
  tabGen = new Int32Array(size);
  tabHash = new Int32Array(size);
  tabFrom = new Int32Array(size);
  tabLen = new Int32Array(size);
  tabId = new Int32Array(size);
  tabStr = new Array<string>(size).fill("");
  tabMask = size - 1;
  for (let k = 0; k < g.length; k++) {
    if (g[k] !== generation) continue;
    let slot = h[k]! & tabMask;
    while (tabGen[slot] === generation) slot = (slot + 1) & tabMask;
    tabGen[slot] = generation;
    tabHash[slot] = h[k]!;
    tabFrom[slot] = f[k]!;
    tabLen[slot] = l[k]!;
    tabId[slot] = d[k]!;
    tabStr[slot] = st[k]!;
  }
}

/** The id of the word `s[from…to)` whose hash is `hash`. */
function internWord(s: string, from: number, to: number, hash: number): number {
  hash ^= hash >>> 15;
  const len = to - from;
  let slot = hash & tabMask;
  for (;;) {
    if (tabGen[slot] !== generation) break;
    if (tabHash[slot] === hash && tabLen[slot] === len) {
      const t = tabStr[slot]!;
      const f = tabFrom[slot]!;
      let k = 0;
      while (k < len && t.charCodeAt(f + k) === s.charCodeAt(from + k)) k++;
      if (k === len) return tabId[slot]!;
    }
    slot = (slot + 1) & tabMask;
  }
  tabGen[slot] = generation;
  tabHash[slot] = hash;
  tabFrom[slot] = from;
  tabLen[slot] = len;
  tabStr[slot] = s;
  tabId[slot] = vocabSize;
  if (2 * ++vocabSize > tabMask) growTable();
  return vocabSize - 1;
}

function pushWord(at: number, id: number): void {
  if (segmentWords.length <= at) {
    const grown = new Int32Array(2 * (at + 1));
    grown.set(segmentWords);
    segmentWords = grown;
  }
  segmentWords[at] = id;
}

function internInto(ws: readonly string[], at: number): number {
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    let hash = 0x811c9dc5;
    for (let k = 0; k < w.length; k++) hash = Math.imul(hash ^ w.charCodeAt(k), 0x01000193);
    pushWord(at + i, internWord(w, 0, w.length, hash));
  }
  return ws.length;
}

/**
 * Python `str.split()` of `s` (already lowercased as needed), each word interned, ids written from `at`;
 * returns the word count.
 */
function splitInterned(s: string, at: number): number {
  const n = s.length;
  let count = 0;
  let i = 0;
  for (;;) {
    let c = 0;
    while (i < n && isPySpace((c = s.charCodeAt(i)))) i++;
    if (i >= n) return count;
    const from = i;
    let hash = 0x811c9dc5;
    do {
      hash = Math.imul(hash ^ c, 0x01000193);
      if (++i >= n) break;
      c = s.charCodeAt(i);
    } while (!isPySpace(c));
    pushWord(at + count++, internWord(s, from, i, hash));
  }
}

/** Python `str.isspace()` of one UTF-16 unit. */
function isPySpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13) || c >= 0x1c;
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Words of one (already lowercased, if asked) string, interned from `at`; returns the word count. */
function segmentString(text: string, o: ResolvedTerOptions, at: number): number {
  if (!o.normalized && !o.noPunct) return splitInterned(text, at);
  return internInto(preprocessed(text, o), at);
}

/** Segment statistics: [best edits over the references, average reference length]. */
function segment(hyp: string, refs: readonly string[], o: ResolvedTerOptions, out: Float64Array, at: number, index: number): void {
  beginSegment();
  const nh = segmentString(hyp, o, 0);
  let best = Infinity;
  let lengths = 0;
  for (const ref of refs) {
    const nr = segmentString(ref, o, nh);
    // the shift search costs about hyp words × ref words per candidate: bounded before it starts
    const cells = nh * nr;
    if (cells > INPUT_LIMITS.maxTerWordPairs) {
      throw new InputTooLargeError(
        `TER of hyps[${index}] compares ${nh} × ${nr} = ${cells} word pairs, over its limit of ${INPUT_LIMITS.maxTerWordPairs} (INPUT_LIMITS.maxTerWordPairs): its time grows faster than the product of the lengths`,
        { argument: "hyps", index, expected: `at most ${INPUT_LIMITS.maxTerWordPairs} word pairs`, actual: `${cells} word pairs`, kind: "pair", limit: INPUT_LIMITS.maxTerWordPairs, size: cells, unit: "word pairs" },
      );
    }
    const edits = ENGINE.editRate(segmentWords, 0, nh, nh, nr, vocabSize);
    lengths += nr;
    if (edits < best) best = edits;
  }
  out[at] = best;
  out[at + 1] = lengths / refs.length;
}

const NON_ASCII = /[^\0-\x7f]/;
/** Pairs lowercased per crossing into the kernel. */
const LOWER_CHUNK = 1024;

function statistics(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedTerOptions): Float64Array {
  checkPairSizes(hyps, refs, "hyps", "refs", false);
  const out = new Float64Array(hyps.length * TER_STATISTICS_WIDTH);
  try {
    if (o.caseSensitive) {
      for (let i = 0; i < hyps.length; i++) segment(hyps[i]!, refs[i]!, o, out, i * TER_STATISTICS_WIDTH, i);
    } else lowercasedSegments(hyps, refs, o, out);
  } finally {
    endCall();
  }
  return out;
}

function lowercasedSegments(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedTerOptions, out: Float64Array): void {
  // Python `str.lower()`: ASCII strings here, the others in one crossing per chunk of pairs
  const lowered: string[] = [];
  const pending: string[] = [];
  const slots: number[] = [];
  for (let from = 0; from < hyps.length; from += LOWER_CHUNK) {
    const to = Math.min(hyps.length, from + LOWER_CHUNK);
    lowered.length = 0;
    pending.length = 0;
    slots.length = 0;
    for (let i = from; i < to; i++) {
      for (let r = -1; r < refs[i]!.length; r++) {
        const s = r < 0 ? hyps[i]! : refs[i]![r]!;
        if (NON_ASCII.test(s)) {
          slots.push(lowered.length);
          pending.push(s);
          lowered.push("");
        } else lowered.push(s.toLowerCase());
      }
    }
    if (pending.length > 0) {
      const done = pythonLowerBatch(pending);
      for (let k = 0; k < done.length; k++) lowered[slots[k]!] = done[k]!;
    }
    let k = 0;
    for (let i = from; i < to; i++) {
      const h = lowered[k++]!;
      const rs = refs[i]!;
      const lr = rs.length === 1 ? [lowered[k]!] : lowered.slice(k, k + rs.length);
      k += rs.length;
      segment(h, lr, o, out, i * TER_STATISTICS_WIDTH, i);
    }
  }
}

/** sacreBLEU `TER._compute_score_from_stats`. */
function score(numEdits: number, refLength: number): number {
  if (refLength > 0) return 100 * (numEdits / refLength);
  return numEdits > 0 ? 100 * 1.0 : 100 * 0.0;
}

// ------------------------------------------------------------------------------- public API

/**
 * sacreBLEU `TER().sentence_score(hyp, refs)`.
 * @example sentenceTer("the cat sat on mat", ["the cat sat on the mat"]).score // 16.666…
 */
export function sentenceTer(hyp: string, refs: readonly (string | null)[], options?: TerOptions): TerResult {
  requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined, NULLS);
  const o = resolveTerOptions(options);
  const s = statistics([hyp], [r], o);
  return { score: score(s[0]!, s[1]!), numEdits: s[0]!, refLength: s[1]! };
}

/** Segment statistics for many pairs: n × 2 f64, rows of [numEdits, refLength]. Sum rows for a corpus. */
export function terStatisticsBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: TerOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  return statistics(b.hyps, b.refs, resolveTerOptions(options));
}

/** Sentence TER scores (0–100) for many pairs. */
export function sentenceTerBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: TerOptions,
): Float64Array {
  return terScoresFromStatisticsBatch(terStatisticsBatch(hyps, refs, options));
}

/**
 * sacreBLEU `TER().corpus_score(hyps, [refs…])`: edits and average reference lengths summed in segment
 * order, then one score. `refs[i]` holds the references of `hyps[i]`; `null` (a padded stream's `None`) is dropped.
 */
export function corpusTer(hyps: readonly string[], refs: readonly (readonly (string | null)[])[], options?: TerOptions): TerResult {
  const b = pairBatch(hyps, refs, NULLS);
  const s = statistics(b.hyps, b.refs, resolveTerOptions(options));
  let edits = 0;
  let length = 0;
  for (let i = 0; i < s.length; i += 2) {
    edits += s[i]!;
    length += s[i + 1]!;
  }
  return { score: score(edits, length), numEdits: edits, refLength: length };
}

function checkStatistic(v: unknown, what: string, integer: boolean): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > Number.MAX_SAFE_INTEGER || (integer && !Number.isInteger(v))) {
    throw new InvalidArgumentError(`TER statistics: ${what} must be a finite non-negative ${integer ? "integer" : "number"}, got ${describe(v)}`, {
      argument: "statistics",
      actual: describe(v),
    });
  }
  return v;
}

/**
 * The score, refused when it is not finite: a reference length is an average of word counts, so a
 * positive one so small that edits / length overflows (numEdits 1, refLength 5e-324 gave Infinity)
 * cannot come from text.
 */
function finiteScore(numEdits: number, refLength: number, index?: number): number {
  const s = score(numEdits, refLength);
  if (!Number.isFinite(s)) {
    throw new InvalidArgumentError(`TER statistics: numEdits ${numEdits} over refLength ${refLength} is no possible score`, {
      argument: index === undefined ? "statistics" : "stats",
      index,
      expected: "a refLength that is 0 or an average of word counts",
      actual: String(refLength),
    });
  }
  return s;
}

/** The score of (summed) statistics `{ numEdits, refLength }` — sacreBLEU `_compute_score_from_stats`. */
export function terFromStatistics(statistics: { readonly numEdits: number; readonly refLength: number }): TerResult {
  if (typeof statistics !== "object" || statistics === null) {
    throw new InvalidArgumentError("TER statistics must be an object { numEdits, refLength }", { argument: "statistics", actual: describe(statistics) });
  }
  const e = checkStatistic(statistics.numEdits, "numEdits", true);
  const l = checkStatistic(statistics.refLength, "refLength", false);
  return { score: finiteScore(e, l), numEdits: e, refLength: l };
}

/** Scores from n statistics rows (as returned by `terStatisticsBatch`, or summed rows): one f64 per row. */
export function terScoresFromStatisticsBatch(stats: Float64Array): Float64Array {
  if (!(stats instanceof Float64Array) || stats.length % TER_STATISTICS_WIDTH !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${TER_STATISTICS_WIDTH}`, {
      argument: "stats",
      expected: `Float64Array(n × ${TER_STATISTICS_WIDTH})`,
      actual: describe(stats),
    });
  }
  const out = new Float64Array(stats.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = finiteScore(checkStatistic(stats[2 * i], "numEdits", false), checkStatistic(stats[2 * i + 1], "refLength", false), 2 * i + 1);
  }
  return out;
}

/** sacreBLEU's TER signature (`nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`). */
export function terSignature(options: TerOptions | undefined, nrefs: number | "var"): string {
  const o = resolveTerOptions(options);
  return `nrefs:${nrefs}|case:${o.caseSensitive ? "mixed" : "lc"}|tok:tercom|norm:${o.normalized ? "yes" : "no"}|punct:${o.noPunct ? "no" : "yes"}|asian:${o.asianSupport ? "yes" : "no"}|version:2.6.0`;
}
