// `@evalkern/judge/node`: the parts of the judge that need Node (also Deno and Bun through their node:
// compatibility): the on-disk cache store, and `nodeFetch`, a keep-alive `fetch` over `node:http` for busy
// runs. `FileCacheStore` is still exported from the package root too (it loads node:fs only on first
// use); a browser build gets a stand-in there that throws `JudgeConfigError` when constructed (the
// `browser` field of package.json).
export { FileCacheStore, type CacheFileWarning, type FileCacheStoreOptions } from "./cache/file-store.js";
export { nodeFetch, type NodeFetchOptions } from "./openai/node-fetch.js";
