// What travels through the queue between the producer (`scoreFileDistributed`) and the workers
// (`runWorker`): the chunk job's data (JSON text, BullMQ's) and the chunk's result, a binary frame (a short
// JSON header, then the chunk's output bytes and f32 statistics rows as they are, so the producer only
// copies them into its files). Bytes inside JSON (a chunk's input when it travels through Redis) are
// base64; every other number is JSON, whose shortest round-trip form gives back the same double
// (non-finite numbers and -0 are tagged), so the exact partial sums and TER's sequential values are
// bit-identical to a local run's.
//
// Also: the queue URL (redis:// or rediss://, optionally with a password) turned into ioredis options,
// and the same URL with its password removed, for every message that names it.
import { createHash, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { InvalidArgumentError, kernelSignature } from "@evalkern/core-wasm";
import type { ChunkInput, ChunkResult } from "../../bulk/chunk.js";
import { createBulkMetric, type NormalizedMetric } from "../../bulk/metrics.js";
import { HARNESS_VERSION } from "../../version.js";
import type { ResolvedFields } from "../../bulk/records.js";
import type { RowsOutput } from "../../bulk/rows.js";
import type { SuperBlockJob } from "../../bulk/statistics-core.js";

/** Queue name workers and producers share by default. */
export const DEFAULT_QUEUE_NAME = "evalkern";
/** Key prefix in Redis (BullMQ's default). */
export const DEFAULT_PREFIX = "bull";

/** What a worker needs to score a run's chunks: built-in metric specs and the row settings, nothing else. */
export interface RemoteConfig {
  readonly metrics: readonly NormalizedMetric[];
  readonly fields: ResolvedFields;
  readonly keepStatistics: boolean;
  readonly rows?: RowsOutput;
  readonly strictUtf8: boolean;
  /** Time budget of one row (ms, 0: none); a chunk gets this plus a thousandth of it per line. */
  readonly rowTimeoutMs: number;
}

/** The version of the job and result format (a worker refuses jobs of any other). */
export const WIRE_VERSION = 3;

/** The data of one chunk job. */
export interface ChunkJobData {
  readonly v: typeof WIRE_VERSION;
  /** The run's identity: its name (`--job`) and a random tag of this run (see `newRunId`). */
  readonly run: string;
  /** The producer's code signature (`queueSignature`): a worker whose own differs refuses the job. */
  readonly sig: string;
  /** How long the chunk's result may wait in Redis for its producer (ms); it expires after that. */
  readonly ttlMs: number;
  readonly config: RemoteConfig;
  /** First and last input line of the chunk (1-based, inclusive). */
  readonly lines: readonly [number, number];
  /** `encodeInput` of the chunk ("" for a super-block job). */
  readonly input: string;
  /**
   * A bootstrap super-block job instead of a chunk: its statistics rows and counts are in the run's
   * payload key of the job (`QueueKeys.payload`), this is what to expect there.
   */
  readonly superBlock?: { readonly index: number; readonly bytes: number };
}

// ------------------------------------------------------------------------- JSON with bytes

function b64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
}
/** Base64 to a fresh, aligned ArrayBuffer (typed arrays over it need alignment). */
function unb64(text: string): ArrayBuffer {
  const buf = Buffer.from(text, "base64");
  const out = new ArrayBuffer(buf.length);
  new Uint8Array(out).set(buf);
  return out;
}

function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "number") {
    if (Number.isFinite(value) && !Object.is(value, -0)) return value;
    return { $n: Object.is(value, -0) ? "-0" : String(value) };
  }
  if (value instanceof Uint8Array) return { $u8: b64(value) };
  if (value instanceof Float32Array) return { $f32: b64(value) };
  if (value instanceof Float64Array) return { $f64: b64(value) };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1) {
      if (typeof o.$n === "string") return o.$n === "-0" ? -0 : Number(o.$n);
      if (typeof o.$u8 === "string") return new Uint8Array(unb64(o.$u8));
      if (typeof o.$f32 === "string") return new Float32Array(unb64(o.$f32));
      if (typeof o.$f64 === "string") return new Float64Array(unb64(o.$f64));
    }
  }
  return value;
}

export function encode(value: unknown): string {
  return JSON.stringify(value, replacer);
}
export function decode<T>(text: string): T {
  return JSON.parse(text, reviver) as T;
}

export const encodeInput = (input: ChunkInput): string => encode(input);

