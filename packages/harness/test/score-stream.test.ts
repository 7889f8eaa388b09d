import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreFile, scoreRows, scoreStream } from "../src/index.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

describe("scoreStream", () => {
  it("yields per-row scores in input order, errors as values, and the same corpus results as scoreFile", async () => {
    const dir = tempDir();
    const input = makePairs(dir, 2, 1500);
    const fileSummary = await scoreFile({
      input,
      output: join(dir, "out.jsonl"),
      metrics: ["bleu", "chrf", "tokenF1"],
      fields: { id: "id" },
      workers: 2,
    });
    const fileRows = readJsonl(readFileSync(join(dir, "out.jsonl"), "utf8"));
    const pairs = readJsonl(readFileSync(input, "utf8"));

    async function* source() {
      for (const p of pairs) yield p;
      yield { hyp: 3, refs: ["x"] };
      yield "not json";
      yield JSON.stringify({ id: "last", hyp: "a b", refs: ["a b"] }); // JSONL strings are parsed
    }
    const stream = scoreStream(source(), { metrics: ["bleu", "chrf", "tokenF1"], fields: { id: "id" }, workers: 2, chunkRows: 128 });
    const got = [];
    for await (const r of stream) got.push(r);
    expect(got).toHaveLength(1503);
    got.slice(0, 1500).forEach((r, i) => {
      expect(r.index).toBe(i);
      expect(r.ok).toBe(true);
      if (r.ok) {
        expect(r.id).toBe(fileRows[i]!.id);
        expect(r.scores.bleu).toBe(fileRows[i]!.bleu);
        expect(r.scores.tokenF1).toBe(fileRows[i]!.tokenF1);
      }
    });
    expect(got[1500]).toMatchObject({ index: 1500, ok: false, error: { code: "wrong_type" } });
    expect(got[1501]).toMatchObject({ index: 1501, ok: false, error: { code: "invalid_json" } });
    expect(got[1502]).toMatchObject({ index: 1502, ok: true, id: "last" });
    const summary = await stream.summary;
    expect(summary.rows).toMatchObject({ records: 1503, scored: 1501, bad: 2 });
    // one more (identical) pair changes nothing about the signatures
    expect(summary.metrics.bleu!.signature).toBe(fileSummary.metrics.bleu!.signature);
  });

  it("scoreRows over a plain array", async () => {
    const { rows, summary } = await scoreRows(
      [
        { hyp: "the cat sat on the mat", refs: ["the cat sat on the mat"] },
        { hyp: "a dog", refs: ["the cat"] },
      ],
      { metrics: ["tokenF1", "exactMatch"], workers: 1 },
    );
    expect(rows.map((r) => r.ok && r.scores.exactMatch)).toEqual([1, 0]);
    expect(summary.metrics.exactMatch!.scores.exactMatch).toBe(0.5);
    expect(() => scoreStream(42 as never, { metrics: ["bleu"] })).toThrow(/iterable/);
  });
});
