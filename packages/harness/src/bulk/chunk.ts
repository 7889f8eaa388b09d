// Scoring one chunk of rows (runs inside a worker): parse the records, pick out the pairs (extract), call
// each metric's batch kernel once for all valid pairs of the chunk (run metrics), add up the exact partial
// column sums (sum), and render the per-row output one of three ways (score lines, output rows, values),
// with the statistics rows.
import { sharedPairBatch } from "@evalkern/core-wasm";
import type { RowFields } from "@evalkern/metrics/registry";
import { fsumAdd } from "./fsum.js";
import { csvKeys, extractPair, parseCsv, type BadRowCode, type ResolvedFields } from "./records.js";
import type { BulkMetric } from "./metrics.js";
import { ByteWriter, csvCell, csvLine, isPlainObject, spliceObject, spliceObjectBytes, spliceObjectOpen, type RowsOutput } from "./rows.js";

/** What a chunk gives back per record: one of three renderings. */
export type ChunkOutput =
  /** JSONL score lines, `{"line":…,"id":…,<column>:…}` or with `"index"` as the position's key. */
  | { readonly kind: "scores"; readonly positionKey: "line" | "index" }
  /** The input rows with their scores added, as JSONL or CSV text (see rows.ts). */
  | { readonly kind: "rows"; readonly rows: RowsOutput }
  /** No text: per-record values, positions, ids and bad rows (streams). */
  | { readonly kind: "values" };

export interface ChunkContext {
  readonly metrics: readonly BulkMetric[];
  readonly fields: ResolvedFields;
  /** The output's rendering. */
  readonly output: ChunkOutput;
  /** Return statistics rows ([valid, ...stats] as f32 per record) for bootstrap / paired tests. */
  readonly keepStatistics: boolean;
  /** Rows with bytes that are not UTF-8 are bad rows (`invalid_utf8`) instead of scored with U+FFFD. */
  readonly strictUtf8?: boolean;
}

export interface BadRow {
  readonly line: number;
  readonly code: BadRowCode;
  readonly message: string;
}

export interface ChunkResult {
  /** Records (non-blank lines / CSV records / stream rows) in this chunk. */
  readonly records: number;
  readonly blank: number;
  readonly valid: number;
  readonly badByCode: Record<string, number>;
  /** The first few bad rows of the chunk. */
  readonly badSamples: BadRow[];
  /** Exact partial sums per statistics column (all metrics, concatenated), over valid rows. */
  readonly partials: number[][];
  /**
   * For the metrics' `sequentialColumns` (by column index over all metrics): the valid rows' values in
   * order, which the caller adds left to right across chunks (the reference's float summation).
   */
  readonly sequential?: Record<number, number[]>;
  readonly nrefsMin: number;
  readonly nrefsMax: number;
  /** Output bytes, one line per record, in order (output "scores" or "rows"; CSV lines with CSV `rows`). */
  readonly output?: Uint8Array;
  /** records × (1 + totalWidth) f32: a validity flag then the statistics (keepStatistics). */
  readonly statistics?: Float32Array;
  /** Output "values": per-record values (records × columns), positions, ids and errors. */
  readonly values?: Float64Array;
  readonly positions?: Float64Array;
  readonly ids?: unknown[];
  readonly errors?: (BadRow | null)[];
  /** Records with bytes that are not UTF-8: how many, and the first lines (scored with U+FFFD unless strictUtf8). */
  readonly invalidUtf8?: { readonly count: number; readonly lines: number[] };
}

interface RecordIn {
  readonly position: number;
  readonly value?: unknown;
  /** JSONL: the line's text (output rows keep it). */
  readonly text?: string;
  /** JSONL: where the line's bytes are in the chunk, without its line break (output rows copy them). */
  readonly start?: number;
  readonly end?: number;
  /** What an output row shows as `_input` when the record is no object: the CSV error or fields. */
  readonly input?: unknown;
  /** CSV: the record's cells, by column (CSV output rows write them back by position). */
  readonly cells?: readonly string[];
  readonly error?: { readonly code: BadRowCode; readonly message: string };
}

