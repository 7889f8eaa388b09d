// The content-addressed cache: in-memory and on-disk (JSONL, dir), modes read-write / read-only replay /
// bypass / refresh, merged concurrent identical calls, and what is never stored.
import { appendFile, mkdtemp, open, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CacheMissError,
  FileCacheStore,
  JudgeCache,
  MemoryCacheStore,
  OpenAICompatibleJudge,
  canonicalJson,
  sha256Hex,
  zodSchema,
  type CacheFileWarning,
} from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, chatText, slow, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), "evalkern-judge-cache-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const Score = zodSchema("score", z.object({ reason: z.string(), score: z.number() }));
const q = (content: string) => [{ role: "user" as const, content }];

describe("cache keys", () => {
  it("canonical JSON sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"z":1}]},"b":1}');
  });

  it("canonical JSON is the text the keys of recorded caches were made from, down to holes, functions and non-finite numbers", () => {
    // index 0 is a hole, which Array.prototype.map kept and join wrote as nothing
    // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
    const sparse = [, 1];
    expect(canonicalJson(sparse)).toBe("[,1]");
    expect(canonicalJson({ f: () => 1, u: undefined, n: [undefined, Number.NaN, -Infinity, () => 1], s: Symbol("x") })).toBe(
      '{"n":[null,null,null,null],"s":null}',
    );
    // keys sort by UTF-16 code units: "Z" (0x5A) < "a" (0x61) < "é" (0xE9) < "😀" (0xD83D…)
    expect(canonicalJson({ "😀": 4, é: 3, a: 2, Z: 1, 'q"': [] })).toBe('{"Z":1,"a":2,"q\\"":[],"é":3,"😀":4}');
    expect(canonicalJson(new Date(0))).toBe("{}");
    expect(canonicalJson([{ b: [{}], a: "x\ny" }, "\u2028", 0.1, -0])).toBe('[{"a":"x\\ny","b":[{}]},"\u2028",0.1,0]');
  });
});

describe("cache key digests", () => {
  /** The digest as Web Crypto gives it (the path runtimes without node:crypto take), for comparison. */
  async function webCryptoHex(text: string): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  it("SHA-256 as FIPS 180-2 gives it, and byte for byte Web Crypto's digest (old caches keep their keys)", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    for (const text of [
      "Größe · 東京 · 🙂",
      "a lone surrogate \ud800 here",
      canonicalJson({ messages: [{ content: "x".repeat(5000) }] }),
    ]) {
      expect(await sha256Hex(text)).toBe(await webCryptoHex(text));
    }
  });
});

