// The on-disk cache store. Node-only (also Deno and Bun through their node: compatibility), and loaded
// lazily: `node:fs` is imported on first use, so importing @evalkern/judge stays runtime-neutral.
import { JudgeConfigError } from "../errors.js";
import type { CacheEntry, JudgeCacheStore } from "./cache.js";
import {
  appendOnFreshLine,
  DEFAULT_READ_CHUNK_BYTES,
  emitCacheWarning,
  readJsonlCache,
  resolveEntry,
  type CacheFileWarning,
  type IndexedEntry,
} from "./jsonl-file.js";

export type { CacheFileWarning } from "./jsonl-file.js";

type Fs = typeof import("node:fs/promises");
type SyncFs = typeof import("node:fs");
type Path = typeof import("node:path");

let modules: Promise<{ fs: Fs; syncFs: SyncFs; path: Path }> | undefined;
function nodeModules(): Promise<{ fs: Fs; syncFs: SyncFs; path: Path }> {
  modules ??= Promise.all([import("node:fs/promises"), import("node:fs"), import("node:path")]).then(([fs, syncFs, path]) => ({
    fs,
    syncFs,
    path,
  }));
  return modules;
}

export interface FileCacheStoreOptions {
  /** A `.jsonl` file (layout "jsonl") or a directory (layout "dir"). */
  readonly path: string;
  /**
   * - `"jsonl"` (default): one append-only file, one `{"key", "entry"}` line per call; the last line for
   *   a key wins. Loaded into memory on first use, read line by line (any file size); each record is
   *   indexed by its key and parsed when the key is first asked for. A line that cannot be read (a torn
   *   last line after a crash) is skipped with a warning — at load, or, for a line that looks like a whole
   *   record but does not parse, when its key is first asked for (the key's earlier record, if any, is
   *   used instead) — and every append starts on a fresh line, so the records after it stay readable.
   *   Easy to commit next to a test suite and to diff.
   * - `"dir"`: one `<key[0:2]>/<key>.json` file per call, written atomically (temp file + rename); good
   *   for very large caches and several processes writing at once.
   */
  readonly layout?: "jsonl" | "dir";
  /**
   * Told about each line of a JSONL cache that is skipped because it cannot be read (a torn last line,
   * text that is no record). Default: a Node process warning on stderr (`EvalkernJudgeCacheWarning`).
   */
  readonly onWarning?: (warning: CacheFileWarning) => void;
  /** Bytes read at a time when loading a JSONL cache. Default 1 MiB; the file is never read whole. */
  readonly readChunkBytes?: number;
}

/**
 * A cache store on disk (Node). Pair with `JudgeCache` for modes.
 *
 * @example
 * const cache = new JudgeCache({ store: new FileCacheStore({ path: "judge-cache.jsonl" }) });
 */
/**
 * `mkdir -p` in a bounded number of steps: each level is tried at most twice. (Node's recursive mkdir
 * loops for ever where mkdir answers ENOENT although the parent exists, as under /proc.)
 */
async function makeDirectories(fs: Fs, path: Path, dir: string, depth = 0): Promise<void> {
  try {
    await fs.mkdir(dir);
    return;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || depth >= 256 || path.dirname(dir) === dir) throw error;
  }
  await makeDirectories(fs, path, path.dirname(dir), depth + 1);
  await fs.mkdir(dir).catch((error: unknown) => {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  });
}

