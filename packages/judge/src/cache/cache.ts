// The content-addressed cache of judge calls (docs/spec/judges.md §10.8): identical calls are answered from the
// store, so a re-run costs nothing and yields the same scores. Only validated, complete replies are
// stored — never errors, truncated or invalid output.
import { CacheMissError, JudgeConfigError } from "../errors.js";

/** What is stored per call. `data` is endpoint-specific (the chat reply text and logprobs, or scores). */
export interface CacheEntry {
  readonly version: 1;
  readonly endpoint: "chat" | "completions" | "embeddings" | "moderations";
  readonly model: string;
  readonly data: unknown;
  /** Tokens the original call used (a hit costs none of them). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly createdAt: string;
}

/** Where entries live. Implementations: `MemoryCacheStore`, `FileCacheStore` (Node). */
export interface JudgeCacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  /** Entries stored (optional). */
  size?(): Promise<number>;
}

/**
 * - `"read-write"`: answer hits from the store, call the model on a miss and store the reply (default).
 * - `"read-only"`: replay; a miss throws `CacheMissError` and nothing is sent to the model.
 * - `"bypass"`: neither read nor write.
 * - `"refresh"`: always call the model and overwrite the stored reply.
 */
export type CacheMode = "read-write" | "read-only" | "bypass" | "refresh";

const MODES: readonly CacheMode[] = ["read-write", "read-only", "bypass", "refresh"];

/** An in-memory store, optionally bounded (least recently used entries are evicted). */
export class MemoryCacheStore implements JudgeCacheStore {
  private readonly map = new Map<string, CacheEntry>();
  readonly maxEntries: number;

  constructor(options: { readonly maxEntries?: number } = {}) {
    const max = options.maxEntries ?? Infinity;
    if (typeof max !== "number" || !(max >= 1)) {
      throw new JudgeConfigError("maxEntries must be >= 1", { argument: "maxEntries", actual: String(max) });
    }
    this.maxEntries = max;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const entry = this.map.get(key);
    if (entry !== undefined) {
      this.map.delete(key);
      this.map.set(key, entry);
    }
    return entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.map.delete(key);
    this.map.set(key, entry);
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  async size(): Promise<number> {
    return this.map.size;
  }
}

export interface JudgeCacheOptions {
  /** Default: a new unbounded `MemoryCacheStore`. */
  readonly store?: JudgeCacheStore;
  /** Default `"read-write"`. */
  readonly mode?: CacheMode;
}

/** Hit/miss counters of a cache. */
export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly writes: number;
}

/**
 * A cache of judge calls over a store, with a mode.
 *
 * Details: the key is the SHA-256 of the canonical request (model, messages, generation parameters,
 * schema, logprob settings, sample index, prompt version, namespace) — see `OpenAICompatibleJudge`.
 * Concurrent identical calls are merged: the second waits for the first instead of paying twice.
 *
 * @example
 * const cache = new JudgeCache({ store: new FileCacheStore({ path: ".evalkern/judge-cache.jsonl" }) });
 * const judge = new OpenAICompatibleJudge({ model: "gpt-4o-mini", cache });
 * // later, in CI: replay only, a miss is an error
 * const replay = cache.withMode("read-only");
 */
export class JudgeCache {
  readonly store: JudgeCacheStore;
  readonly mode: CacheMode;
  private readonly counters: { hits: number; misses: number; writes: number };
  private readonly inflight: Map<string, Promise<unknown>>;

  constructor(options: JudgeCacheOptions = {}) {
    const mode = options.mode ?? "read-write";
    if (!MODES.includes(mode)) {
      throw new JudgeConfigError(`cache mode must be one of ${MODES.join(", ")}`, { argument: "mode", actual: String(mode) });
    }
    this.mode = mode;
    this.store = options.store ?? new MemoryCacheStore();
    this.counters = { hits: 0, misses: 0, writes: 0 };
    this.inflight = new Map();
  }

  /** The same store in another mode (counters are per instance). */
  withMode(mode: CacheMode): JudgeCache {
    return new JudgeCache({ store: this.store, mode });
  }

  get stats(): CacheStats {
    return { ...this.counters };
  }

  get reads(): boolean {
    return this.mode === "read-write" || this.mode === "read-only";
  }

  get writes(): boolean {
    return this.mode === "read-write" || this.mode === "refresh";
  }

  /** The stored entry, or undefined (counts a miss); in read-only mode a miss throws `CacheMissError`. */
  async lookup(key: string): Promise<CacheEntry | undefined> {
    if (!this.reads) return undefined;
    const entry = await this.store.get(key);
    if (entry !== undefined) {
      this.counters.hits++;
      return entry;
    }
    this.counters.misses++;
    if (this.mode === "read-only") throw new CacheMissError(key);
    return undefined;
  }

  /** Store `entry` when the mode writes. */
  async save(key: string, entry: CacheEntry): Promise<void> {
    if (!this.writes) return;
    await this.store.set(key, entry);
    this.counters.writes++;
  }

  /** Count a stored entry that could not be used (e.g. it no longer validates) as a miss. */
  discard(key: string): void {
    this.counters.hits--;
    this.counters.misses++;
    if (this.mode === "read-only")
      throw new CacheMissError(key, `The cached reply for key ${key.slice(0, 16)}… no longer validates and the cache is read-only`);
  }

  /**
   * Merge concurrent identical calls: while `key` is running, later callers share its promise and get
   * `shared: true` (they should report the result as cached, at zero marginal cost).
   */
  async singleFlight<T>(key: string, task: () => Promise<T>): Promise<{ value: T; shared: boolean }> {
    if (this.mode === "bypass" || this.mode === "refresh") return { value: await task(), shared: false };
    const running = this.inflight.get(key);
    if (running) return { value: (await running) as T, shared: true };
    const promise = task().finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    return { value: await promise, shared: false };
  }
}
