// The in-memory statistics of the browser-safe subpath (`@evalkern/harness/browser`, which the web app
// runs in Web Workers) give the same numbers as the Node functions over scoreFile's files. That the
// browser-safe subpaths bundle for the browser with no Node module (as a bundler resolves them, `browser`
// fields included) is checked once for every package, by packages/cli/test/browser-bundles.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapCi, pairedTest, scoreFile, sliceScores } from "../src/index.js";
import * as browser from "../src/browser.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("in-memory statistics give the same numbers as the Node functions over scoreFile's files", () => {
  const dir = mkdtempSync(join(tmpdir(), "evalkern-browser-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("corpus scores, CIs, slice scores and the paired test", async () => {
    const input = join(root, "../../examples/pairs.jsonl");
    const lines = readFileSync(input, "utf8").trim().split("\n");
    const other = join(dir, "other.jsonl");
    writeFileSync(
      other,
      lines
        .map((l) => {
          const o = JSON.parse(l);
          o.hyp = `the ${o.hyp}`;
          return JSON.stringify(o);
        })
        .join("\n") + "\n",
    );
    const metrics = ["bleu", "chrf", "rouge", "ter"] as const;
    const a = await scoreFile({
      input,
      output: join(dir, "a.jsonl"),
      metrics: [...metrics],
      fields: { hypothesis: "hyp", references: ["refs"] },
      keepStatistics: true,
      bootstrap: true,
      workers: 1,
    });
    const b = await scoreFile({
      input: other,
      output: join(dir, "b.jsonl"),
      metrics: [...metrics],
      fields: { hypothesis: "hyp", references: ["refs"] },
      keepStatistics: true,
      workers: 1,
    });
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
    expect(await browser.sliceScores(ma, { lang }, { bootstrap: { resamples: 200, seed: 7 } })).toEqual(
      await sliceScores(a, { lang }, { bootstrap: { resamples: 200, seed: 7 }, workers: 1 }),
    );
    expect(await browser.pairedTest({ baseline: ma, system: memory(b), slices: { lang }, resamples: 300 })).toEqual(
      await pairedTest({ baseline: a, system: b, slices: { lang }, resamples: 300, workers: 1 }),
    );
  });
});
