// The run tally: folding chunk results (absorb), runs (merge) and the JSON a checkpoint keeps. The
// expected values are worked out by hand from the chunk results written here.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BadRow, ChunkResult } from "../src/bulk/chunk.js";
import { fsumValue } from "../src/bulk/fsum.js";
import { RUN_SAMPLES, RunTally } from "../src/bulk/tally.js";
import { checkpointPath, RunAbortedError, scoreFile } from "../src/index.js";
import { tempDir } from "./helpers.js";

function chunk(o: Partial<ChunkResult> & Pick<ChunkResult, "partials">): ChunkResult {
  return { records: 0, blank: 0, valid: 0, badByCode: {}, badSamples: [], nrefsMin: 0, nrefsMax: 0, ...o };
}

function bad(line: number): BadRow {
  return { line, code: "missing_field", message: `row ${line}` };
}

describe("RunTally", () => {
  it("absorbs chunks: counts add, exact sums, sequential values left to right, nrefs of scored chunks only", () => {
    const t = new RunTally(2);
    const first = { records: 3, blank: 1, valid: 2, badByCode: { missing_field: 1 }, badSamples: [bad(2)] };
    t.absorb(chunk({ ...first, partials: [[0.1], [3]], sequential: { 1: [0.1, 0.2] }, nrefsMin: 1, nrefsMax: 2 }));
    // no scored row: its nrefs (0..0 in a worker's result) must not narrow the range
    const invalidUtf8 = { count: 1, lines: [5] };
    t.absorb(chunk({ records: 1, badByCode: { missing_field: 1 }, badSamples: [bad(5)], partials: [[], []], invalidUtf8 }));
    t.absorb(chunk({ records: 2, valid: 2, partials: [[0.2], [4]], sequential: { 1: [0.3] }, nrefsMin: 2, nrefsMax: 4 }));
    expect(t.rows()).toEqual({
      records: 6,
      scored: 4,
      bad: 2,
      blank: 1,
      badByCode: { missing_field: 2 },
      badSamples: [bad(2), bad(5)],
      invalidUtf8: { count: 1, lines: [5] },
    });
    expect(t.nrefs()).toEqual({ min: 1, max: 4 });
    expect(t.nrefsLabel()).toBe("var");
    // 0.1 + 0.2 exactly is 0.30000000000000001665…, which rounds to 0.30000000000000004
    expect(fsumValue(t.sums.partials[0]!)).toBe(0.30000000000000004);
    expect(fsumValue(t.sums.partials[1]!)).toBe(7);
    // left to right: (0.1 + 0.2) + 0.3 in doubles
    expect(t.sequential[1]).toBe(0.6000000000000001);
  });

  it("keeps the first RUN_SAMPLES bad rows and invalid-UTF-8 lines, in input order", () => {
    const t = new RunTally(0);
    for (let c = 0; c < 6; c++) {
      const lines = Array.from({ length: 20 }, (_, i) => 1 + c * 20 + i);
      const invalidUtf8 = { count: 20, lines };
      t.absorb(chunk({ records: 20, badByCode: { missing_field: 20 }, badSamples: lines.map(bad), partials: [], invalidUtf8 }));
    }
    expect(RUN_SAMPLES).toBe(100);
    expect(t.badSamples.map((b) => b.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(t.invalidUtf8).toEqual({ count: 120, lines: Array.from({ length: 100 }, (_, i) => i + 1) });
    expect(t.badByCode).toEqual({ missing_field: 120 });
  });

  it("merges runs in order: sequential columns add the runs' totals, nrefs only of runs with scored rows", () => {
    const a = new RunTally(1);
    a.absorb(chunk({ records: 2, valid: 2, partials: [[1.5]], sequential: { 0: [0.1, 0.2] }, nrefsMin: 1, nrefsMax: 1 }));
    const empty = new RunTally(1);
    empty.absorb(chunk({ records: 1, badByCode: { invalid_json: 1 }, badSamples: [bad(9)], partials: [[]] }));
    const b = new RunTally(1);
    b.absorb(chunk({ records: 1, valid: 1, partials: [[2]], sequential: { 0: [0.3] }, nrefsMin: 1, nrefsMax: 1 }));
    const all = new RunTally(1);
    for (const t of [a, empty, b]) all.merge(t);
    expect(all.rows()).toMatchObject({ records: 4, scored: 3, bad: 1, badByCode: { invalid_json: 1 }, badSamples: [bad(9)] });
    expect(all.nrefs()).toEqual({ min: 1, max: 1 });
    expect(all.nrefsLabel()).toBe(1);
    expect(fsumValue(all.sums.partials[0]!)).toBe(3.5);
    expect(all.sequential[0]).toBe(0.6000000000000001);
  });

  it("round-trips through JSON, a tally without a scored row too (Infinity is written as null)", () => {
    const t = new RunTally(1);
    t.absorb(chunk({ records: 2, badByCode: { missing_field: 2 }, badSamples: [bad(1), bad(2)], partials: [[]] }));
    const json = JSON.parse(JSON.stringify(t)) as ReturnType<RunTally["toJSON"]>;
    expect(json.nrefsMin).toBeNull();
    const back = RunTally.fromJSON(1, json);
    back.absorb(chunk({ records: 1, valid: 1, partials: [[1]], nrefsMin: 1, nrefsMax: 1 }));
    expect(back.nrefs()).toEqual({ min: 1, max: 1 });
    expect(back.rows()).toMatchObject({ records: 3, scored: 1, bad: 2 });
    expect(JSON.stringify(RunTally.fromJSON(1, json))).toBe(JSON.stringify(t));
  });
});

describe("a run resumed from a checkpoint written before its first scored row", () => {
  it("keeps the reference count of the rows scored after it (nrefs:1, not var)", async () => {
    const dir = tempDir();
    const input = join(dir, "late.jsonl");
    const lines: string[] = [];
    const note = "this row has no hyp field, so it is a bad row".repeat(2);
    for (let i = 0; i < 300; i++) lines.push(JSON.stringify({ id: `no-hypothesis-${i}`, note }));
    for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ hyp: `the cat sat on mat ${i}`, refs: [`the cat sat on the mat ${i}`] }));
    writeFileSync(input, `${lines.join("\n")}\n`);
    const output = join(dir, "late.scored.jsonl");
    const options = { input, output, metrics: ["bleu" as const], workers: 1, chunkBytes: 4096, checkpointIntervalMs: 0 };
    const controller = new AbortController();
    await expect(
      scoreFile({ ...options, signal: controller.signal, onProgress: (p) => (p.records >= 50 ? controller.abort("test") : undefined) }),
    ).rejects.toThrow(RunAbortedError);
    const ck = JSON.parse(readFileSync(checkpointPath(output), "utf8")) as { valid: number; nrefsMin: number | null };
    expect(ck.valid).toBe(0);
    expect(ck.nrefsMin).toBeNull();
    const resumed = await scoreFile({ ...options, resume: true });
    expect(resumed.resumed).toBe(true);
    expect(resumed.rows).toMatchObject({ records: 350, scored: 50, bad: 300 });
    expect(resumed.nrefs).toEqual({ min: 1, max: 1 });
    expect(resumed.metrics.bleu!.signature).toContain("nrefs:1|");
  });
});
