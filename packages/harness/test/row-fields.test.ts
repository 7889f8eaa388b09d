// Pair rules that read more of a row than the pair (promptfoo's cost, latency, perplexity, finish-reason)
// get each row's fields from bulk scoring, in the workers, including the row-by-row retry after a bad row.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { scoreFile } from "../src/index.js";
import { readJsonl, tempDir } from "./helpers.js";

beforeAll(async () => {
  await ready();
});

describe("row fields reach pair rules", () => {
  it("cost, latency, perplexity and finish-reason read each row; a row without the field is a bad row", async () => {
    const dir = tempDir();
    const input = join(dir, "calls.jsonl");
    const rows = [
      { hyp: "a", refs: ["x"], cost: 0.002, latencyMs: 1200, logprobs: [0, 0], finishReason: "stop" },
      { hyp: "b", refs: ["x"], cost: 0.004, latencyMs: 800, logprobs: [-2], finishReason: "length" },
      { hyp: "c", refs: ["x"], latencyMs: 500, logprobs: [-1, -3], finishReason: "STOP" },
    ];
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const summary = await scoreFile({
      input,
      output: join(dir, "out.jsonl"),
      metrics: ["cost", "latency", "perplexity", { metric: "finish-reason", name: "stopped", options: { value: "stop" } }],
      fields: { hypothesis: "hyp", references: "refs" },
      workers: 1,
    });
    const out = readJsonl(readFileSync(join(dir, "out.jsonl"), "utf8")) as Record<string, unknown>[];
    expect(out[0]).toMatchObject({ cost: 0.002, latency: 1200, perplexity: 1, stopped: 1 });
    expect(out[1]!.cost).toBe(0.004);
    expect(out[1]!.perplexity as number).toBeCloseTo(Math.exp(2), 12);
    expect(out[1]!.stopped).toBe(0);
    // the third row has no cost: a bad row naming the metric, not a made-up 0
    expect(summary.rows).toMatchObject({ records: 3, scored: 2, bad: 1 });
    expect(JSON.stringify(out[2])).toMatch(/cost needs the row's cost field/);
    expect(summary.metrics.cost!.scores.cost!).toBeCloseTo(0.003, 15);
    expect(summary.metrics.latency!.scores.latency!).toBe(1000);
  });
});