/** The first bytes of a stored result frame ("EKR" and the wire version). */
const RESULT_MAGIC = [0x45, 0x4b, 0x52, WIRE_VERSION] as const;

/**
 * A chunk's result as a worker stores it in Redis (its own key, not the job's return value: BullMQ copies
 * return values into its event stream), signed with the worker's code signature. The frame: 4 magic bytes,
 * the header's length (u32 LE), the header (JSON: signature, the result without its output and statistics,
 * their byte lengths), padding to 4 bytes, then the output bytes and the statistics rows, each padded to 4.
 * The producer copies the two byte runs into its files as they are: no per-row work.
 */
export function encodeResult(sig: string, result: ChunkResult): Buffer {
  const { output, statistics, ...rest } = result;
  const stats = statistics ? Buffer.from(statistics.buffer, statistics.byteOffset, statistics.byteLength) : undefined;
  const header = Buffer.from(encode({ sig, result: rest, output: output?.length ?? -1, statistics: stats?.length ?? -1 }));
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const at = 8 + header.length + pad(header.length);
  const outLen = output ? output.length + pad(output.length) : 0;
  const frame = Buffer.alloc(at + outLen + (stats?.length ?? 0));
  frame.set(RESULT_MAGIC, 0);
  frame.writeUInt32LE(header.length, 4);
  header.copy(frame, 8);
  if (output) frame.set(output, at);
  if (stats) stats.copy(frame, at + outLen);
  return frame;
}

const malformed = (what: string) => new InvalidArgumentError(`malformed chunk result (${what})`, { argument: "result" });

/** A stored result: its signature (undefined when it has none) and, when signed by `expected`, the result. */
export function decodeResult(frame: Buffer, expected: string): { readonly sig: string | undefined; readonly result?: ChunkResult } {
  if (frame.length < 8 || RESULT_MAGIC.some((b, i) => frame[i] !== b)) return { sig: undefined };
  const headerLength = frame.readUInt32LE(4);
  if (8 + headerLength > frame.length) throw malformed("header");
  const v = decode<{ sig?: unknown; result?: unknown; output?: unknown; statistics?: unknown }>(
    frame.toString("utf8", 8, 8 + headerLength),
  );
  const sig = v && typeof v === "object" && typeof v.sig === "string" ? v.sig : undefined;
  if (sig !== expected) return { sig };
  const len = (x: unknown) => (typeof x === "number" && Number.isSafeInteger(x) && x >= -1 ? x : undefined);
  const outLen = len(v.output);
  const statLen = len(v.statistics);
  if (!v.result || typeof v.result !== "object" || outLen === undefined || statLen === undefined || (statLen % 4 !== 0 && statLen !== -1))
    throw malformed("header");
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const at = 8 + headerLength + pad(headerLength);
  const statsAt = at + (outLen > 0 ? outLen + pad(outLen) : 0);
  if (statsAt + Math.max(0, statLen) !== frame.length) throw malformed("lengths");
  // views into the frame; the statistics are copied only when the frame sits unaligned in its buffer
  const output = outLen >= 0 ? frame.subarray(at, at + outLen) : undefined;
  let statistics: Float32Array | undefined;
  if (statLen >= 0 && (frame.byteOffset + statsAt) % 4 === 0)
    statistics = new Float32Array(frame.buffer, frame.byteOffset + statsAt, statLen / 4);
  else if (statLen >= 0) {
    statistics = new Float32Array(statLen / 4);
    new Uint8Array(statistics.buffer).set(frame.subarray(statsAt, statsAt + statLen));
  }
  const result = { ...(v.result as ChunkResult), ...(output ? { output } : {}), ...(statistics ? { statistics } : {}) };
  return { sig, result };
}

// ------------------------------------------------------------------------ super-block frames

const SUPER_MAGIC = [0x45, 0x4b, 0x53, WIRE_VERSION] as const;
const SUMS_MAGIC = [0x45, 0x4b, 0x42, WIRE_VERSION] as const;

/** Magic, header length, JSON header, padding to 8 bytes, then the byte runs (each a multiple of 8 but the last). */
function frame(magic: readonly number[], header: unknown, runs: readonly ArrayBufferView[]): Buffer {
  const head = Buffer.from(encode(header));
  const at = 8 + head.length + ((8 - ((8 + head.length) % 8)) % 8);
  const out = Buffer.alloc(at + runs.reduce((a, r) => a + r.byteLength, 0));
  out.set(magic, 0);
  out.writeUInt32LE(head.length, 4);
  head.copy(out, 8);
  let o = at;
  for (const r of runs) {
    out.set(new Uint8Array(r.buffer, r.byteOffset, r.byteLength), o);
    o += r.byteLength;
  }
  return out;
}

