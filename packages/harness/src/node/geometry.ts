// Where the records of an input file are, found by scanning its bytes without parsing rows: the CSV
// header, the first data record (after a BOM), a shard's byte range cut at record boundaries. (The end of
// one record from a point inside it, `scanRecord`, is browser-safe: it lives with the scanners in records.ts.)
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { Csv, csvNext, followsQuotes, parseCsv, recordSyntax, type RecordSyntax } from "../bulk/records.js";
import type { ShardSpec } from "./score-options.js";

/** Bytes read from the input at a time. */
export const READ_BLOCK = 4 << 20;

/** Bytes [start, end) of a file. */
export function readRange(path: string, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  const fd = openSync(path, "r");
  try {
    let off = 0;
    while (off < out.length) {
      const got = readSync(fd, out, off, out.length - off, start + off);
      if (got === 0) break;
      off += got;
    }
    return out.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

/**
 * Scan the file from a record start (`from`, on line `line`) to the first record start at or after
 * `target`. Returns that position and its line number.
 */
function nextRecordStart(
  fd: number,
  size: number,
  format: RecordSyntax,
  delimiter: number,
  from: number,
  line: number,
  target: number,
): { pos: number; line: number } {
  if (target <= from) return { pos: from, line };
  const buf = new Uint8Array(READ_BLOCK);
  let abs = from;
  let state = Csv.FieldStart;
  while (abs < size) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, size - abs), abs);
    if (got === 0) break;
    if (!followsQuotes(format, delimiter)) {
      // every newline ends a record: count those before target-1, then the next one is the boundary
      let p = 0;
      for (;;) {
        const q = buf.indexOf(10, p);
        if (q < 0 || q >= got) break;
        line++;
        if (abs + q + 1 >= target) return { pos: abs + q + 1, line };
        p = q + 1;
      }
    } else {
      for (let p = 0; p < got; p++) {
        const c = buf[p]!;
        if (c === 10) {
          line++;
          if (state !== Csv.Quoted) {
            state = Csv.FieldStart;
            if (abs + p + 1 >= target) return { pos: abs + p + 1, line };
          }
          continue;
        }
        state = csvNext(state, c, delimiter);
      }
    }
    abs += got;
  }
  return { pos: size, line };
}

export interface InputGeometry {
  readonly size: number;
  readonly mtimeMs: number;
  /** Byte offset of the first data record of the whole file (after a BOM and the CSV header). */
  readonly dataStart: number;
  readonly dataStartLine: number;
  readonly header: readonly string[] | null;
  /** This shard's records: [start, end) bytes, first record on `startLine`. */
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
}

/** Where the records of `path` are; `quote`: whether `"` quotes CSV fields (default: not for a tab delimiter). */
export function inputGeometry(
  path: string,
  format: "jsonl" | "csv",
  delimiter: string,
  shard: ShardSpec | null,
  quote?: boolean,
): InputGeometry {
  const fd = openSync(path, "r");
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const head = new Uint8Array(Math.min(3, size));
    readSync(fd, head, 0, head.length, 0);
    const bom = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    const d = delimiter.charCodeAt(0);
    const syntax = recordSyntax(format, delimiter, quote);
    let dataStart = bom;
    let dataStartLine = 1;
    let header: string[] | null = null;
    if (format === "csv") {
      const h = nextRecordStart(fd, size, syntax, d, bom, 1, bom + 1);
      const bytes = new Uint8Array(h.pos - bom);
      readSync(fd, bytes, 0, bytes.length, bom);
      const recs = parseCsv(new TextDecoder().decode(bytes), delimiter, 1, syntax === "quoted");
      const first = recs[0];
      if (!first || "error" in first)
        throw new InvalidArgumentError(`${path}: the CSV header row is missing or malformed`, { argument: "input" });
      header = first.fields;
      dataStart = h.pos;
      dataStartLine = h.line;
    }
    let start = dataStart;
    let startLine = dataStartLine;
    let end = size;
    if (shard && shard.count > 1) {
      const span = size - dataStart;
      const rawStart = dataStart + Math.floor((shard.index * span) / shard.count);
      const rawEnd = dataStart + Math.floor(((shard.index + 1) * span) / shard.count);
      const s = nextRecordStart(fd, size, syntax, d, dataStart, dataStartLine, rawStart);
      start = s.pos;
      startLine = s.line;
      end = shard.index === shard.count - 1 ? size : nextRecordStart(fd, size, syntax, d, start, startLine, rawEnd).pos;
    }
    return { size, mtimeMs: st.mtimeMs, dataStart, dataStartLine, header, start, end, startLine };
  } finally {
    closeSync(fd);
  }
}
