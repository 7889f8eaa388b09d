// Parallel plain-text files read in lockstep, as sacreBLEU's CLI reads them (split at "\n", Python
// rstrip, empty lines kept), and the line-count check naming every file's count.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineCountMismatchError, readTextPairs, scoreStream, type TextPair } from "../src/index.js";
import { tempDir } from "./helpers.js";

async function collect(it: AsyncIterable<TextPair>): Promise<TextPair[]> {
  const out: TextPair[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe("readTextPairs", () => {
  it("reads lines in lockstep: empty lines kept, a last line without newline counted, trailing Python whitespace removed", async () => {
    const dir = tempDir();
    const hyp = join(dir, "hyp.txt");
    const r1 = join(dir, "r1.txt");
    const r2 = join(dir, "r2.txt");
    // "\r\n" line ends, U+0085 and U+00A0 are Python whitespace; a lone "\r" inside a line and U+200B are not
    writeFileSync(hyp, "the cat\r\n\nsat\u0085 \nx\ry\u200b");
    writeFileSync(r1, "a cat\n\u00a0\nsat on\nxy\n");
    writeFileSync(r2, "\ufeffone\ntwo\nthree\nfour\n");
    expect(await collect(readTextPairs({ hypothesis: hyp, references: [r1, r2] }))).toEqual([
      { hyp: "the cat", refs: ["a cat", "\ufeffone"] },
      { hyp: "", refs: ["", "two"] },
      { hyp: "sat", refs: ["sat on", "three"] },
      { hyp: "x\ry\u200b", refs: ["xy", "four"] },
    ]);
  });

  it("reads a stream source (stdin) with its own name", async () => {
    const dir = tempDir();
    const ref = join(dir, "ref.txt");
    writeFileSync(ref, "a b\nc d\n");
    async function* stdin() {
      yield new TextEncoder().encode("a b\nc");
      yield new TextEncoder().encode(" d\n");
    }
    expect(await collect(readTextPairs({ hypothesis: { name: "<stdin>", stream: stdin() }, references: [ref] }))).toEqual([
      { hyp: "a b", refs: ["a b"] },
      { hyp: "c d", refs: ["c d"] },
    ]);
  });

  it("different line counts end the read with LineCountMismatchError naming every file's count", async () => {
    const dir = tempDir();
    const hyp = join(dir, "hyp.txt");
    const ref = join(dir, "ref.txt");
    writeFileSync(hyp, "1\n2\n3\n4\n5\n");
    writeFileSync(ref, "1\n2\n3\n");
    const error = await collect(readTextPairs({ hypothesis: hyp, references: [ref] })).catch((e: unknown) => e);
    expect(LineCountMismatchError.isInstance(error)).toBe(true);
    expect((error as LineCountMismatchError).counts).toEqual([
      { name: hyp, lines: 5 },
      { name: ref, lines: 3 },
    ]);
    expect((error as Error).message).toContain(`${hyp} has 5 lines, ${ref} has 3 lines`);
  });

  it("bytes that are not UTF-8 fail naming the file", async () => {
    const dir = tempDir();
    const hyp = join(dir, "hyp.txt");
    const ref = join(dir, "ref.txt");
    writeFileSync(hyp, Buffer.from([0x61, 0x0a, 0xff, 0x0a]));
    writeFileSync(ref, "a\nb\n");
    await expect(collect(readTextPairs({ hypothesis: hyp, references: [ref] }))).rejects.toThrow(/hyp\.txt: bytes that are not UTF-8/);
  });

  it("feeds scoreStream: BLEU of a hand-checked pair", async () => {
    const dir = tempDir();
    const hyp = join(dir, "hyp.txt");
    const ref = join(dir, "ref.txt");
    writeFileSync(hyp, "the cat sat on the mat\n");
    writeFileSync(ref, "the cat sat on the mat\n");
    const stream = scoreStream(readTextPairs({ hypothesis: hyp, references: [ref] }), { metrics: ["bleu"], workers: 1 });
    const rows = [];
    for await (const r of stream) rows.push(r);
    const summary = await stream.summary;
    expect(summary.rows.records).toBe(1);
    // sacreBLEU: exp(mean(log(100) × 4)) = 100.00000000000004 (python3 -c 'import math; print(math.exp(math.log(100)))')
    expect(summary.metrics.bleu!.scores.bleu).toBe(100.00000000000004);
    expect(summary.metrics.bleu!.signature).toMatch(/^BLEU\|nrefs:1\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.6\.0\|/);
  });
});
