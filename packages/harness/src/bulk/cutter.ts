// Cutting an input's bytes into chunks at record boundaries, without parsing: the caller pushes the
// blocks it reads in input order (scoreFile from a file, the web app from a Blob) and gets back whole
// chunks of about `chunkBytes`, in order, each with its first line and where it ends. A record longer
// than `maxRowBytes` is never kept in memory: its bytes stream past (for the caller's content hash) and
// only its line and size come out, so the row can be reported as `row_too_large`.
import { Csv, countNewlines, firstRecordBoundary, lastRecordBoundary, scanRecord, type RecordSyntax } from "./records.js";

/** One piece of the input, in input order: a chunk of whole records, or one record refused as too large. */
export type Cut =
  | {
      readonly kind: "records";
      /**
       * The chunk's bytes, in a buffer of their own (it can be transferred to a worker); with `views`, a
       * view of the block pushed or of the cutter's own buffer, valid until the next block is pushed.
       */
      readonly bytes: Uint8Array;
      readonly firstLine: number;
      /** The line after the chunk. */
      readonly endLine: number;
      /** The input offset just after the chunk. */
      readonly endOffset: number;
    }
  | {
      readonly kind: "too-large";
      /** The record's size in bytes (its bytes are not kept). */
      readonly size: number;
      readonly firstLine: number;
      readonly endLine: number;
      readonly endOffset: number;
    };

export interface CutterOptions {
  /** Where records end (see `RecordSyntax`). */
  readonly syntax: RecordSyntax;
  /** The CSV delimiter (ignored by JSONL). */
  readonly delimiter: string;
  /** A chunk's size: whole records up to this many bytes (a longer record is a chunk of its own). */
  readonly chunkBytes: number;
  /** A record over this many bytes is refused unread. */
  readonly maxRowBytes: number;
  /** The input offset and line of the first byte pushed. */
  readonly offset: number;
  readonly line: number;
  /**
   * Every byte the cutter moves past, in input order, before the cut holding it comes out (including the
   * bytes of a refused record, which are not kept): scoreFile hashes them so that resume can check them.
   */
  readonly onBytes?: (bytes: Uint8Array) => void;
  /**
   * Hand out each chunk's bytes as a view instead of a copy, for a caller that reads them before it
   * pushes the next block (and does not reuse a pushed block before then). A cluster producer only hashes
   * the bytes of each chunk: a copy of every input byte was the main thread's largest allocation but
   * one, and V8 runs a full GC per so many bytes of buffers allocated.
   */
  readonly views?: boolean;
}

const EMPTY = new Uint8Array(0);

/** Cuts the blocks of one input, pushed in order, into chunks at record boundaries. */
export class RecordCutter {
  readonly #o: CutterOptions;
  readonly #d: number;
  /** The bytes after the last cut, kept for the next block. */
  #carry = EMPTY;
  /**
   * Where the carry and the next block are joined, reused from block to block: a fresh buffer per block
   * made the main thread collect garbage for memory it held only while cutting (V8 runs a full GC per
   * so many bytes of buffers allocated). Nothing keeps a view of it: cuts (unless `views`) and the carry
   * are copies.
   */
  #joined = EMPTY;
  /** The input offset just after the last byte pushed. */
  #pos: number;
  #line: number;
  /** The rest of a record over maxRowBytes being skipped: its first line, bytes and newlines so far, CSV quote state. */
  #skipping: { line: number; bytes: number; lines: number; state: Csv } | undefined;

  constructor(options: CutterOptions) {
    this.#o = options;
    this.#d = options.delimiter.charCodeAt(0);
    this.#pos = options.offset;
    this.#line = options.line;
  }

