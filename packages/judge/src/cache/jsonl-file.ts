// The JSONL layout of `FileCacheStore`: read as a stream of lines (a cache can outgrow the ~512 MB a
// JavaScript string may hold), unreadable lines skipped with a warning that names them, and every append
// started on a fresh line so a torn tail left by a crash never swallows the next record. Node-only; the
// caller passes `node:fs/promises` in (it is loaded lazily by ./file-store.ts).
import type { CacheEntry } from "./cache.js";

type Fs = typeof import("node:fs/promises");
type SyncFs = typeof import("node:fs");

/** Bytes read at a time when loading a JSONL cache. */
export const DEFAULT_READ_CHUNK_BYTES = 1 << 20;

/** Characters of a skipped line quoted in its warning. */
const PREVIEW_CHARS = 80;

/**
 * Every record is written as `{"key":…`: where a record glued onto a torn line by an older writer starts.
 */
const RECORD_START = '{"key":';

/** A line of a JSONL cache that could not be read and was skipped. */
export interface CacheFileWarning {
  /**
   * `TORN_CACHE_LINE`: the last line has no newline and does not parse (a crash mid-append); `UNREADABLE_CACHE_LINE`:
   * a complete line that is not a cache record (a torn line from an earlier crash, or foreign text).
   */
  readonly code: "TORN_CACHE_LINE" | "UNREADABLE_CACHE_LINE";
  readonly message: string;
  /** The cache file. */
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the skipped text in the file. */
  readonly offset: number;
  /** Bytes skipped. */
  readonly bytes: number;
  /** The start of the skipped text (at most 80 characters). */
  readonly preview: string;
}

/** One line of the file: where it starts, its length, and its bytes from its first "{" on. */
interface RawLine {
  readonly number: number;
  readonly offset: number;
  readonly bytes: number;
  /** The line's bytes from its first "{"; undefined when it has none. */
  readonly body: Buffer | undefined;
  /** Bytes of the line before `body` (e.g. the zeros a crash can leave before an appended record). */
  readonly bodyStart: number;
  /** The line's first bytes, for the warning. */
  readonly head: Buffer;
  readonly terminated: boolean;
}

/**
 * Calls `onLine` for every line of `path`, reading `chunkBytes` at a time. Only a line's bytes from its
 * first "{" on are kept: a line of zeros or other text that holds no record costs no memory.
 * Returns false when the file does not exist.
 */
async function eachLine(fs: Fs, path: string, chunkBytes: number, onLine: (line: RawLine) => void): Promise<boolean> {
  let handle: Awaited<ReturnType<Fs["open"]>>;
  try {
    handle = await fs.open(path, "r");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return false;
    throw error;
  }
  try {
    let pieces: Buffer[] = [];
    let head: Buffer | undefined;
    let bodyStart = -1;
    let bytes = 0;
    let offset = 0;
    let number = 1;
    const add = (piece: Buffer): void => {
      if (piece.length === 0) return;
      // a view, not a copy: each chunk is a buffer of its own, so the bytes stay valid after the next read
      head ??= piece.subarray(0, PREVIEW_CHARS * 4);
      if (bodyStart === -1) {
        const brace = piece.indexOf(0x7b); // "{"
        if (brace !== -1) {
          bodyStart = bytes + brace;
          pieces.push(piece.subarray(brace));
        }
      } else pieces.push(piece);
      bytes += piece.length;
    };
    const end = (terminated: boolean): void => {
      if (bytes > 0) {
        const body = bodyStart === -1 ? undefined : pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
        onLine({ number, offset, bytes, body, bodyStart: Math.max(bodyStart, 0), head: head ?? Buffer.alloc(0), terminated });
      }
      offset += bytes + (terminated ? 1 : 0);
      number++;
      pieces = [];
      head = undefined;
      bodyStart = -1;
      bytes = 0;
    };
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        if (newline === -1 || newline >= bytesRead) break;
        add(chunk.subarray(start, newline));
        end(true);
        start = newline + 1;
      }
      add(chunk.subarray(start, bytesRead));
    }
    end(false);
    return true;
  } finally {
    await handle.close();
  }
}