function unframe(buf: Buffer, magic: readonly number[], what: string): { header: Record<string, unknown>; body: Uint8Array } | undefined {
  if (buf.length < 8 || magic.some((b, i) => buf[i] !== b)) return undefined;
  const n = buf.readUInt32LE(4);
  if (8 + n > buf.length) throw new InvalidArgumentError(`malformed ${what} (header)`, { argument: what });
  const header = decode<Record<string, unknown>>(buf.toString("utf8", 8, 8 + n));
  if (!header || typeof header !== "object") throw new InvalidArgumentError(`malformed ${what} (header)`, { argument: what });
  const at = 8 + n + ((8 - ((8 + n) % 8)) % 8);
  // an own, aligned copy: typed arrays over it need alignment
  const body = new Uint8Array(Math.max(0, buf.length - at));
  body.set(buf.subarray(at));
  return { header, body };
}

/** A super-block job's payload as the producer stores it: its settings, counts (f64) and statistics rows (f32). */
export function encodeSuperBlock(job: SuperBlockJob): Buffer {
  const { rows, counts, ...rest } = job;
  return frame(SUPER_MAGIC, { ...rest, K: counts.length, rowsLength: rows.length }, [counts, rows]);
}

/** A stored super-block payload, checked for shape (a worker trusts nothing that comes through the queue). */
export function decodeSuperBlock(buf: Buffer): SuperBlockJob {
  const bad = (why: string) => new InvalidArgumentError(`malformed super-block job (${why})`, { argument: "superBlock" });
  const f = unframe(buf, SUPER_MAGIC, "superBlock");
  if (!f) throw bad("not a super-block payload of this version");
  const h = f.header;
  const int = (v: unknown, min = 0) => typeof v === "number" && Number.isSafeInteger(v) && v >= min;
  if (
    !int(h.index) ||
    !int(h.rowWidth, 1) ||
    !int(h.from) ||
    !int(h.usable, 1) ||
    !int(h.K, 1) ||
    !int(h.rowsLength) ||
    !int(h.seed, -(2 ** 53))
  )
    throw bad("header");
  const W = h.rowWidth as number;
  if (!Array.isArray(h.columns) || !h.columns.every((c) => int(c, 1) && (c as number) < W)) throw bad("columns");
  const K = h.K as number;
  const rowsLength = h.rowsLength as number;
  if (rowsLength % W !== 0 || f.body.length !== K * 8 + rowsLength * 4) throw bad("lengths");
  return {
    index: h.index as number,
    rowWidth: W,
    columns: h.columns as number[],
    seed: h.seed as number,
    from: h.from as number,
    usable: h.usable as number,
    counts: new Float64Array(f.body.buffer, 0, K),
    rows: new Float32Array(f.body.buffer, K * 8, rowsLength),
  };
}

/** A super-block's sums as a worker stores them, signed like a chunk's result. */
export function encodeSums(sig: string, index: number, sums: Float64Array): Buffer {
  return frame(SUMS_MAGIC, { sig, index, length: sums.length }, [sums]);
}

/** Stored sums: their signature, and when signed by `expected`, the sums of super-block `index`. */
export function decodeSums(
  buf: Buffer,
  expected: string,
  index: number,
): { readonly sig: string | undefined; readonly sums?: Float64Array } {
  const f = unframe(buf, SUMS_MAGIC, "sums");
  if (!f) return { sig: undefined };
  const sig = typeof f.header.sig === "string" ? f.header.sig : undefined;
  if (sig !== expected) return { sig };
  const length = f.header.length;
  if (f.header.index !== index || typeof length !== "number" || f.body.length !== length * 8)
    throw new InvalidArgumentError("malformed super-block sums", { argument: "sums" });
  return { sig, sums: new Float64Array(f.body.buffer, 0, length) };
}

/**
 * What must be the same on the producer and its workers for a worker's numbers to be the producer's:
 * the harness version, the exact kernel build (wasm hash included) and the signatures of the run's
 * metrics (every option and version). A worker of another build refuses the job; the producer commits
 * only results signed with its own signature.
 */
