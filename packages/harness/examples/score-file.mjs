// Bulk scoring: a JSONL file on all cores, resumable, with CIs, shards and a paired test.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mergeShards, pairedTest, scoreFile, scoreStream } from "@evalkern/harness";

const dir = mkdtempSync(join(tmpdir(), "bulk-"));
const input = join(dir, "pairs.jsonl"); // {"id", "hyp", "refs": [...]} per line
const makePairs = fileURLToPath(new URL("../../../testdata/corpus/make-pairs.mjs", import.meta.url)); // the repository's pair generator
writeFileSync(input, execFileSync(process.execPath, [makePairs, "--seed", "1", "--count", "5000", "--no-edge"], { maxBuffer: 64 << 20 }));

const metrics = [
  "bleu",
  { metric: "bleu", name: "bleuZh", options: { tokenize: "zh" } },
  { metric: "chrf", name: "chrf++", options: { wordOrder: 2 } },
  { metric: "rouge", name: "rouge", options: { types: ["rouge1", "rougeL"], useStemmer: true } },
  "tokenF1",
];
const summary = await scoreFile({
  input,
  output: join(dir, "scores.jsonl"), // one line per input row, in order
  metrics,
  fields: { hypothesis: "hyp", references: "refs", id: "id" },
  resume: true, // after a crash, rerun the same call: continues from the last checkpoint
  bootstrap: { resamples: 1000, seed: 12345 }, // 95% CI per corpus score
});
for (const [name, m] of Object.entries(summary.metrics)) {
  for (const [score, value] of Object.entries(m.scores)) console.log(`${score} = ${value.toFixed(2)} ± ${m.ci[score].ci.toFixed(2)}`);
  console.log(`  ${m.signature.split("|evalkern")[0]}`);
}

// split across machines: shard i of n each, then merge (exact: statistics add)
const shards = [];
for (let index = 0; index < 3; index++) {
  shards.push(
    await scoreFile({
      input,
      output: join(dir, `shard${index}.jsonl`),
      metrics: ["bleu"],
      shard: { index, count: 3 },
      keepStatistics: true,
    }),
  );
}
const merged = await mergeShards(shards, { output: join(dir, "merged.jsonl") });
console.log("merged BLEU", merged.metrics.bleu.scores.bleu);

// a second system on the same references, then the paired bootstrap test
const other = join(dir, "other.jsonl");
const lines = readFileSync(input, "utf8").trim().split("\n").map((l) => JSON.parse(l));
writeFileSync(other, lines.map((r, i) => JSON.stringify({ ...r, hyp: i % 4 ? r.hyp : r.refs[0] })).join("\n")); // better on 1 row in 4
const b = await scoreFile({ input: other, output: join(dir, "other.scores.jsonl"), metrics: ["bleu"], keepStatistics: true });
const test = await pairedTest({ baseline: merged, system: b, resamples: 200 });
console.log("BLEU difference", test.metrics.bleu.bleu.difference.toFixed(2), "p =", test.metrics.bleu.bleu.pValue);

// streaming: rows in, scores out, in order
const rows = [{ hyp: "the cat sat", refs: ["the cat sat down"] }, { hyp: 42, refs: ["x"] }];
for await (const row of scoreStream(rows, { metrics: ["bleu", "tokenF1"], workers: 1 })) console.log(row);
rmSync(dir, { recursive: true, force: true });