const MAX_BAD_SAMPLES = 20;
const encoder = new TextEncoder();
// ignoreBOM: a U+FEFF is content wherever a chunk starts. Only the file's own BOM (its first 3 bytes)
// is an encoding mark, and the main thread skips it; a BOM at the start of a later line is the same
// character whatever the chunking (a JSONL row starting with it is not JSON, as for Python's json).
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decode a chunk; when it is not all UTF-8 (rare: one fatal decode tells), also the physical lines
 * holding invalid bytes (a newline byte is never part of a multi-byte sequence, so lines are checked
 * one by one).
 */
function decodeChunk(bytes: Uint8Array, firstLine: number): { text: string; badLines: number[] } {
  try {
    return { text: strictDecoder.decode(bytes), badLines: [] };
  } catch {
    // fall through: find the lines
  }
  const badLines: number[] = [];
  for (let start = 0, line = firstLine; start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    try {
      strictDecoder.decode(bytes.subarray(start, end));
    } catch {
      badLines.push(line);
    }
    start = end + 1;
  }
  return { text: decoder.decode(bytes), badLines };
}

/** Positions of the records (sorted by position; a record spans lines up to the next one's) holding a bad line. */
function recordsOnLines(records: readonly RecordIn[], lines: readonly number[]): Set<number> {
  const out = new Set<number>();
  for (const l of lines) {
    let lo = 0;
    let hi = records.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (records[mid]!.position <= l) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found >= 0) out.add(records[found]!.position);
  }
  return out;
}

/**
 * Split a JSONL chunk into records (blank lines skipped but counted in line numbers), each with where its
 * line is in `bytes`, and the lines holding bytes that are not UTF-8. Each line is decoded on its own: its
 * text is what decoding the whole chunk gives for it (a newline byte is never part of a multi-byte sequence,
 * nor of the invalid bytes U+FFFD replaces), as a short string (ASCII lines one byte per character), and no
 * chunk-sized string is made for the garbage collector to move.
 */
function jsonlRecords(bytes: Uint8Array, firstLine: number): { records: RecordIn[]; blank: number; badLines: number[] } {
  const records: RecordIn[] = [];
  const badLines: number[] = [];
  let blank = 0;
  let line = firstLine;
  for (let start = 0; start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    const lineBytes = bytes.subarray(start, stop);
    let raw: string;
    try {
      raw = strictDecoder.decode(lineBytes);
    } catch {
      badLines.push(line);
      raw = decoder.decode(lineBytes);
    }
    if (raw.trim() === "") blank++;
    else {
      try {
        records.push({ position: line, value: JSON.parse(raw), text: raw, start, end: stop });
      } catch (e) {
        const bom =
          raw.charCodeAt(0) === 0xfeff ? "the line starts with a byte order mark (U+FEFF; only the file's first 3 bytes may be one): " : "";
        records.push({
          position: line,
          text: raw,
          input: raw,
          error: { code: "invalid_json", message: `invalid JSON: ${bom}${(e as Error).message}` },
        });
      }
    }
    start = end + 1;
  }
  return { records, blank, badLines };
}

function csvRecords(text: string, firstLine: number, header: readonly string[], delimiter: string, quote: boolean | undefined): RecordIn[] {
  const keys = csvKeys(header); // a repeated name keeps every cell, as name#1, name#2, …
  return parseCsv(text, delimiter, firstLine, quote).map((r) => {
    if ("error" in r) return { position: r.line, input: r.error, error: { code: "csv_error", message: r.error } };
    if (r.fields.length !== header.length) {
      return {
        position: r.line,
        input: r.fields,
        error: { code: "csv_error", message: `expected ${header.length} fields (the header's), got ${r.fields.length}` },
      };
    }
    const obj: Record<string, string> = {};
    keys.forEach((k, i) => (obj[k] = r.fields[i]!));
    return { position: r.line, value: obj, cells: r.fields };
  });
}

/** Rows reported as bad without being scored (found by the main thread: too large, timed out). */
export interface PresetError {
  readonly position: number;
  readonly code: BadRowCode;
  readonly message: string;
}

