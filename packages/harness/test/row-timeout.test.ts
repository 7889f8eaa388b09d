// The per-row time budget never loses a row (issue 19.5): a chunk over its budget is re-run row by row,
// and every row comes back either scored or as a `row_timeout` bad row, whatever the budget. The slow
// metric is a plug-in that busy-waits a fixed time per row; the budgets leave it a wide margin.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreFile } from "../src/index.js";
import { readJsonl, tempDir } from "./helpers.js";

/** A plug-in metric: the hypothesis's length, after busy-waiting `ms` (forever for "loop forever"). */
function slowMetric(dir: string, ms: number): { metric: "module"; name: string; module: string; export: string } {
  const file = join(dir, "slow-metric.mjs");
  writeFileSync(
    file,
    `export function slow(hyp) {\n  if (hyp === "loop forever") for (;;) {}\n  const t = Date.now();\n  while (Date.now() - ` +
      `t < ${ms}) {}\n  return hyp.length;\n}\n`,
  );
  return { metric: "module", name: "len", module: new URL(`file://${file}`).href, export: "slow" };
}

describe("a chunk over its budget whose rows are each within the row budget", () => {
  it("scores every row (none is dropped), and a row over the budget is a row_timeout bad row that keeps its text", async () => {
    const d = tempDir();
    const input = join(d, "in.jsonl");
    // 60 rows of 25 ms (1.5 s together, over the chunk's 1000 × 1.061 ms) and one row that never ends
    const hyps = Array.from({ length: 61 }, (_, i) => (i === 30 ? "loop forever" : `row ${"x".repeat(i)}`));
    writeFileSync(input, hyps.map((h, i) => JSON.stringify({ id: i + 1, hyp: h, refs: ["r"] })).join("\n") + "\n");
    const output = join(d, "out.jsonl");
    const summary = await scoreFile({ input, output, metrics: [slowMetric(d, 25)], workers: 2, rowTimeoutMs: 1000, outputRows: "rows" });
    expect(summary.rows).toMatchObject({ records: 61, scored: 60, bad: 1, badByCode: { row_timeout: 1 } });
    const out = readJsonl(readFileSync(output, "utf8"));
    expect(out.map((r) => r.id)).toEqual(hyps.map((_, i) => i + 1));
    expect(out[30]).toMatchObject({ id: 31, hyp: "loop forever", _error: { code: "row_timeout" } });
    // "row " + i × "x": length 4 + i
    const lengths = hyps.map((_, i) => 4 + i).filter((_, i) => i !== 30);
    expect(out.filter((r) => !r._error).map((r) => (r.len as { score: number }).score)).toEqual(lengths);
    expect(summary.metrics.len!.scores.len).toBeCloseTo(lengths.reduce((a, b) => a + b, 0) / 60, 12);
  }, 60_000);

  it("a budget of 1 ms loses no row and never rejects with a bare symbol: rows are scored or row_timeout", async () => {
    const d = tempDir();
    const input = join(d, "in.jsonl");
    const n = 300;
    writeFileSync(input, Array.from({ length: n }, (_, i) => JSON.stringify({ hyp: `h${i}`, refs: ["r"] })).join("\n") + "\n");
    const output = join(d, "out.jsonl");
    // 3 ms per row: the chunk (0.9 s) is far over its 1.3 ms budget, so it is re-run row by row
    const summary = await scoreFile({ input, output, metrics: [slowMetric(d, 3)], workers: 2, rowTimeoutMs: 1 });
    expect(summary.rows.records).toBe(n);
    expect(summary.rows.scored + summary.rows.bad).toBe(n);
    expect(Object.keys(summary.rows.badByCode).filter((c) => c !== "row_timeout")).toEqual([]);
    const out = readJsonl(readFileSync(output, "utf8"));
    expect(out.map((r) => r.line)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  }, 60_000);
});
