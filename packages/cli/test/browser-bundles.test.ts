// Every entry point that needs no process and no file system bundles for the browser with esbuild
// (platform "browser", format "esm"), as a user's bundler would build it: no `node:` import, no Node
// built-in, no module left unresolved. The Node-only pieces behind those entry points (the judge's
// FileCacheStore, the dsrs process runner and grammar paths) are swapped by the packages' `browser`
// field for stand-ins that fail with a typed error when used, never at bundle time.
//
// BROWSER_ENTRIES is the one list of browser-safe entry points (the root README says so).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execFileSync } from "node:child_process";
import { build, type BuildResult, type Metafile } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The browser-safe entry points of the workspace. */
export const BROWSER_ENTRIES = [
  "@evalkern/core-wasm",
  "@evalkern/metrics",
  "@evalkern/metrics/dspy",
  "@evalkern/metrics/byob",
  "@evalkern/metrics/evalwire",
  "@evalkern/metrics/lmeval",
  "@evalkern/metrics/dsrs",
  "@evalkern/metrics/deepeval",
  "@evalkern/metrics/common",
  "@evalkern/metrics/python",
  "@evalkern/metrics/registry",
  "@evalkern/metrics/registry/rules",
  "@evalkern/judge",
  "@evalkern/judge/registry",
  "@evalkern/judge/autoevals",
  "@evalkern/harness/browser",
  "@evalkern/harness/report",
] as const;

/**
 * Entry points that need Node (files, worker threads, processes): not bundled for the browser.
 * `@evalkern/harness` installs a Node runtime adapter at import and holds the bulk scorer.
 */
export const NODE_ONLY_ENTRIES = ["@evalkern/judge/node", "@evalkern/harness", "@evalkern/cli"] as const;

/** Optional peer dependencies the user installs and bundles themselves (loaded with a dynamic import). */
const OPTIONAL_PEERS = ["web-tree-sitter", "tree-sitter-wasms"];

async function bundle(contents: string): Promise<BuildResult & { metafile: Metafile; text: string }> {
  const result = await build({
    stdin: { contents, resolveDir: CLI, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    external: OPTIONAL_PEERS,
  });
  return { ...result, metafile: result.metafile!, text: result.outputFiles?.[0]?.text ?? "" };
}

const work = mkdtempSync(join(tmpdir(), "evalkern-browser-bundles-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("browser bundles (esbuild, platform browser, esm)", () => {
  for (const entry of BROWSER_ENTRIES) {
    it(`${entry} bundles with no node: import and nothing unresolved`, async () => {
      let result;
      try {
        result = await bundle(`export * from ${JSON.stringify(entry)};`);
      } catch (error) {
        const errors = (error as { errors?: { text: string; location?: { file: string; line: number } }[] }).errors ?? [];
        throw new Error(`${entry} does not bundle for the browser:\n${errors.map((e) => `  ${e.text} (${e.location?.file}:${e.location?.line})`).join("\n") || String(error)}`);
      }
      expect(result.errors).toEqual([]);
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.filter((path) => path.startsWith("node:") || path.includes("(disabled)"))).toEqual([]);
      const external = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
      expect(external.filter((path) => !OPTIONAL_PEERS.includes(path))).toEqual([]);
      // what esbuild resolved is the whole story (a `node:` import would have failed to resolve above);
      // the text check only guards against a static import esbuild might have kept verbatim
      expect(result.text).not.toMatch(/^\s*import\s[^;]*?\bfrom\s*["']node:/m);
    });
  }

  it("the Node-only pieces fail with a clear typed error when a browser build uses them", async () => {
    const result = await bundle(`
      import { FileCacheStore, MemoryCacheStore } from "@evalkern/judge";
      import { defaultCommandRunner } from "@evalkern/metrics/dsrs";
      new MemoryCacheStore();
      try { new FileCacheStore({ path: "judge-cache.jsonl" }); console.log("no error"); }
      catch (e) { console.log(e.name, e.code, e.message); }
      try { const run = await defaultCommandRunner(); await run({ argv: ["echo", "hi"] }); console.log("no error"); }
      catch (e) { console.log(e.name, e.code, e.message); }
    `);
    // run the browser build where it can start (Node: the runner's own "not Node" check passes, so the
    // browser stand-in itself is what answers)
    const file = join(work, "probe.mjs");
    writeFileSync(file, result.text);
    const printed = execFileSync(process.execPath, [pathToFileURL(file).pathname], { encoding: "utf8" }).trim().split("\n");
    expect(printed[0]).toMatch(/^JudgeConfigError JUDGE_CONFIG FileCacheStore needs Node's file system .* browser/);
    expect(printed[1]).toMatch(/^CommandRunnerUnavailableError COMMAND_RUNNER_UNAVAILABLE .*browser build/);
  });

  it("the browser build of the harness runs DSPy's Evaluate and BYOB scoring with no Node adapter", async () => {
    const result = await bundle(`
      import { Evaluate, Example, context, benchmark, runtime } from "@evalkern/harness/browser";
      import { exactMatch, ready } from "@evalkern/metrics/byob";
      await ready();
      const devset = [Example.from({ q: "2+2?", a: "4" }).withInputs("q"), Example.from({ q: "3+3?", a: "6" }).withInputs("q")];
      const evaluate = new Evaluate({ devset, metric: (e, p) => e.a === p.a, displayProgress: false });
      const result = await context({ lm: "m" }, () => evaluate.call(({ q }) => ({ a: q === "2+2?" ? "4" : "5" })));
      const qa = benchmark({ name: "qa", dataset: [{ question: "Capital of France?", answer: "Paris" }], prompt: "{question}", targetField: "answer" }, exactMatch);
      console.log(runtime().name, result.score, qa.normalizedName);
    `);
    const file = join(work, "harness-probe.mjs");
    writeFileSync(file, result.text);
    const printed = execFileSync(process.execPath, [pathToFileURL(file).pathname], { encoding: "utf8" }).trim();
    expect(printed).toBe("fallback 50 qa");
  });

  it("Node-only entry points are not in the browser list", () => {
    for (const entry of NODE_ONLY_ENTRIES) expect(BROWSER_ENTRIES as readonly string[]).not.toContain(entry);
  });
});

describe("side effects a bundler must keep", () => {
  it('import "@evalkern/vitest" survives bundling: expect is extended', async () => {
    for (const entry of ["@evalkern/vitest"]) {
      const result = await build({
        stdin: { contents: `import ${JSON.stringify(entry)};`, resolveDir: CLI, sourcefile: "setup.js", loader: "js" },
        bundle: true,
        platform: "node",
        format: "esm",
        write: false,
        logLevel: "silent",
        external: ["vitest", "@evalkern/core-wasm", "@evalkern/metrics", "@evalkern/metrics/*"],
      });
      expect(result.warnings.map((w) => w.text), entry).toEqual([]);
      expect(result.outputFiles[0]!.text, entry).toMatch(/expect\.extend\(evalkernMatchers\)/);
    }
  });
});