export type ChunkInput =
  | { readonly kind: "jsonl"; readonly bytes: Uint8Array; readonly firstLine: number; readonly presetErrors?: readonly PresetError[] }
  | {
      readonly kind: "csv";
      readonly bytes: Uint8Array;
      readonly firstLine: number;
      readonly header: readonly string[];
      readonly delimiter: string;
      /** Whether `"` quotes fields (default: not for a tab delimiter, see `defaultQuote`). */
      readonly quote?: boolean;
      readonly presetErrors?: readonly PresetError[];
    }
  | { readonly kind: "rows"; readonly rows: readonly unknown[]; readonly firstIndex: number }
  /** Only bad rows, e.g. one refused as larger than `maxRowBytes` (its bytes never leave the file). */
  | { readonly kind: "errors"; readonly errors: readonly PresetError[] };

export function scoreChunk(input: ChunkInput, ctx: ChunkContext): ChunkResult {
  let records: RecordIn[];
  let blank = 0;
  let dropEmpty = false;
  let badLines: number[] = [];
  if (input.kind === "jsonl") {
    const r = jsonlRecords(input.bytes, input.firstLine);
    records = r.records;
    blank = r.blank;
    badLines = r.badLines;
  } else if (input.kind === "csv") {
    const d = decodeChunk(input.bytes, input.firstLine);
    badLines = d.badLines;
    records = csvRecords(d.text, input.firstLine, input.header, input.delimiter, input.quote);
    dropEmpty = ctx.fields.references.length > 1;
  } else if (input.kind === "errors") {
    records = input.errors.map((e) => ({ position: e.position, error: { code: e.code, message: e.message } }));
  } else {
    records = input.rows.map((row, i) => {
      const position = input.firstIndex + i;
      if (typeof row === "string") {
        try {
          return { position, value: JSON.parse(row) };
        } catch (e) {
          return { position, error: { code: "invalid_json" as const, message: `invalid JSON: ${(e as Error).message}` } };
        }
      }
      return { position, value: row };
    });
  }
  if ((input.kind === "jsonl" || input.kind === "csv") && input.presetErrors?.length) {
    const preset = new Map(input.presetErrors.map((e) => [e.position, e]));
    records = records.map((r) => {
      const e = preset.get(r.position);
      return e ? { ...r, error: { code: e.code, message: e.message } } : r; // the row itself stays (output rows keep it)
    });
  }
  let invalidUtf8: { count: number; lines: number[] } | undefined;
  if (badLines.length > 0) {
    const bad = recordsOnLines(records, badLines);
    invalidUtf8 = { count: bad.size, lines: [...bad].slice(0, MAX_BAD_SAMPLES) };
    if (ctx.strictUtf8) {
      records = records.map((r) =>
        bad.has(r.position) && !r.error
          ? { ...r, error: { code: "invalid_utf8", message: "the row has bytes that are not UTF-8 (strictUtf8)" } }
          : r,
      );
    }
  }
  // output rows copy a line's bytes only when they are all UTF-8 (else its text, with U+FFFD, is written)
  const src = input.kind === "jsonl" && badLines.length === 0 ? input.bytes : undefined;
  const result = scoreRecords(records, blank, dropEmpty, ctx, src);
  return invalidUtf8 ? { ...result, invalidUtf8 } : result;
}

/** The valid pairs of a chunk's records (extract): their texts and rows, and where each came from. */
interface Pairs {
  readonly hyps: string[];
  readonly refs: (readonly string[])[];
  /** Each pair's row, for rules reading other fields (promptfoo's cost, latency...). */
  readonly rows: (RowFields | undefined)[];
  /** The record index of each pair. */
  readonly validIndex: number[];
  /** Per record: its bad row (null while it is good). */
  readonly errors: (BadRow | null)[];
  readonly ids: unknown[];
}

