// TER as sacreBLEU 2.6.0 computes it (`sacrebleu.metrics.TER`, `lib_ter.translation_edit_rate`, the
// `TercomTokenizer`): tercom tokenisation and normalisation, shifts searched greedily with tercom's ranking
// and limits (shift size 10, distance 50, 1000 candidates per sentence), a beam edit distance around the
// length-ratio diagonal (width 25), best reference by edits, average reference length, corpus = summed
// edits / summed average reference lengths, ×100.
//
// Everything here is integer arithmetic except the average reference length and the final division,
// which are the same IEEE operations as Python's, so results are bit-exact in every runtime. Words are
// interned to integers per segment; the edit-distance rows are cached in a prefix trie as sacreBLEU does
// (the cache saves work only: every row depends on the hypothesis prefix and its fixed length).
import { InputTooLargeError, InvalidArgumentError, describe } from "./errors.js";
import { INPUT_LIMITS, checkPairSizes } from "./limits.js";
import { pythonLower } from "./normalize.js";
import { optionBool, pairBatch, referenceList, requireString } from "./validate.js";

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
  let sent = rstrip(text);
  if (sent === "") return [];
  if (!o.caseSensitive) sent = pythonLower(sent);
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
const MAX_CACHE_SIZE = 10_000;
const MAX_SHIFT_CANDIDATES = 1000;
const INF = 0x3fffffff; // sacreBLEU's int(1e16): larger than any real cost, INF + 1 still fits

const OP_NOP = 0;
const OP_SUB = 1;
const OP_INS = 2;
const OP_DEL = 3;
const OP_UNDEF = 4;

/**
 * sacreBLEU's `BeamEditDistance` for one reference: beam search, trace, and the prefix-row cache. Rows live
 * in one growing arena; the cache is a trie whose node ids are row indices (`trie[(parent, word)] = row`).
 */
class BeamEditDistance {
  private n = 0;
  private w = 1;
  private ref: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private vocab = 1;
  private readonly trie = new Map<number, number>();
  private cacheSize = 0;
  /** Rows [0, top) are cached (row 0 is the initial row); rows past `top` are this call's scratch. */
  private top = 1;
  private cost = new Int32Array(4096);
  private op = new Uint8Array(4096);
  private path = new Int32Array(16);

  /** Start over for a new reference (the arena and trie are reused: no allocation per pair). */
  reset(ref: Int32Array, vocab: number): this {
    this.ref = ref;
    this.vocab = vocab;
    this.n = ref.length;
    this.w = this.n + 1;
    this.trie.clear();
    this.cacheSize = 0;
    this.top = 1;
    this.ensureRows(2);
    for (let j = 0; j <= this.n; j++) {
      this.cost[j] = j;
      this.op[j] = OP_INS;
    }
    return this;
  }

  private ensureRows(rows: number): void {
    if (rows * this.w <= this.cost.length) return;
    let size = this.cost.length;
    while (size < rows * this.w) size *= 2;
    const c = new Int32Array(size);
    c.set(this.cost);
    const o = new Uint8Array(size);
    o.set(this.op);
    this.cost = c;
    this.op = o;
  }

