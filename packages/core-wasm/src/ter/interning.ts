// Words of one segment interned to small integer ids, so the edit-rate engine compares integers. The ids
// are shared between the hypothesis and its references within a segment and forgotten after it.
import { preprocessed, type ResolvedTerOptions } from "./tokenizer.js";

/** Words of one segment's strings as ids (shared within the segment). */
export let segmentWords = new Int32Array(1024);

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
export let vocabSize = 0;

/** After a call: a table grown for a long segment is dropped (it holds references to that call's strings). */
export function endCall(): void {
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

export function beginSegment(): void {
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
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Words of one (already lowercased, if asked) string, interned from `at`; returns the word count. */
export function segmentString(text: string, o: ResolvedTerOptions, at: number): number {
  if (!o.normalized && !o.noPunct) return splitInterned(text, at);
  return internInto(preprocessed(text, o), at);
}