function extractPairs(records: readonly RecordIn[], dropEmpty: boolean, fields: ResolvedFields): Pairs {
  const R = records.length;
  const out: Pairs = { hyps: [], refs: [], rows: [], validIndex: [], errors: new Array(R).fill(null), ids: new Array(R) };
  for (let i = 0; i < R; i++) {
    const rec = records[i]!;
    if (rec.error) {
      out.errors[i] = { line: rec.position, ...rec.error };
      out.ids[i] = null;
      continue;
    }
    const p = extractPair(rec.value, fields, dropEmpty);
    out.ids[i] = p.id;
    if (!p.ok) {
      out.errors[i] = { line: rec.position, code: p.code, message: p.message };
      continue;
    }
    out.hyps.push(p.hyp);
    out.refs.push(p.refs);
    out.rows.push(typeof rec.value === "object" && rec.value !== null && !Array.isArray(rec.value) ? (rec.value as RowFields) : undefined);
    out.validIndex.push(i);
  }
  return out;
}

/**
 * Run the metrics (one batch call per metric, all on the chunk's strings laid out once in kernel memory;
 * a failing batch is retried row by row to find the rows at fault): each metric's statistics (pairs ×
 * width), and per pair whether it failed (its record then gets a `metric_error` bad row).
 */
function runMetrics(metrics: readonly BulkMetric[], records: readonly RecordIn[], p: Pairs): { stats: Float64Array[]; rowBad: Uint8Array } {
  const { hyps, refs, rows } = p;
  const V = hyps.length;
  const stats: Float64Array[] = [];
  const rowBad = new Uint8Array(V);
  const markBad = (v: number, message: string) => {
    if (rowBad[v]) return;
    rowBad[v] = 1;
    const i = p.validIndex[v]!;
    p.errors[i] = { line: records[i]!.position, code: "metric_error", message };
  };
  sharedPairBatch(hyps, refs, () => {
    for (const m of metrics) {
      let s: Float64Array;
      try {
        s = V > 0 ? m.statistics(hyps, refs, rows) : new Float64Array(0);
      } catch {
        s = new Float64Array(V * m.width);
        for (let v = 0; v < V; v++) {
          try {
            s.set(m.statistics([hyps[v]!], [refs[v]!], [rows[v]]), v * m.width);
          } catch (e) {
            markBad(v, `${m.spec.name}: ${(e as Error)?.message ?? String(e)}`);
          }
        }
      }
      for (let j = 0; j < s.length; j++) {
        if (!Number.isFinite(s[j]!)) markBad(Math.floor(j / m.width), `${m.spec.name}: non-finite statistic`);
      }
      stats.push(s);
    }
  });
  return { stats, rowBad };
}

/** The chunk's sums over its good pairs (sum): exact partial column sums, sequential columns, reference counts. */
function sumPairs(
  metrics: readonly BulkMetric[],
  p: Pairs,
  stats: readonly Float64Array[],
  rowBad: Uint8Array,
): Pick<ChunkResult, "valid" | "partials" | "sequential" | "nrefsMin" | "nrefsMax"> {
  const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
  const partials: number[][] = Array.from({ length: totalWidth }, () => []);
  const widths = Int32Array.from(metrics, (m) => m.width);
  const { refs } = p;
  const n = refs.length;
  // the hot loop reads only locals and arrays: a property read it had no feedback for made V8 drop its
  // optimized code at every chunk
  let valid = 0;
  let nrefsMin = Infinity;
  let nrefsMax = 0;
  for (let v = 0; v < n; v++) {
    if (rowBad[v]) continue;
    valid++;
    const nr = refs[v]!.length;
    if (nr < nrefsMin) nrefsMin = nr;
    if (nr > nrefsMax) nrefsMax = nr;
    let col = 0;
    for (let k = 0; k < widths.length; k++) {
      const s = stats[k]!;
      const width = widths[k]!;
      for (let j = 0, at = v * width; j < width; j++, col++) {
        const x = s[at + j]!;
        if (x !== 0) fsumAdd(partials[col]!, x);
      }
    }
  }
  const out: Pick<ChunkResult, "valid" | "partials" | "sequential" | "nrefsMin" | "nrefsMax"> = {
    valid,
    partials,
    nrefsMin: valid ? nrefsMin : 0,
    nrefsMax,
  };
  const sequential = sequentialValues(metrics, stats, rowBad, n);
  return sequential ? { ...out, sequential } : out;
}

