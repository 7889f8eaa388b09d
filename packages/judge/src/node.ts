// `@evalkern/judge/node`: the parts of the judge that need Node (also Deno and Bun through their node:
// compatibility). Today that is the on-disk cache store. `FileCacheStore` is still exported from the
// package root too (it loads node:fs only on first use); a browser build gets a stand-in there that
// throws `JudgeConfigError` when constructed (the `browser` field of package.json).
export { FileCacheStore, type CacheFileWarning, type FileCacheStoreOptions } from "./cache/file-store.js";
