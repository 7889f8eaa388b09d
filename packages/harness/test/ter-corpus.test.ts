// TER through bulk scoring: the corpus score is sacreBLEU's corpus_score bit for bit (testdata/golden/ter.jsonl),
// whatever the worker count or chunk size, because the average reference lengths are added left to right in
// input order, as sacreBLEU adds them, not summed exactly.
import { join } from "node:path";
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { goldenFileIn, readGoldenLines } from "../../../testdata/index.mjs";
import { scoreFile } from "../src/index.js";
import { tempDir } from "./helpers.js";

let dir: string;
let pairs: string;
let corpus: Record<string, { score: number; num_edits: number; ref_length: number }>;

beforeAll(async () => {
  await ready();
  dir = tempDir();
  pairs = goldenFileIn(dir, "pairs.jsonl");
  const lines = readGoldenLines("ter.jsonl");
  corpus = (JSON.parse(lines[lines.length - 1]!) as { ter_corpus: typeof corpus }).ter_corpus;
});

describe("scoreFile with TER", () => {
  it.each([
    [1, 1 << 20],
    [2, 4096],
  ])("workers %i, chunks of %i bytes: corpus TER equals sacreBLEU's for three option sets", async (workers, chunkBytes) => {
    const output = join(dir, `ter-${workers}-${chunkBytes}.jsonl`);
    const summary = await scoreFile({
      input: pairs,
      output,
      workers,
      chunkBytes,
      metrics: [
        "ter",
        { metric: "ter", name: "ter_norm", options: { normalized: true } },
        { metric: "ter", name: "ter_all", options: { normalized: true, noPunct: true, asianSupport: true, caseSensitive: true } },
      ],
    });
    expect(summary.rows.scored).toBe(3000);
    expect(summary.metrics.ter!.scores.ter).toBe(corpus.default!.score);
    expect(summary.metrics.ter_norm!.scores.ter_norm).toBe(corpus.norm!.score);
    expect(summary.metrics.ter_all!.scores.ter_all).toBe(corpus.all!.score);
    expect(summary.metrics.ter!.details).toEqual({
      score: corpus.default!.score,
      numEdits: corpus.default!.num_edits,
      refLength: corpus.default!.ref_length,
    });
  });
});