/** The valid rows' values of the metrics' `sequentialColumns` (by column over all metrics), in order; undefined when none. */
function sequentialValues(
  metrics: readonly BulkMetric[],
  stats: readonly Float64Array[],
  rowBad: Uint8Array,
  n: number,
): Record<number, number[]> | undefined {
  let sequential: Record<number, number[]> | undefined;
  let base = 0;
  metrics.forEach((m, k) => {
    for (const j of m.sequentialColumns ?? []) {
      const values: number[] = [];
      for (let v = 0; v < n; v++) if (!rowBad[v]) values.push(stats[k]![v * m.width + j]!);
      (sequential ??= {})[base + j] = values;
    }
    base += m.width;
  });
  return sequential;
}

/** What the renderers read: the records, their bad rows and ids, and the metrics' row values by pair. */
interface Scored {
  readonly metrics: readonly BulkMetric[];
  readonly records: readonly RecordIn[];
  readonly errors: readonly (BadRow | null)[];
  readonly ids: readonly unknown[];
  /** Per record: its pair's index, or -1 when it is a bad row. */
  readonly vOf: Int32Array;
  /** Per metric: its row values (pairs × columns). */
  readonly rowValues: readonly Float64Array[];
  readonly columnCounts: readonly number[];
}

function scoreRecords(records: readonly RecordIn[], blank: number, dropEmpty: boolean, ctx: ChunkContext, src?: Uint8Array): ChunkResult {
  const R = records.length;
  const pairs = extractPairs(records, dropEmpty, ctx.fields);
  const V = pairs.hyps.length;
  const { stats, rowBad } = runMetrics(ctx.metrics, records, pairs);
  const sums = sumPairs(ctx.metrics, pairs, stats, rowBad);
  const { errors, ids } = pairs;

  const badByCode: Record<string, number> = {};
  const badSamples: BadRow[] = [];
  for (const e of errors) {
    if (!e) continue;
    badByCode[e.code] = (badByCode[e.code] ?? 0) + 1;
    if (badSamples.length < MAX_BAD_SAMPLES) badSamples.push(e);
  }
  // map record index → valid index
  const vOf = new Int32Array(R).fill(-1);
  pairs.validIndex.forEach((i, v) => {
    if (!rowBad[v]) vOf[i] = v;
  });
  const { valid, partials, nrefsMin, nrefsMax, sequential } = sums;
  type Mutable = { -readonly [K in keyof ChunkResult]: ChunkResult[K] };
  const result: Mutable = { records: R, blank, valid, badByCode, badSamples, partials, nrefsMin, nrefsMax };
  if (sequential) result.sequential = sequential;
  if (ctx.keepStatistics) result.statistics = statisticsRows(ctx.metrics, stats, vOf);
  const scored: Scored = {
    metrics: ctx.metrics,
    records,
    errors,
    ids,
    vOf,
    rowValues: ctx.metrics.map((m, k) => m.rowValues(stats[k]!, V)),
    columnCounts: ctx.metrics.map((m) => m.columns.length),
  };
  const out = ctx.output;
  if (out.kind === "rows")
    result.output = out.rows.format === "csv" ? encoder.encode(csvRows(out.rows, scored)) : jsonRows(out.rows, scored, src);
  else if (out.kind === "scores") result.output = encoder.encode(scoreLines(scored, out.positionKey, ctx.fields.id !== undefined));
  else Object.assign(result, valueArrays(scored));
  return result;
}

/** records × (1 + totalWidth) f32: a validity flag then the statistics. */
function statisticsRows(metrics: readonly BulkMetric[], stats: readonly Float64Array[], vOf: Int32Array): Float32Array {
  const w = 1 + metrics.reduce((a, m) => a + m.width, 0);
  const out = new Float32Array(vOf.length * w);
  for (let i = 0; i < vOf.length; i++) {
    const v = vOf[i]!;
    if (v < 0) continue;
    out[i * w] = 1;
    let col = i * w + 1;
    for (let k = 0; k < metrics.length; k++) {
      const s = stats[k]!;
      const width = metrics[k]!.width;
      for (let j = 0, at = v * width; j < width; j++) out[col++] = s[at + j]!;
    }
  }
  return out;
}

