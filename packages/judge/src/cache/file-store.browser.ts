// What bundlers load for ./file-store.js when they build for the browser (the `browser` field of
// package.json): the same export, with no `node:` import, failing with a clear error when it is used.
import { JudgeConfigError } from "../errors.js";
import type { CacheEntry, JudgeCacheStore } from "./cache.js";
import type { FileCacheStoreOptions } from "./file-store.js";

export type { CacheFileWarning, FileCacheStoreOptions } from "./file-store.js";

/** `FileCacheStore` needs Node's file system: in a browser, constructing it throws `JudgeConfigError`. */
export class FileCacheStore implements JudgeCacheStore {
  constructor(_options: FileCacheStoreOptions) {
    throw new JudgeConfigError(
      "FileCacheStore needs Node's file system (node:fs) and is not available in a browser build: use " +
        "MemoryCacheStore, or a JudgeCacheStore of your own (e.g. on IndexedDB)",
      { argument: "store", expected: "a cache store available in this runtime", actual: "FileCacheStore" },
    );
  }
  get(_key: string): Promise<CacheEntry | undefined> {
    return Promise.reject(new JudgeConfigError("FileCacheStore is not available in a browser build", { argument: "store" }));
  }
  set(_key: string, _entry: CacheEntry): Promise<void> {
    return Promise.reject(new JudgeConfigError("FileCacheStore is not available in a browser build", { argument: "store" }));
  }
}