  /** Edit distance of `hyp` to the reference; with `wantTrace`, `trace` holds the operations (rewriting hyp → ref). */
  distance(hyp: Int32Array, wantTrace: boolean): number {
    const nh = hyp.length;
    const nr = this.n;
    const W = this.w;
    if (this.path.length < nh + 1) this.path = new Int32Array(2 * (nh + 1));
    const path = this.path;
    // rows from the cache
    let node = 0;
    let start = 0;
    path[0] = 0;
    while (start < nh) {
      const hit = this.trie.get(node * this.vocab + hyp[start]!);
      if (hit === undefined) break;
      node = hit;
      path[++start] = node;
    }
    // new rows: cached when the cache had room at the start of the call (as sacreBLEU), else scratch
    const keep = this.cacheSize < MAX_CACHE_SIZE;
    const first = this.top;
    this.ensureRows(first + (nh - start));
    const cost = this.cost;
    const op = this.op;
    const ref = this.ref;
    const lengthRatio = nh > 0 ? nr / nh : 1;
    const beam = BEAM_WIDTH < lengthRatio / 2 ? Math.ceil(lengthRatio / 2 + BEAM_WIDTH) : BEAM_WIDTH;
    let parent = node;
    for (let i = start + 1; i <= nh; i++) {
      const row = first + (i - start - 1);
      const at = row * W;
      const pat = path[i - 1]! * W;
      cost.fill(INF, at, at + W);
      op.fill(OP_UNDEF, at, at + W);
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
      path[i] = row;
      if (keep) {
        this.trie.set(parent * this.vocab + word, row);
        this.cacheSize++;
        parent = row;
      }
    }
    if (keep) this.top = first + (nh - start);
    const total = cost[path[nh]! * W + nr]!;
    if (!wantTrace) return total;
    if (this.trace.length < nh + nr) this.trace = new Uint8Array(2 * (nh + nr));
    const rev = this.trace;
    let len = 0;
    let i = nh;
    let j = nr;
    while (i > 0 || j > 0) {
      const o = op[path[i]! * W + j]!;
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
    return total;
  }

  /** The last traced operations, first to last (valid until the next traced call). */
  trace = new Uint8Array(64);
  traceLength = 0;
}

const ED = new BeamEditDistance();
let shiftScratch = new Int32Array(64);

function slice(words: Int32Array, from: number, to: number): Int32Array {
  const n = words.length;
  const a = Math.min(Math.max(from, 0), n);
  const b = Math.min(Math.max(to, 0), n);
  return b > a ? words.subarray(a, b) : words.subarray(0, 0);
}

function concat(parts: Int32Array[], n: number): Int32Array {
  const out = shiftScratch.subarray(0, n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** sacreBLEU `_perform_shift`, Python slice semantics included, written into a scratch buffer. */
function performShift(words: Int32Array, start: number, length: number, target: number): Int32Array {
  const n = words.length;
  if (shiftScratch.length < n) shiftScratch = new Int32Array(2 * n);
  if (target < start) {
    return concat([slice(words, 0, target), slice(words, start, start + length), slice(words, target, start), slice(words, start + length, n)], n);
  }
  if (target > start + length) {
    return concat([slice(words, 0, start), slice(words, start + length, target), slice(words, start, start + length), slice(words, target, n)], n);
  }
  return concat([slice(words, 0, start), slice(words, start + length, length + target), slice(words, start, start + length), slice(words, length + target, n)], n);
}

/** One greedy shift step (sacreBLEU `_shift`): the best shift's gain and words, and the candidates checked so far. */
function shiftOnce(hyp: Int32Array, ref: Int32Array, ed: BeamEditDistance, checked: number): { delta: number; words: Int32Array; checked: number } {
  const preScore = ed.distance(hyp, true);
  const trace = ed.trace.subarray(0, ed.traceLength);
  // alignment of the flipped trace (rewriting ref → hyp): ref position → hyp position
  const nh = hyp.length;
  const nr = ref.length;
  const align = new Int32Array(nr);
  const hypErr = new Uint8Array(nh);
  const refErr = new Uint8Array(nr);
  let ph = -1;
  let pr = -1;
  for (const op of trace) {
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

  let best: { delta: number; length: number; startH: number; idx: number; words: Int32Array } | undefined;
  outer: for (let startH = 0; startH < nh; startH++) {
    for (let startR = 0; startR < nr; startR++) {
      if (Math.abs(startR - startH) > MAX_SHIFT_DIST) continue;
      let length = 0;
      while (hyp[startH + length] === ref[startR + length] && length < MAX_SHIFT_SIZE) {
        length++;
        // a candidate (startH, startR, length)
        let hypWrong = false;
        for (let k = startH; k < startH + length; k++) if (hypErr[k]) hypWrong = true;
        let refWrong = false;
        for (let k = startR; k < startR + length; k++) if (refErr[k]) refWrong = true;
        const a = align[startR]!;
        if (hypWrong && refWrong && !(startH <= a && a < startH + length)) {
          let prevIdx = -1;
          for (let offset = -1; offset < length; offset++) {
            let idx: number;
            if (startR + offset === -1) idx = 0;
            else if (startR + offset >= 0 && startR + offset < nr) idx = align[startR + offset]! + 1;
            else break;
            if (idx === prevIdx) continue;
            prevIdx = idx;
            const shifted = performShift(hyp, startH, length, idx);
            const delta = preScore - ed.distance(shifted, false);
            checked++;
            // tercom's ranking: gain, then longer, then earlier start, then earlier target
            if (
              !best ||
              delta > best.delta ||
              (delta === best.delta &&
                (length > best.length || (length === best.length && (-startH > -best.startH || (startH === best.startH && -idx > -best.idx)))))
            ) {
              best = { delta, length, startH, idx, words: shifted.slice() };
            }
          }
          if (checked >= MAX_SHIFT_CANDIDATES) break outer;
        }
        if (nh === startH + length || nr === startR + length) break;
      }
    }
  }
  return best ? { delta: best.delta, words: best.words, checked } : { delta: 0, words: hyp, checked };
}

/** sacreBLEU `translation_edit_rate(words_hyp, words_ref)`: (edits, reference length). */
function translationEditRate(hyp: Int32Array, ref: Int32Array): number {
  if (ref.length === 0) return hyp.length;
  let vocab = 0;
  for (const w of hyp) if (w >= vocab) vocab = w + 1;
  for (const w of ref) if (w >= vocab) vocab = w + 1;
  const ed = ED.reset(ref, vocab);
  let shifts = 0;
  let input = hyp;
  let checked = 0;
  for (;;) {
    const r = shiftOnce(input, ref, ed, checked);
    checked = r.checked;
    if (checked >= MAX_SHIFT_CANDIDATES) break;
    if (r.delta <= 0) break;
    shifts++;
    input = r.words;
  }
  return shifts + ed.distance(input, false);
}

/** Segment statistics: [best edits over the references, average reference length]. */
function segment(hyp: string, refs: readonly string[], o: ResolvedTerOptions, out: Float64Array, at: number, index: number): void {
  const ids = new Map<string, number>();
  const intern = (ws: string[]): Int32Array => {
    const a = new Int32Array(ws.length);
    for (let i = 0; i < ws.length; i++) {
      let id = ids.get(ws[i]!);
      if (id === undefined) ids.set(ws[i]!, (id = ids.size));
      a[i] = id;
    }
    return a;
  };
  const h = intern(words(hyp, o));
  let best = Infinity;
  let lengths = 0;
  for (const ref of refs) {
    const r = intern(words(ref, o));
    // the shift search costs about hyp words × ref words per candidate: bounded before it starts
    const cells = h.length * r.length;
    if (cells > INPUT_LIMITS.maxTerWordPairs) {
      throw new InputTooLargeError(
        `TER of hyps[${index}] compares ${h.length} × ${r.length} = ${cells} word pairs, over its limit of ${INPUT_LIMITS.maxTerWordPairs} (INPUT_LIMITS.maxTerWordPairs): its time grows faster than the product of the lengths`,
        { argument: "hyps", index, expected: `at most ${INPUT_LIMITS.maxTerWordPairs} word pairs`, actual: `${cells} word pairs`, kind: "pair", limit: INPUT_LIMITS.maxTerWordPairs, size: cells, unit: "word pairs" },
      );
    }
    const edits = translationEditRate(h, r);
    lengths += r.length;
    if (edits < best) best = edits;
  }
  out[at] = best;
  out[at + 1] = lengths / refs.length;
}

function statistics(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedTerOptions): Float64Array {
  checkPairSizes(hyps, refs, "hyps", "refs", false);
  const out = new Float64Array(hyps.length * TER_STATISTICS_WIDTH);
  for (let i = 0; i < hyps.length; i++) segment(hyps[i]!, refs[i]!, o, out, i * TER_STATISTICS_WIDTH, i);
  return out;
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
export function sentenceTer(hyp: string, refs: readonly string[], options?: TerOptions): TerResult {
  requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined);
  const o = resolveTerOptions(options);
  const s = statistics([hyp], [r], o);
  return { score: score(s[0]!, s[1]!), numEdits: s[0]!, refLength: s[1]! };
}

/** Segment statistics for many pairs: n × 2 f64, rows of [numEdits, refLength]. Sum rows for a corpus. */
export function terStatisticsBatch(hyps: readonly string[], refs: readonly (readonly string[])[], options?: TerOptions): Float64Array {
  const b = pairBatch(hyps, refs);
  return statistics(b.hyps, b.refs, resolveTerOptions(options));
}

/** Sentence TER scores (0–100) for many pairs. */
export function sentenceTerBatch(hyps: readonly string[], refs: readonly (readonly string[])[], options?: TerOptions): Float64Array {
  return terScoresFromStatisticsBatch(terStatisticsBatch(hyps, refs, options));
}

/**
 * sacreBLEU `TER().corpus_score(hyps, [refs…])`: edits and average reference lengths summed in segment
 * order, then one score. `refs[i]` holds the references of `hyps[i]`; `null` (a padded stream's `None`) is dropped.
 */
export function corpusTer(hyps: readonly string[], refs: readonly (readonly (string | null)[])[], options?: TerOptions): TerResult {
  const b = pairBatch(hyps, refs, { nulls: true });
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