/** Score lines (renderer "scores"): `{"line":…,"id":…,<column>:…}` or `{…,"error":{…}}` per record. */
function scoreLines(s: Scored, positionKey: "line" | "index", withId: boolean): string {
  const keys = s.metrics.map((m) => m.columns.map((c) => `,${JSON.stringify(c)}:`));
  const posKey = `{${JSON.stringify(positionKey)}:`;
  let text = "";
  for (let i = 0; i < s.records.length; i++) {
    let line = posKey + s.records[i]!.position;
    if (withId) line += `,"id":${JSON.stringify(s.ids[i] ?? null) ?? "null"}`;
    const v = s.vOf[i]!;
    if (v < 0) {
      const e = s.errors[i]!;
      line += `,"error":{"code":${JSON.stringify(e.code)},"message":${JSON.stringify(e.message)}}}\n`;
    } else {
      s.metrics.forEach((_, k) => {
        const vals = s.rowValues[k]!;
        const C = s.columnCounts[k]!;
        for (let c = 0; c < C; c++) {
          const x = vals[v * C + c]!;
          line += keys[k]![c]! + (Number.isFinite(x) ? String(x) : "null");
        }
      });
      line += "}\n";
    }
    text += line;
  }
  return text;
}

/** Per-record values (renderer "values", streams): values (records × columns), positions, ids and bad rows. */
function valueArrays(s: Scored): Pick<ChunkResult, "values" | "positions" | "ids" | "errors"> {
  const R = s.records.length;
  const C = s.columnCounts.reduce((a, b) => a + b, 0);
  const values = new Float64Array(R * C);
  const positions = new Float64Array(R);
  for (let i = 0; i < R; i++) {
    positions[i] = s.records[i]!.position;
    const v = s.vOf[i]!;
    if (v < 0) continue;
    let c0 = 0;
    s.metrics.forEach((_, k) => {
      const vals = s.rowValues[k]!;
      const Ck = s.columnCounts[k]!;
      for (let c = 0; c < Ck; c++) values[i * C + c0 + c] = vals[v * Ck + c]!;
      c0 += Ck;
    });
  }
  return { values, positions, ids: s.ids as unknown[], errors: s.errors as (BadRow | null)[] };
}

/** Where each scorer column's row values are: metric k, column j (`value` reads pair v's). */
function columnFinder(s: Scored): { where: (column: string) => [number, number]; value: (p: [number, number], v: number) => number } {
  const at = new Map<string, [number, number]>();
  s.metrics.forEach((m, k) => m.columns.forEach((c, j) => at.set(c, [k, j])));
  const where = (column: string): [number, number] => {
    const p = at.get(column);
    if (!p) throw new Error(`internal: no scorer column ${column}`);
    return p;
  };
  const { rowValues, columnCounts } = s;
  return { where, value: (p, v) => rowValues[p[0]]![v * columnCounts[p[0]]! + p[1]]! };
}

/** The chunk's output rows as CSV text (see rows.ts). */
function csvRows(rows: RowsOutput, s: Scored): string {
  const { records, errors, vOf } = s;
  const { where, value } = columnFinder(s);
  const d = rows.delimiter;
  const cols = rows.inputColumns;
  const metricAt = rows.metricColumns.map((c) => where(c.column));
  const empty = cols.map(() => "");
  let text = "";
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const obj = rec.input === undefined && isPlainObject(rec.value) ? rec.value : undefined;
    // CSV input: the cells by position (the output has the input's header); JSONL input: by key
    const cells =
      rec.cells && obj
        ? rec.cells.map((c) => csvCell(c, rows.escapeFormulas))
        : obj
          ? cols.map((c) => csvCell(obj[c], rows.escapeFormulas))
          : empty.slice();
    const v = vOf[i]!;
    for (const p of metricAt) {
      const x = v < 0 ? NaN : value(p, v);
      cells.push(Number.isFinite(x) ? String(x) : "");
    }
    const e = v < 0 ? errors[i]! : null;
    cells.push(e ? JSON.stringify({ line: rec.position, code: e.code, message: e.message }) : "");
    text += csvLine(cells, d, rows.quote);
  }
  return text;
}

