// The browser-safe subpaths (`@evalkern/harness/browser`, `@evalkern/harness/report`) import no Node
// module anywhere in their import graph: every static and literal dynamic import of the built files is
// followed (relative files, and @evalkern packages through their `exports`), and none may name a
// `node:` module or a Node builtin. The web app bundles these for the browser; the in-memory statistics
// must also give the same numbers as the Node functions over scoreFile's files.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapCi, pairedTest, scoreFile, sliceScores } from "../src/index.js";
import * as browser from "../src/browser.js";
import { stripComments } from "../../../scripts/dev/boundaries.mjs";


const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const builtins = new Set(builtinModules);

function specifiers(source: string): string[] {
  const code = stripComments(source);
  const out: string[] = [];
  const re = /(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]*?\sfrom\s*)?["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g;
  for (const m of code.matchAll(re)) out.push((m[1] ?? m[2])!);
  return out;
}

/** The file a bare specifier resolves to (package `exports`, import condition), searching node_modules upward. */
function resolveBare(spec: string, from: string): string {
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  const sub = `.${spec.slice(name.length)}`;
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const pkgDir = join(dir, "node_modules", name);
    if (existsSync(join(pkgDir, "package.json"))) {
      const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { exports?: Record<string, unknown>; module?: string; main?: string };
      let target: unknown = pkg.exports ? (sub === "." && typeof pkg.exports === "string" ? pkg.exports : pkg.exports[sub]) : sub === "." ? (pkg.module ?? pkg.main ?? "index.js") : sub;
      while (target && typeof target === "object") {
        const t = target as Record<string, unknown>;
        target = t.browser ?? t.import ?? t.default;
      }
      if (typeof target !== "string") throw new Error(`${spec}: no export for ${sub} in ${pkgDir}`);
      return resolve(pkgDir, target);
    }
    if (dirname(dir) === dir) throw new Error(`cannot resolve ${spec} from ${from}`);
  }
}

/** Every Node import reachable from `entry`, with the chain of files that leads to it. */
function nodeImports(entry: string): string[] {
  const seen = new Set<string>();
  const bad: string[] = [];
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const s of specifiers(readFileSync(file, "utf8"))) {
      if (s.startsWith("node:") || builtins.has(s) || builtins.has(s.split("/")[0]!)) {
        bad.push(`${[...chain, file].map((f) => f.replace(root, ".")).join(" → ")} imports ${s}`);
        continue;
      }
      const target = s.startsWith(".") ? resolve(dirname(file), s) : resolveBare(s, file);
      const found = [target, `${target}.js`, `${target}.mjs`, join(target, "index.js")].find((f) => existsSync(f) && statSync(f).isFile());
      if (!found) throw new Error(`${file}: cannot resolve ${s}`);
      visit(realpathSync(found), [...chain, file]);
    }
  };
  visit(entry, []);
  expect(seen.size).toBeGreaterThan(3);
  return bad;
}

describe("browser-safe subpaths", () => {
  for (const sub of ["./browser", "./report"]) {
    it(`${sub} imports no node: module or Node builtin anywhere in its import graph`, () => {
      const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { import: string }> };
      const entry = join(root, pkg.exports[sub]!.import);
      expect(existsSync(entry), `${entry} (run the build first)`).toBe(true);
      expect(nodeImports(entry)).toEqual([]);
    });
  }

  it("the scanner does see Node imports (the Node entry has them)", () => {
    expect(nodeImports(join(root, "dist/node/bootstrap-files.js"))).toEqual([expect.stringContaining("imports node:fs")]);
  });
});

describe("in-memory statistics give the same numbers as the Node functions over scoreFile's files", () => {
  const dir = mkdtempSync(join(tmpdir(), "evalkern-browser-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("corpus scores, CIs, slice scores and the paired test", async () => {
    const input = join(root, "../../examples/pairs.jsonl");
    const lines = readFileSync(input, "utf8").trim().split("\n");
    const other = join(dir, "other.jsonl");
    writeFileSync(other, lines.map((l) => { const o = JSON.parse(l); o.hyp = `the ${o.hyp}`; return JSON.stringify(o); }).join("\n") + "\n");
    const metrics = ["bleu", "chrf", "rouge", "ter"] as const;
    const a = await scoreFile({ input, output: join(dir, "a.jsonl"), metrics: [...metrics], fields: { hypothesis: "hyp", references: ["refs"] }, keepStatistics: true, bootstrap: true, workers: 1 });
    const b = await scoreFile({ input: other, output: join(dir, "b.jsonl"), metrics: [...metrics], fields: { hypothesis: "hyp", references: ["refs"] }, keepStatistics: true, workers: 1 });
    const memory = (s: typeof a): browser.MemoryRun => {
      const buf = readFileSync(s.statistics!.files[0]!);
      return {
        metricSpecs: s.metricSpecs,
        rowWidth: s.statistics!.rowWidth,
        statistics: [new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4)],
        records: s.rows.records,
        scored: s.rows.scored,
        partials: s.partials,
        ...(s.sequential ? { sequential: s.sequential } : {}),
        nrefs: s.nrefs,
      };
    };
    const ma = memory(a);
    const summary = await browser.corpusSummary(ma);
    for (const [name, m] of Object.entries(a.metrics)) {
      expect(summary[name]!.scores).toEqual(m.scores);
      expect(summary[name]!.signature).toBe(m.signature);
    }
    expect(await browser.bootstrapCi(ma)).toEqual(await bootstrapCi(a, { workers: 1 }));
    for (const [name, m] of Object.entries(a.metrics)) expect((await browser.bootstrapCi(ma))[name]).toEqual(m.ci);
    const lang = lines.map((l) => (JSON.parse(l) as { lang: string }).lang);
    expect(await browser.sliceScores(ma, { lang }, { bootstrap: { resamples: 200, seed: 7 } })).toEqual(await sliceScores(a, { lang }, { bootstrap: { resamples: 200, seed: 7 }, workers: 1 }));
    expect(await browser.pairedTest({ baseline: ma, system: memory(b), slices: { lang }, resamples: 300 })).toEqual(
      await pairedTest({ baseline: a, system: b, slices: { lang }, resamples: 300, workers: 1 }),
    );
  });
});