describe("JSONL appends", () => {
  const entry = (text: string) => ({
    version: 1 as const,
    endpoint: "chat" as const,
    model: "m",
    data: { text },
    inputTokens: 1,
    outputTokens: 1,
    createdAt: "t",
  });

  it("concurrent stores each write one whole line, in call order", async () => {
    const path = join(dir, "concurrent", "many.jsonl");
    const store = new FileCacheStore({ path });
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.set(`k${i}`, entry(`reply ${i}`))));
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l).key)).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`));
  });

  it("a folder removed after the first append is made again for the next one", async () => {
    const folder = join(dir, "removed");
    const path = join(folder, "cache.jsonl");
    const store = new FileCacheStore({ path });
    await store.set("a", entry("first"));
    await rm(folder, { recursive: true, force: true });
    await store.set("b", entry("second"));
    const lines = (await readFile(path, "utf8")).trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).key)).toEqual(["b"]);
  });
});

describe("in-memory cache", () => {
  it("answers identical calls from the cache: zero requests, identical values, zero cost", async () => {
    let n = 0;
    server.handle("chat", () => chatJson({ reason: "r", score: ++n }, { usage: { prompt_tokens: 50, completion_tokens: 5 } }));
    const judge = testJudge(server, { cache: new JudgeCache(), price: { inputPerMTok: 1, outputPerMTok: 1 } });
    const first = await judge.generate({ messages: q("a"), schema: Score });
    const again = await judge.generate({ messages: q("a"), schema: Score });
    expect(server.requests).toHaveLength(1);
    expect(again.value).toEqual(first.value);
    expect(again.cached).toBe(true);
    expect(again.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0, requests: 0 });
    expect(judge.ledger.total()).toMatchObject({ calls: 2, cachedCalls: 1, requests: 1, inputTokens: 50 });
    // Anything that changes the request changes the key.
    await judge.generate({ messages: q("a"), schema: Score, temperature: 0.5 });
    await judge.generate({ messages: q("a"), schema: Score, sample: 1 });
    await judge.generate({ messages: q("a"), schema: Score, promptVersion: "v2" });
    expect(server.requests).toHaveLength(4);
    expect(judge.cache!.stats).toEqual({ hits: 1, misses: 4, writes: 4 });
  });

  it("merges concurrent identical calls into one request", async () => {
    server.handle("chat", () => slow(50, chatJson({ reason: "r", score: 1 })));
    const judge = testJudge(server, { cache: new JudgeCache() });
    const [a, b] = await Promise.all([
      judge.generate({ messages: q("same"), schema: Score }),
      judge.generate({ messages: q("same"), schema: Score }),
    ]);
    expect(server.requests).toHaveLength(1);
    expect([a.cached, b.cached]).toEqual([false, true]);
    expect(b.usage.inputTokens).toBe(0);
  });

  it("never stores errors or truncated replies", async () => {
    server.enqueue("chat", chatText("x", { finishReason: "length" }), chatText("y"));
    const judge = testJudge(server, { cache: new JudgeCache() });
    await judge.generate({ messages: q("t") });
    const second = await judge.generate({ messages: q("t") });
    expect(second.value).toBe("y");
    expect(server.requests).toHaveLength(2);
  });

  it("bounded memory store evicts the least recently used entry", async () => {
    const store = new MemoryCacheStore({ maxEntries: 2 });
    const entry = { version: 1 as const, endpoint: "chat" as const, model: "m", data: {}, inputTokens: 0, outputTokens: 0, createdAt: "" };
    await store.set("a", entry);
    await store.set("b", entry);
    await store.get("a");
    await store.set("c", entry);
    expect(await store.get("b")).toBeUndefined();
    expect(await store.get("a")).toBeDefined();
  });
});

describe("a cache path the system will not create", () => {
  it.each(["jsonl", "dir"] as const)("%s: under /proc the write fails with the system's error instead of hanging", async (layout) => {
    if (process.platform !== "linux") return;
    const store = new FileCacheStore({
      path: layout === "jsonl" ? "/proc/evalkern-no-such/deeper/cache.jsonl" : "/proc/evalkern-no-such/deeper/cache",
      layout,
    });
    const error = await store.set("a".repeat(64), { value: 1 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toMatch(/^E[A-Z]+$/);
  });
});

describe("directory cache keys are names, never paths", () => {
  it("refuses keys with separators, dots or traversal on set and get, and writes nothing outside its folder", async () => {
    const root = join(dir, "traversal");
    const store = new FileCacheStore({ path: join(root, "cache"), layout: "dir" });
    const entry = { value: { ok: true } } as never;
    for (const key of ["../escape", "..", "a/b", "a\\b", "/etc/passwd", "k.json", "", "x".repeat(129), "é"]) {
      await expect(store.set(key, entry)).rejects.toMatchObject({ name: "JudgeConfigError", argument: "key" });
      await expect(store.get(key)).rejects.toMatchObject({ name: "JudgeConfigError", argument: "key" });
    }
    await expect(readFile(join(root, "escape.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    // hashes and plain names still work
    await store.set("a".repeat(64), entry);
    await store.set("my_key-1", entry);
    expect(await store.get("my_key-1")).toEqual({ value: { ok: true } });
    expect(await store.size()).toBe(2);
  });
});

describe.each(["jsonl", "dir"] as const)("on-disk cache (%s)", (layout) => {
  it("a re-run in read-only replay mode makes zero calls and gives identical values; a miss is a typed error", async () => {
    const path = join(dir, layout === "jsonl" ? "cache.jsonl" : "cache-dir");
    let n = 0;
    server.handle("chat", () => chatJson({ reason: `r${n}`, score: ++n * 0.1 }));
    const recording = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path, layout }) }) });
    const recorded = await Promise.all(["a", "b", "c"].map((x) => recording.generate({ messages: q(x), schema: Score })));
    expect(server.requests).toHaveLength(3);

    server.reset();
    // A new process: new store instance reading the same path, a judge on another port.
    const replayCache = new JudgeCache({ store: new FileCacheStore({ path, layout }), mode: "read-only" });
    const replaying = testJudge(server, { cache: replayCache });
    const replayed = await Promise.all(["a", "b", "c"].map((x) => replaying.generate({ messages: q(x), schema: Score })));
    expect(server.requests).toHaveLength(0);
    expect(replayed.map((r) => r.value)).toEqual(recorded.map((r) => r.value));
    expect(replayed.every((r) => r.cached)).toBe(true);
    expect(replaying.ledger.total()).toMatchObject({ requests: 0, costUsd: 0, cachedCalls: 3 });

    const miss = await replaying.generate({ messages: q("never recorded"), schema: Score }).catch((e: unknown) => e);
    expect(miss).toBeInstanceOf(CacheMissError);
    expect((miss as CacheMissError).kind).toBe("cache_miss");
    expect(server.requests).toHaveLength(0);
    expect(await new FileCacheStore({ path, layout }).size()).toBe(3);

    // replay needs no endpoint and no key: with api.openai.com as the default base URL and no
    // EVALKERN_JUDGE_API_KEY, a read-write judge is a config error, a read-only one is not
    const offline = { model: "test-judge", env: {} };
    expect(() => new OpenAICompatibleJudge(offline)).toThrow(/No API key/);
    const keyless = new OpenAICompatibleJudge({
      ...offline,
      cache: new JudgeCache({ store: new FileCacheStore({ path, layout }), mode: "read-only" }),
    });
    const again = await Promise.all(["a", "b", "c"].map((x) => keyless.generate({ messages: q(x), schema: Score })));
    expect(again.map((r) => r.value)).toEqual(recorded.map((r) => r.value));
  });

  it("bypass calls the model and stores nothing; refresh calls the model and overwrites", async () => {
    const path = join(dir, layout === "jsonl" ? "modes.jsonl" : "modes-dir");
    const store = new FileCacheStore({ path, layout });
    let n = 0;
    server.handle("chat", () => chatJson({ reason: "r", score: ++n }));
    const base = new JudgeCache({ store });
    const rw = testJudge(server, { cache: base });
    expect((await rw.generate({ messages: q("m"), schema: Score })).value.score).toBe(1);
    const bypass = testJudge(server, { cache: base.withMode("bypass") });
    expect((await bypass.generate({ messages: q("m"), schema: Score })).value.score).toBe(2);
    expect((await bypass.generate({ messages: q("other"), schema: Score })).value.score).toBe(3);
    const refresh = testJudge(server, { cache: base.withMode("refresh") });
    expect((await refresh.generate({ messages: q("m"), schema: Score })).value.score).toBe(4);
    const reread = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path, layout }), mode: "read-only" }) });
    expect((await reread.generate({ messages: q("m"), schema: Score })).value.score).toBe(4);
    await expect(reread.generate({ messages: q("other"), schema: Score })).rejects.toBeInstanceOf(CacheMissError);
    expect(server.requests).toHaveLength(4);
  });
});

describe("JSONL file format", () => {
  it("one line per stored call; a torn last line is skipped", async () => {
    const path = join(dir, "torn.jsonl");
    server.handle("chat", () => chatText("ok"));
    const judge = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path }) }) });
    await judge.generate({ messages: q("1") });
    await judge.generate({ messages: q("2") });
    await appendFile(path, '{"key": "torn", "entry": {');
    const lines = (await readFile(path, "utf8")).split("\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(await new FileCacheStore({ path }).size()).toBe(2);
  });
});

describe("JSONL cache after a crash (issue 19.15)", () => {
  const entry = (text: string) => ({
    version: 1 as const,
    endpoint: "chat" as const,
    model: "m",
    data: { text },
    inputTokens: 1,
    outputTokens: 1,
    createdAt: "t",
  });

  it("a record appended after a torn last line starts on its own line and replays; a warning names the torn tail", async () => {
    const path = join(dir, "crash.jsonl");
    let n = 0;
    server.handle("chat", () => chatText(`reply ${++n}`));
    const recording = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path, onWarning: () => {} }) }) });
    await recording.generate({ messages: q("one") });
    await recording.generate({ messages: q("two") });
    // the process dies halfway through writing the second line
    const [first] = (await readFile(path, "utf8")).split("\n");
    const size = (await stat(path)).size;
    await truncate(path, size - 40);

    // the next run: its load skips the torn line with a warning, its new record goes on a fresh line
    const warnings: CacheFileWarning[] = [];
    const next = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path, onWarning: (w) => warnings.push(w) }) }) });
    expect((await next.generate({ messages: q("three") })).value).toBe("reply 3");
    expect(warnings).toHaveLength(1);
    const firstBytes = Buffer.byteLength(first!) + 1;
    expect(warnings[0]).toMatchObject({ code: "TORN_CACHE_LINE", path, line: 2, offset: firstBytes, bytes: size - 40 - firstBytes });
    expect(warnings[0]!.preview.startsWith('{"key":"')).toBe(true);
    expect(warnings[0]!.message).toContain(`${path}: skipped the torn last line 2 (byte ${firstBytes}, ${size - 40 - firstBytes} bytes)`);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(4); // one, the torn two, three, and the empty text after the final newline
    expect(JSON.parse(lines[2]!).entry.data.text).toBe("reply 3");

    // replay: "one" and "three" answer from the file; "two" was never completely written, so it misses
    server.reset();
    const replayWarnings: CacheFileWarning[] = [];
    const store = new FileCacheStore({ path, onWarning: (w) => replayWarnings.push(w) });
    const replay = testJudge(server, { cache: new JudgeCache({ store, mode: "read-only" }) });
    expect((await replay.generate({ messages: q("one") })).value).toBe("reply 1");
    expect((await replay.generate({ messages: q("three") })).value).toBe("reply 3");
    await expect(replay.generate({ messages: q("two") })).rejects.toBeInstanceOf(CacheMissError);
    expect(server.requests).toHaveLength(0);
    expect(replayWarnings.map((w) => [w.code, w.line])).toEqual([["UNREADABLE_CACHE_LINE", 2]]);
  });

  it("a record an older writer glued onto a torn line, or after zeros a crash left, is read again", async () => {
    const path = join(dir, "glued.jsonl");
    const line = (key: string, text: string) => JSON.stringify({ key, entry: entry(text) });
    const torn = line("lost", "never finished").slice(0, 30);
    await writeFile(path, `${line("a", "first")}\n${torn}${line("b", "glued")}\n${"\0".repeat(64)}${line("c", "after zeros")}\n\n`);
    const warnings: CacheFileWarning[] = [];
    const store = new FileCacheStore({ path, onWarning: (w) => warnings.push(w) });
    expect((await store.get("a"))?.data).toEqual({ text: "first" });
    expect((await store.get("b"))?.data).toEqual({ text: "glued" });
    expect((await store.get("c"))?.data).toEqual({ text: "after zeros" });
    expect(await store.get("lost")).toBeUndefined();
    expect(warnings.map((w) => [w.code, w.line, w.bytes])).toEqual([
      ["UNREADABLE_CACHE_LINE", 2, 30],
      ["UNREADABLE_CACHE_LINE", 3, 64],
    ]);
    expect(warnings[0]!.preview).toBe(torn);
  });

  it("without onWarning a skipped line is a Node process warning", async () => {
    const path = join(dir, "warn.jsonl");
    await writeFile(path, '{"key":"x","entry":{"ver');
    const seen: Error[] = [];
    const listener = (w: Error) => seen.push(w);
    process.on("warning", listener);
    try {
      expect(await new FileCacheStore({ path }).size()).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listener);
    }
    expect(seen.map((w) => [w.name, (w as { code?: string }).code])).toEqual([["EvalkernJudgeCacheWarning", "TORN_CACHE_LINE"]]);
    expect(seen[0]!.message).toContain("warn.jsonl: skipped the torn last line 1");
  });

  it("is read as a stream: records longer than the read chunk, split inside multi-byte characters, all come back", async () => {
    const path = join(dir, "chunks.jsonl");
    const texts = Array.from({ length: 300 }, (_, i) => `${i} é漢😀 ${"x".repeat(i % 37)}`);
    await writeFile(path, texts.map((t, i) => JSON.stringify({ key: `k${i}`, entry: entry(t) })).join("\n") + "\n");
    for (const readChunkBytes of [5, 64, 4096]) {
      const warnings: CacheFileWarning[] = [];
      const store = new FileCacheStore({ path, readChunkBytes, onWarning: (w) => warnings.push(w) });
      expect(await store.size()).toBe(300);
      for (const i of [0, 1, 150, 299]) expect((await store.get(`k${i}`))?.data).toEqual({ text: texts[i] });
      expect(warnings).toEqual([]);
    }
    expect(() => new FileCacheStore({ path, readChunkBytes: 0 })).toThrow(/readChunkBytes/);
  });

  it("a cache file over the ~512 MB a string can hold loads (a sparse file: no disk used)", async () => {
    // 600 MB: one record, ~600 MB of zeros (a hole, as a crash on some file systems leaves), one record.
    // Reading it into one string failed every row with "Invalid string length" / ERR_STRING_TOO_LONG.
    const path = join(dir, "huge.jsonl");
    const first = `${JSON.stringify({ key: "first", entry: entry("one") })}\n`;
    const last = `\n${JSON.stringify({ key: "last", entry: entry("two") })}\n`;
    const holeEnd = 600 * 1024 * 1024;
    const handle = await open(path, "w");
    try {
      await handle.write(first, 0, "utf8");
      await handle.write(last, holeEnd, "utf8");
    } finally {
      await handle.close();
    }
    const warnings: CacheFileWarning[] = [];
    const store = new FileCacheStore({ path, onWarning: (w) => warnings.push(w) });
    expect((await store.get("first"))?.data).toEqual({ text: "one" });
    expect((await store.get("last"))?.data).toEqual({ text: "two" });
    expect(warnings.map((w) => [w.code, w.line, w.offset, w.bytes])).toEqual([
      ["UNREADABLE_CACHE_LINE", 2, first.length, holeEnd - first.length],
    ]);
    await rm(path);
  }, 120_000);
});

describe("JSONL records parsed on first use", () => {
  const entry = (text: string) => ({
    version: 1 as const,
    endpoint: "chat" as const,
    model: "m",
    data: { text },
    inputTokens: 1,
    outputTokens: 1,
    createdAt: "t",
  });
  const line = (key: string, text: string) => JSON.stringify({ key, entry: entry(text) });

  it("a whole-looking record that does not parse is skipped when its key is asked for; its earlier record answers", async () => {
    const path = join(dir, "lazy-bad.jsonl");
    const good = line("k", "old");
    // starts like a record, ends with "}", holds no second record: indexed at load, found bad when parsed
    const bad = '{"key":"k","entry":{"version":1,"data":{"text":"new"} oops}';
    const other = '{"key":"lone","entry":{"version":1,"data":{"text":"x"}} }}';
    await writeFile(path, `${good}\n${bad}\n${other}\n${line("fine", "ok")}\n`);
    const warnings: CacheFileWarning[] = [];
    const store = new FileCacheStore({ path, onWarning: (w) => warnings.push(w) });
    expect(await store.get("fine")).toEqual(entry("ok"));
    expect(warnings).toEqual([]);
    expect(await store.get("k")).toEqual(entry("old"));
    expect(warnings.map((w) => [w.code, w.line, w.offset, w.bytes, w.preview])).toEqual([
      ["UNREADABLE_CACHE_LINE", 2, good.length + 1, bad.length, bad],
    ]);
    // parsed once: the same entry again, no second warning
    expect(await store.get("k")).toBe(await store.get("k"));
    expect(warnings).toHaveLength(1);
    // a key whose only line is bad is no entry, and counts as none
    expect(await store.get("lone")).toBeUndefined();
    expect(warnings.map((w) => w.line)).toEqual([2, 3]);
    expect(await store.size()).toBe(2);
  });

  it("in read-only replay a key whose only line does not parse is a cache miss, with the warning", async () => {
    const path = join(dir, "lazy-replay.jsonl");
    const bad = '{"key":"gone","entry":{"version":1,"data":{"text":"x"} ,}';
    await writeFile(path, `${bad}\n`);
    const warnings: CacheFileWarning[] = [];
    const cache = new JudgeCache({ store: new FileCacheStore({ path, onWarning: (w) => warnings.push(w) }), mode: "read-only" });
    await expect(cache.lookup("gone")).rejects.toBeInstanceOf(CacheMissError);
    expect(cache.stats).toEqual({ hits: 0, misses: 1, writes: 0 });
    expect(warnings.map((w) => [w.code, w.line, w.offset, w.bytes])).toEqual([["UNREADABLE_CACHE_LINE", 1, 0, bad.length]]);
  });

  it("the last line for a key wins, whether parsed at load or on first use; a stored entry replaces an unparsed one", async () => {
    const path = join(dir, "lazy-order.jsonl");
    // a key with a backslash escape cannot be indexed without parsing: it is parsed at load
    const escaped = JSON.stringify({ key: 'q"k', entry: entry("escaped") });
    await writeFile(path, `${line("a", "1")}\n${line("a", "2")}\n${escaped}\n${line("b", "1")}\n`);
    const store = new FileCacheStore({ path, onWarning: () => {} });
    expect((await store.get("a"))?.data).toEqual({ text: "2" });
    expect((await store.get('q"k'))?.data).toEqual({ text: "escaped" });
    await store.set("b", entry("stored"));
    expect((await store.get("b"))?.data).toEqual({ text: "stored" });
    const reread = new FileCacheStore({ path, onWarning: () => {} });
    expect((await reread.get("b"))?.data).toEqual({ text: "stored" });
    expect(await reread.size()).toBe(3);
  });
});