/**
 * The chunk's output rows as JSONL bytes (see rows.ts), written straight into one buffer: a scored row
 * read from `src` (the chunk's bytes, when all UTF-8) is its own bytes with the metric objects spliced
 * in before its closing brace, so its text is never encoded again; other rows are written from their text.
 */
function jsonRows(rows: RowsOutput, s: Scored, src: Uint8Array | undefined): Uint8Array {
  const { records, errors, vOf, rowValues, columnCounts } = s;
  const f = rowFields(rows, s);
  const w = new ByteWriter((src?.length ?? 0) + records.length * f.perRow);
  // a row's values often repeat the one before last (ROUGE's score is its rougeL): their text is reused.
  // Plain locals and arrays, no closures: the loop keeps its optimized code from chunk to chunk.
  let lastX = Number.NaN;
  let lastS = "null";
  let prevX = Number.NaN;
  let prevS = "null";
  const F = f.prefixes.length;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const v = vOf[i]!;
    if (v < 0) {
      w.text(errorRow(rec, errors[i]!));
      continue;
    }
    if (src && rec.start !== undefined) spliceObjectBytes(w, src, rec.start, rec.end!);
    else w.text(spliceObjectOpen(rec.text ?? JSON.stringify(rec.value)));
    for (let k = 0; k < F; k++) {
      const prefix = f.prefixes[k]!;
      w.bytes(prefix, 0, prefix.length);
      const m = f.metric[k]!;
      const x = rowValues[m]![v * columnCounts[m]! + f.column[k]!]!;
      let t: string;
      if (x === lastX)
        t = lastS; // 0 and -0 are both written "0"
      else if (x === prevX) t = prevS;
      else {
        t = Number.isFinite(x) ? String(x) : "null";
        prevX = lastX;
        prevS = lastS;
        lastX = x;
        lastS = t;
      }
      w.ascii(t);
      if (f.closes[k]) w.byte(125); // } of the metric's object
    }
    w.byte(125);
    w.byte(10);
  }
  return w.result();
}

/**
 * The members a scored row gets, as a flat list of values: each value's bytes before it (`"bleu":{"score":`,
 * `,"rouge1":`), where it is (metric, column), whether the metric's object closes after it; and the
 * room a row's members take with numbers of up to 24 characters.
 */
function rowFields(
  rows: RowsOutput,
  s: Scored,
): { prefixes: Uint8Array[]; metric: Int32Array; column: Int32Array; closes: Uint8Array; perRow: number } {
  const { where } = columnFinder(s);
  const fields: { prefix: Uint8Array; at: [number, number]; closes: boolean }[] = [];
  rows.layouts.forEach((m, k) => {
    const open = encoder.encode(`${k > 0 ? "," : ""}${JSON.stringify(m.name)}:{"score":`);
    fields.push({ prefix: open, at: where(m.headline), closes: m.columns.length === 0 });
    m.columns.forEach((c, j) => {
      const prefix = encoder.encode(`,${JSON.stringify(c.key)}:`);
      fields.push({ prefix, at: where(c.column), closes: j === m.columns.length - 1 });
    });
  });
  return {
    prefixes: fields.map((x) => x.prefix),
    metric: Int32Array.from(fields, (x) => x.at[0]),
    column: Int32Array.from(fields, (x) => x.at[1]),
    closes: Uint8Array.from(fields, (x) => (x.closes ? 1 : 0)),
    perRow: 2 + fields.reduce((a, x) => a + x.prefix.length + 25, 0),
  };
}

/** The output row of a record that was not scored: the row with `_error`, or `_line`, `_input`, `_error`. */
function errorRow(rec: RecordIn, e: BadRow): string {
  const error = { line: rec.position, code: e.code, message: e.message };
  if (rec.input === undefined && isPlainObject(rec.value))
    return `${spliceObject(JSON.stringify(rec.value), `"_error":${JSON.stringify(error)}`)}\n`;
  return `${JSON.stringify({ _line: rec.position, _input: rec.input !== undefined ? rec.input : rec.value, _error: error })}\n`;
}