export async function queueSignature(specs: readonly NormalizedMetric[]): Promise<string> {
  const metrics = await Promise.all(specs.map((s) => createBulkMetric(s, { load: false })));
  const h = createHash("sha256");
  for (const m of metrics) h.update(`${m.spec.name}\0${m.signature("var")}\n`);
  return `evalkern-queue:${WIRE_VERSION}|harness:${HARNESS_VERSION}|${kernelSignature()}|metrics:${h.digest("hex").slice(0, 16)}`;
}

/**
 * A run's identity: its name and a random tag, so that no later run can take (or be given) the jobs and
 * results of an earlier one with the same name; only a producer resuming this very run reuses it.
 */
export function newRunId(name: string): string {
  return `${name.slice(0, 80)}.${randomBytes(8).toString("hex")}`;
}

/** The Redis keys of the queue's runs (beside BullMQ's own; job ids hold no ':', so no job key is one of these). */
export interface QueueKeys {
  /** `<prefix>:<queue>:`, the start of a job's hash key. */
  readonly jobPrefix: string;
  /** The set of runs that have (or had) jobs on the queue. */
  readonly runs: string;
  /** The set of a run's job ids. */
  readonly runJobs: (run: string) => string;
  /** Exists while the run's producer is alive (it renews the expiry). */
  readonly alive: (run: string) => string;
  /** A chunk's result (expires on its own). */
  readonly result: (jobId: string) => string;
  /** A super-block job's statistics rows and counts (expires on its own). */
  readonly payload: (jobId: string) => string;
}

export function queueKeys(prefix: string, queueName: string): QueueKeys {
  const base = `${prefix}:${queueName}:`;
  return {
    jobPrefix: base,
    runs: `${base}evalkern-runs`,
    runJobs: (run) => `${base}evalkern-run:${run}`,
    alive: (run) => `${base}evalkern-alive:${run}`,
    result: (id) => `${base}evalkern-result:${id}`,
    payload: (id) => `${base}evalkern-payload:${id}`,
  };
}

/**
 * BullMQ's event stream of the queue is trimmed to about this many events (its default is 10 000). The
 * producer reads events as they come and polls besides, so it needs no history.
 */
export const EVENTS_MAX_LEN = 1000;

/**
 * A chunk given as a byte range of a file the workers can read themselves (`sharedInput`), instead of
 * its bytes: the worker reads [start, start + length) and checks the sha256 before scoring.
 */
export interface SharedRange {
  readonly path: string;
  readonly start: number;
  readonly length: number;
  readonly sha256: string;
}

/** A chunk input as it travels: either with its bytes, or with a `shared` range in place of them. */
export type WireInput = ChunkInput | (Omit<Extract<ChunkInput, { kind: "jsonl" | "csv" }>, "bytes"> & { readonly shared: SharedRange });

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The chunk input inside a job, checked for shape (a worker trusts nothing that comes through the queue). */
export function decodeInput(text: unknown): WireInput {
  if (typeof text !== "string") throw new InvalidArgumentError("job input must be a string", { argument: "input" });
  const v = decode<Record<string, unknown>>(text);
  const line = (x: unknown) => typeof x === "number" && Number.isSafeInteger(x) && x >= 1;
  const presetOk = (p: unknown) =>
    p === undefined ||
    (Array.isArray(p) &&
      p.every(
        (e) =>
          e &&
          typeof e === "object" &&
          line((e as { position?: unknown }).position) &&
          typeof (e as { message?: unknown }).message === "string",
      ));
  const sharedOk = (r: unknown) => {
    const x = r as Partial<SharedRange> | undefined;
    return (
      !!x &&
      typeof x.path === "string" &&
      x.path.length > 0 &&
      Number.isSafeInteger(x.start) &&
      x.start! >= 0 &&
      Number.isSafeInteger(x.length) &&
      x.length! >= 0 &&
      typeof x.sha256 === "string" &&
      /^[0-9a-f]{64}$/.test(x.sha256)
    );
  };
  if (
    v &&
    (v.kind === "jsonl" || v.kind === "csv") &&
    (v.bytes instanceof Uint8Array || (v.bytes === undefined && sharedOk(v.shared))) &&
    line(v.firstLine) &&
    presetOk(v.presetErrors)
  ) {
    if (
      v.kind === "csv" &&
      !(
        Array.isArray(v.header) &&
        v.header.every((h) => typeof h === "string") &&
        typeof v.delimiter === "string" &&
        v.delimiter.length === 1 &&
        (v.quote === undefined || typeof v.quote === "boolean")
      )
    ) {
      throw new InvalidArgumentError("malformed CSV chunk (header, delimiter, quote)", { argument: "input" });
    }
    return v as unknown as WireInput;
  }
  if (v && v.kind === "errors" && presetOk(v.errors) && Array.isArray(v.errors)) return v as unknown as WireInput;
  throw new InvalidArgumentError("malformed chunk input", { argument: "input" });
}