  /**
   * Push the next block of the input (`eof`: it is the last) and take the cuts it completes, in order.
   * The cutter keeps no view of `block` once the cuts are taken: the caller may reuse it for the next block.
   * Stopping early (leaving the loop over the cuts) leaves the cutter unusable, as when a run fails.
   */
  *push(block: Uint8Array, eof: boolean): Generator<Cut, void, undefined> {
    let buf = block;
    if (this.#carry.length > 0) {
      const n = this.#carry.length + block.length;
      if (this.#joined.length < n) this.#joined = new Uint8Array(Math.max(n, 2 * block.length));
      buf = this.#joined.subarray(0, n);
      buf.set(this.#carry, 0);
      buf.set(block, this.#carry.length);
    }
    const bufStart = this.#pos - this.#carry.length; // the input offset of buf[0]
    this.#pos += block.length;
    let off = 0;
    if (this.#skipping) {
      const stop = this.#skipOn(buf, eof);
      if (stop < 0) {
        this.#carry = EMPTY;
        return;
      }
      const s = this.#skipping;
      this.#skipping = undefined;
      this.#line = s.line + s.lines;
      yield { kind: "too-large", size: s.bytes, firstLine: s.line, endLine: this.#line, endOffset: bufStart + stop };
      off = stop;
    }
    const { chunkBytes, maxRowBytes, onBytes } = this.#o;
    while (off < buf.length) {
      if (!eof && buf.length - off < chunkBytes) break; // keep chunks full-size: read more first unless this is the end
      const end = this.#cutAt(buf, off, eof);
      if (!end) {
        if (this.#skipping) {
          // a record over maxRowBytes with no end in sight: the rest of the block streams past
          onBytes?.(buf.subarray(off));
          off = buf.length;
        }
        break;
      }
      const firstLine = this.#line;
      this.#line += end.lines;
      if (end.cut - off > maxRowBytes) {
        // refused unread: only its line and size travel
        onBytes?.(buf.subarray(off, end.cut));
        yield { kind: "too-large", size: end.cut - off, firstLine, endLine: this.#line, endOffset: bufStart + end.cut };
      } else {
        const bytes = this.#o.views ? buf.subarray(off, end.cut) : buf.slice(off, end.cut); // slice: a buffer of its own to transfer
        onBytes?.(bytes);
        yield { kind: "records", bytes, firstLine, endLine: this.#line, endOffset: bufStart + end.cut };
      }
      off = end.cut;
    }
    this.#carry = off < buf.length ? buf.slice(off) : EMPTY;
  }

  /**
   * Where the chunk starting at `off` ends: after its last whole record within `chunkBytes`, else after
   * the one record longer than that, else (at the end) at the end. Undefined when more bytes are needed,
   * or when the record is over maxRowBytes with no end in sight (the skip starts: see `#skipping`).
   */
  #cutAt(buf: Uint8Array, off: number, eof: boolean): { cut: number; lines: number } | undefined {
    const { syntax, chunkBytes, maxRowBytes } = this.#o;
    const d = this.#d;
    const last = lastRecordBoundary(buf, off, Math.min(off + chunkBytes, buf.length), syntax, d);
    if (last.end >= 0) return { cut: last.end, lines: last.lines };
    // one record longer than a chunk: cut after it
    const first = firstRecordBoundary(buf, off, buf.length, syntax, d);
    if (first.end >= 0) return { cut: first.end, lines: first.lines };
    if (eof) return { cut: buf.length, lines: countNewlines(buf, off, buf.length) }; // the last record, without a trailing newline
    if (buf.length - off > maxRowBytes) {
      const r = scanRecord(buf, off, buf.length, syntax, d, Csv.FieldStart);
      this.#skipping = { line: this.#line, bytes: buf.length - off, lines: r.lines, state: r.state };
    }
    return undefined;
  }

  /** Skip on through the record being skipped: the position after its end in `buf`, or -1 when it goes on past the block. */
  #skipOn(buf: Uint8Array, eof: boolean): number {
    const s = this.#skipping!;
    const r = scanRecord(buf, 0, buf.length, this.#o.syntax, this.#d, s.state);
    const stop = r.end >= 0 ? r.end : buf.length;
    this.#o.onBytes?.(buf.subarray(0, stop));
    s.bytes += stop;
    s.lines += r.end >= 0 ? r.lines : countNewlines(buf, 0, stop);
    s.state = r.state;
    return r.end < 0 && !eof ? -1 : stop;
  }
}