function parseRecord(text: string): { key: string; entry: CacheEntry } | undefined {
  try {
    const record = JSON.parse(text) as { key?: unknown; entry?: CacheEntry };
    if (typeof record?.key === "string" && record.entry && typeof record.entry === "object") {
      return { key: record.key, entry: record.entry };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** The line's bytes as text, or undefined when they cannot be one string (a line of over ~512 MB). */
function decode(body: Buffer, from = 0): string | undefined {
  try {
    return body.toString("utf8", from);
  } catch {
    return undefined;
  }
}

function warningOf(path: string, line: RawLine, skippedBytes: number, torn: boolean): CacheFileWarning {
  const preview = new TextDecoder()
    .decode(line.head.subarray(0, skippedBytes))
    .replace(/\uFFFD+$/, "")
    .slice(0, PREVIEW_CHARS);
  const where = `line ${line.number} (byte ${line.offset}, ${skippedBytes} bytes)`;
  return {
    code: torn ? "TORN_CACHE_LINE" : "UNREADABLE_CACHE_LINE",
    message: torn
      ? `judge cache ${path}: skipped the torn last ${where}, left by an interrupted write: ${JSON.stringify(preview)}`
      : `judge cache ${path}: skipped unreadable ${where}: ${JSON.stringify(preview)}`,
    path,
    line: line.number,
    offset: line.offset,
    bytes: skippedBytes,
    preview,
  };
}

/**
 * A record indexed by its key without being parsed: the line's bytes, parsed when the key is first asked
 * for. Loading a cache of ten thousand replies then costs a scan for newlines and keys, not ten thousand
 * object trees that all survive into the old generation (most of a replay's garbage collection).
 */
export class LazyRecord {
  constructor(
    readonly key: string,
    readonly line: RawLine,
    /** The key's record from an earlier line, used when this one turns out not to parse. */
    readonly previous: CacheEntry | LazyRecord | undefined,
  ) {}
}

/** A key, an entry or a record still to be parsed, as the JSONL store's map holds them. */
export type IndexedEntry = CacheEntry | LazyRecord;

/** `{"key":"<key>","entry":{`: the start of every record this store writes, with a key that needs no unescaping. */
const INDEXABLE = /^\{"key":"([A-Za-z0-9_-]{1,128})","entry":\{/;

/** Bytes enough to hold `INDEXABLE` with the longest key. */
const INDEX_PREFIX_BYTES = 160;

/**
 * The key of a line that can be indexed without parsing: it starts with a record as this store writes
 * it, ends with "}", and holds no second record start (no text glued onto a torn line, which only a
 * full parse can sort out). Undefined for anything else, which is parsed at once as before.
 */
function indexableKey(line: RawLine): string | undefined {
  const body = line.body;
  if (body === undefined || line.bodyStart !== 0 || body[body.length - 1] !== 0x7d) return undefined;
  const key = INDEXABLE.exec(body.toString("latin1", 0, INDEX_PREFIX_BYTES))?.[1];
  if (key === undefined || body.indexOf(RECORD_START, 1, "utf8") !== -1) return undefined;
  return key;
}

/**
 * The entry of `key`, parsing a lazily indexed record on first use. A record that turns out not to parse
 * is skipped with the warning a full load would have given it, and the key's record from an earlier line
 * (if any) is used instead, as if the line had been skipped at load.
 */
export function resolveEntry(
  map: Map<string, IndexedEntry>,
  key: string,
  path: string,
  warn: (w: CacheFileWarning) => void,
): CacheEntry | undefined {
  let value = map.get(key);
  while (value instanceof LazyRecord) {
    const text = decode(value.line.body!);
    const record = text === undefined ? undefined : parseRecord(text);
    if (record !== undefined && record.key === value.key) {
      map.set(key, record.entry);
      return record.entry;
    }
    warn(warningOf(path, value.line, value.line.bytes, !value.line.terminated));
    value = value.previous;
  }
  if (value === undefined) map.delete(key);
  else map.set(key, value);
  return value;
}

/**
 * The records of one line. A line an older writer glued onto a torn line (`{"key":"a","ent{"key":"b",…}`)
 * gives its last whole record; the torn text before it is reported.
 */
function readLine(path: string, line: RawLine, map: Map<string, IndexedEntry>, warn: (w: CacheFileWarning) => void): void {
  const key = indexableKey(line);
  if (key !== undefined) {
    map.set(key, new LazyRecord(key, line, map.get(key)));
    return;
  }
  const body = line.body;
  if (body === undefined) {
    // a blank line is no record and no damage
    if (line.bytes === line.head.length && line.head.toString("latin1").trim() === "") return;
    warn(warningOf(path, line, line.bytes, !line.terminated));
    return;
  }
  for (let at = 0; at !== -1; at = body.indexOf(RECORD_START, at + 1, "utf8")) {
    const text = decode(body, at);
    const record = text === undefined ? undefined : parseRecord(text);
    if (record !== undefined) {
      const skipped = line.bodyStart + at;
      if (skipped > 0) warn(warningOf(path, line, skipped, false));
      map.set(record.key, record.entry);
      return;
    }
  }
  warn(warningOf(path, line, line.bytes, !line.terminated));
}

/**
 * Loads a JSONL cache line by line (the last line for a key wins); a missing file is an empty cache.
 * Records as this store writes them are indexed by key and parsed on first use (`resolveEntry`).
 */
export async function readJsonlCache(
  fs: Fs,
  path: string,
  chunkBytes: number,
  warn: (w: CacheFileWarning) => void,
): Promise<Map<string, IndexedEntry>> {
  const map = new Map<string, IndexedEntry>();
  await eachLine(fs, path, chunkBytes, (line) => readLine(path, line, map, warn));
  return map;
}

/**
 * Appends `text` (one line ending in "\n") to `path`, after a newline when the file does not end in one:
 * the record after a torn tail starts on its own line and stays readable. Synchronous on purpose: five
 * system calls of a few microseconds each, where the promise API sends each of them through the thread
 * pool and a judge run appends a line per call.
 */
export function appendOnFreshLine(fs: SyncFs, path: string, text: string): void {
  const fd = fs.openSync(path, "a+");
  try {
    const { size } = fs.fstatSync(fd);
    let bytes = Buffer.from(text, "utf8");
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) bytes = Buffer.concat([Buffer.from("\n"), bytes]);
    }
    // "a+" opens with O_APPEND: every write lands at the end, whatever the position
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    fs.closeSync(fd);
  }
}

/** The default for warnings: Node's process warning (printed on stderr once per warning). */
export function emitCacheWarning(warning: CacheFileWarning): void {
  const proc = (globalThis as { process?: { emitWarning?: (message: string, options: { type: string; code: string }) => void } }).process;
  proc?.emitWarning?.(warning.message, { type: "EvalkernJudgeCacheWarning", code: warning.code });
}