/**
 * A chunk job's id: the run, the chunk's first line and a hash of the run's fingerprint, the worker
 * settings and the chunk's bytes. A restarted producer finds the results of chunks already scored under
 * the same id; different content never shares one.
 */
export function chunkJobId(run: string, fingerprint: string, config: RemoteConfig, encodedInput: string, firstLine: number): string {
  const h = createHash("sha256")
    .update(fingerprint)
    .update("\0")
    .update(encode(config))
    .update("\0")
    .update(encodedInput)
    .digest("hex")
    .slice(0, 24);
  return `${run}.${firstLine}.${h}`;
}

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Check a run name (`--job`): letters, digits, `.`, `_`, `-`, at most 100 (BullMQ ids may not hold `:`). */
export function checkRunName(name: unknown): string {
  if (typeof name !== "string" || !RUN_NAME.test(name)) {
    throw new InvalidArgumentError("job must be 1–100 letters, digits, '.', '_' or '-' (starting with a letter or digit)", {
      argument: "job",
    });
  }
  return name;
}

// ------------------------------------------------------------------------------ the queue URL

export interface QueueConnection {
  /** ioredis options (BullMQ's `connection`). */
  readonly options: {
    host: string;
    port: number;
    db: number;
    username?: string;
    password?: string;
    tls?: { servername?: string };
    maxRetriesPerRequest: null;
    enableOfflineQueue: boolean;
    retryStrategy: (times: number) => number;
    connectTimeout: number;
  };
  /** The URL with its password replaced by `***` (for messages). */
  readonly safeUrl: string;
  /** Remove the password (raw and URL-encoded) from any text. */
  readonly redact: (text: string) => string;
}

/** Parse `redis://[user][:password@]host[:port][/db]` or `rediss://…` (TLS). */
export function parseQueueUrl(url: unknown): QueueConnection {
  if (typeof url !== "string" || url.length === 0)
    throw new InvalidArgumentError("queue must be a redis:// or rediss:// URL", { argument: "queue" });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // never echo the text: it may hold a password
    throw new InvalidArgumentError("queue is not a valid URL (expected redis://[:password@]host[:port][/db] or rediss://…)", {
      argument: "queue",
    });
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new InvalidArgumentError(`queue URL must start with redis:// or rediss:// (got ${u.protocol}//)`, { argument: "queue" });
  }
  const rawPassword = u.password;
  const password = rawPassword ? decodeURIComponent(rawPassword) : undefined;
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const dbText = u.pathname.replace(/^\//, "");
  const db = dbText === "" ? 0 : Number(dbText);
  if (!Number.isSafeInteger(db) || db < 0)
    throw new InvalidArgumentError(`queue URL database must be a number (got ${JSON.stringify(dbText)})`, { argument: "queue" });
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1";
  const port = u.port ? Number(u.port) : 6379;
  const safe = new URL(url);
  if (safe.password) safe.password = "***";
  const safeUrl = safe.toString();
  // also as `util.inspect` and JSON escape it (debug output of the Redis client shows quoted arguments)
  const escaped = password ? [inspect(password).slice(1, -1), JSON.stringify(password).slice(1, -1)] : [];
  const secrets = [...new Set([rawPassword, password, ...escaped])]
    .filter((s): s is string => !!s && s.length > 0)
    .sort((a, b) => b.length - a.length); // longest first: a shorter form never cuts a longer one apart
  const redact = (text: string): string => {
    let out = String(text);
    // the whole URL first (keeps the rest of it readable), then any stray copy of the password
    out = out.split(url).join(safeUrl);
    for (const s of secrets) out = out.split(s).join("***");
    return out;
  };
  return {
    options: {
      host,
      port,
      db,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(u.protocol === "rediss:" ? { tls: { servername: host } } : {}),
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      retryStrategy: (times: number) => Math.min(100 * times, 1000),
      connectTimeout: 10_000,
    },
    safeUrl,
    redact,
  };
}

/** An error's message with the password removed. */
export function safeMessage(e: unknown, redact: (s: string) => string): string {
  return redact(e instanceof Error ? e.message : String(e));
}