/** Keys a directory cache accepts (SHA-256 hex keys and simple names): no separators, dots or traversal. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

export class FileCacheStore implements JudgeCacheStore {
  readonly path: string;
  readonly layout: "jsonl" | "dir";
  private readonly onWarning: (warning: CacheFileWarning) => void;
  private readonly readChunkBytes: number;
  private loaded: Promise<Map<string, IndexedEntry>> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The JSONL file's folder, made on the first append (again when it has gone since). */
  private folder: Promise<void> | undefined;

  constructor(options: FileCacheStoreOptions) {
    if (typeof options?.path !== "string" || options.path === "") {
      throw new JudgeConfigError("FileCacheStore needs a path", { argument: "path" });
    }
    const layout = options.layout ?? "jsonl";
    if (layout !== "jsonl" && layout !== "dir") {
      throw new JudgeConfigError('layout must be "jsonl" or "dir"', { argument: "layout", actual: String(layout) });
    }
    if (options.onWarning !== undefined && typeof options.onWarning !== "function") {
      throw new JudgeConfigError("onWarning must be a function", { argument: "onWarning", actual: typeof options.onWarning });
    }
    const chunk = options.readChunkBytes ?? DEFAULT_READ_CHUNK_BYTES;
    if (!Number.isInteger(chunk) || chunk < 1 || chunk > 1 << 30) {
      throw new JudgeConfigError("readChunkBytes must be an integer from 1 to 2^30", { argument: "readChunkBytes", actual: String(chunk) });
    }
    this.path = options.path;
    this.layout = layout;
    this.onWarning = options.onWarning ?? emitCacheWarning;
    this.readChunkBytes = chunk;
  }

  private load(): Promise<Map<string, IndexedEntry>> {
    this.loaded ??= (async () => {
      const { fs } = await nodeModules();
      return readJsonlCache(fs, this.path, this.readChunkBytes, this.onWarning);
    })();
    return this.loaded;
  }

  private async entryPath(key: string): Promise<string> {
    // a key names a file inside the cache folder: only a hash or a plain name, never a path
    if (typeof key !== "string" || !SAFE_KEY.test(key)) {
      throw new JudgeConfigError(
        `cache key ${JSON.stringify(String(key).slice(0, 80))} is not a valid key for a directory cache: ` +
          `keys are hashes or names of letters, digits, "_" ` +
          `and "-" (1–128 characters)`,
        { argument: "key", expected: "[A-Za-z0-9_-]{1,128}", actual: String(key).slice(0, 80) },
      );
    }
    const { path } = await nodeModules();
    return path.join(this.path, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (this.layout === "jsonl") return resolveEntry(await this.load(), key, this.path, this.onWarning);
    const { fs } = await nodeModules();
    try {
      return JSON.parse(await fs.readFile(await this.entryPath(key), "utf8")) as CacheEntry;
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return undefined;
      if (error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const { fs, syncFs, path } = await nodeModules();
    if (this.layout === "jsonl") {
      const map = await this.load();
      map.set(key, entry);
      const line = `${JSON.stringify({ key, entry })}\n`;
      // Appends are serialised so concurrent calls never interleave lines.
      this.writing = this.writing.then(async () => {
        this.folder ??= makeDirectories(fs, path, path.dirname(this.path)).catch((error: unknown) => {
          this.folder = undefined;
          throw error;
        });
        await this.folder;
        try {
          appendOnFreshLine(syncFs, this.path, line);
        } catch (error) {
          if ((error as { code?: string }).code !== "ENOENT") throw error;
          // the folder was removed after the first append: make it again, once
          this.folder = makeDirectories(fs, path, path.dirname(this.path));
          await this.folder;
          appendOnFreshLine(syncFs, this.path, line);
        }
      });
      return this.writing;
    }
    const file = await this.entryPath(key);
    await makeDirectories(fs, path, path.dirname(file));
    const temp = `${file}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
    await fs.writeFile(temp, JSON.stringify(entry), "utf8");
    await fs.rename(temp, file);
  }

  async size(): Promise<number> {
    if (this.layout === "jsonl") {
      // records are parsed on first use: a line that turns out not to parse is no entry
      const map = await this.load();
      for (const key of [...map.keys()]) resolveEntry(map, key, this.path, this.onWarning);
      return map.size;
    }
    const { fs, path } = await nodeModules();
    let count = 0;
    let shards: string[];
    try {
      shards = await fs.readdir(this.path);
    } catch {
      return 0;
    }
    for (const shard of shards) {
      try {
        count += (await fs.readdir(path.join(this.path, shard))).filter((f) => f.endsWith(".json")).length;
      } catch {
        // not a shard directory
      }
    }
    return count;
  }
}
