// A fuzz counterexample (fuzz.test.ts, seed -1369169190): an optimisation of the 13a scanner (its state
// kept in locals, one plain run stepping into the next across a space) read outside the module's memory on
// this hypothesis in a freshly started module, and sentenceBleu threw KernelAbortError. The change was
// reverted; this file keeps the input, in a module of its own, so the trap cannot come back unseen.
// Expected values: no token of the hypothesis is a token of either reference (checked by hand), and with
// no matching unigram sacreBLEU's compute_bleu returns 0 before any smoothing.
import { beforeAll, expect, it } from "vitest";
import * as k from "../src/index.js";

beforeAll(async () => {
  await k.ready();
});

it("sentence BLEU on the fuzz counterexample is a finite score, first call of a fresh module", () => {
  const hyp = "é 󠀁 隈 GV*~B İ \udc00 DGI&:b";
  expect(k.sentenceBleu(hyp, ["", "͏笢oFDthev-."]).score).toBe(0);
  expect(k.sentenceBleu(hyp, ["x"]).score).toBe(0);
  const stats = k.bleuStatisticsBatch([hyp, hyp], [["", "͏笢oFDthev-."], ["x"]]);
  expect(stats.length).toBeGreaterThan(0);
});
