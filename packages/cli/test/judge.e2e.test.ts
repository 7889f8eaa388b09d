// `evalkern judge` end to end: DeepEval Faithfulness against a scripted OpenAI-compatible server on
// loopback, the cost summary, then `--replay` from the recorded cache with the server gone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readJsonl, runCli, tempDir } from "./support/cli.js";
import { judgeReply } from "./support/faithfulness-judge.js";
import { startServer } from "./support/openai-server.js";

const ROWS = [
  {
    id: "a",
    lang: "en",
    input: "What is the capital of France?",
    actual_output: "Paris is the capital of France.",
    retrieval_context: ["Paris is the capital and largest city of France."],
  },
  {
    id: "b",
    lang: "en",
    input: "Where is the Eiffel Tower?",
    actual_output: "The Eiffel Tower is in Paris. It was moved to Berlin in 1999.",
    retrieval_context: ["The Eiffel Tower is a landmark in Paris."],
  },
  {
    id: "c",
    lang: "fr",
    input: "Capitale de l'Allemagne ?",
    actual_output: "Berlin est la capitale.",
    retrieval_context: ["Berlin est la capitale de l'Allemagne."],
  },
];

let dir: string;
beforeAll(() => {
  dir = tempDir();
  writeFileSync(join(dir, "rag.jsonl"), ROWS.map((r) => JSON.stringify(r)).join("\n"));
});

describe("evalkern judge", () => {
  it("scores with the configured model, prints a cost summary, records the cache; --replay then needs no server", async () => {
    const server = await startServer(judgeReply);
    const out = join(dir, "judged.jsonl");
    const cache = join(dir, "judge-cache.jsonl");
    let first;
    try {
      first = await runCli(
        [
          "judge",
          join(dir, "rag.jsonl"),
          "--metric",
          "faithfulness",
          "--model",
          "test-model",
          "--base-url",
          server.baseURL,
          "--cache",
          cache,
          "--price-input",
          "1",
          "--price-output",
          "2",
          "-o",
          out,
          "--no-progress",
          "--report",
          join(dir, "judge.html"),
        ],
        { cwd: dir },
      );
    } finally {
      await server.close();
    }
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const calls = server.requests.length;
    expect(calls).toBeGreaterThanOrEqual(9); // truths, claims, verdicts (+ reason) per row
    const rows = readJsonl(out);
    expect(rows.map((r) => (r.faithfulness as { score: number }).score)).toEqual([1, 0.5, 1]);
    expect(rows[1]).toMatchObject({ id: "b", faithfulness: { success: true, reason: "Scored by the test judge." } });
    // how each score was reached is in every row and in the run's manifest (no silent fallback)
    expect(rows.map((r) => (r.faithfulness as { scoringPath: string }).scoringPath)).toEqual(["structured", "structured", "structured"]);
    type Manifest = { metrics: { scoringPaths?: Record<string, number>; judgedAgainst?: unknown }[] };
    const manifest = JSON.parse(readFileSync(join(dir, `${basename(out)}.evalkern`, "run.json"), "utf8")) as Manifest;
    expect(manifest.metrics[0]!.scoringPaths).toEqual({ structured: 3 });
    // faithfulness reads no expected output: the manifest says what the report shows as its reference
    expect(manifest.metrics[0]!.judgedAgainst).toEqual({ paths: ["retrieval_context", "retrievalContext"], label: "retrieval context" });
    expect(first.stdout).toMatch(/^faithfulness\s+0\.8333\s/m);
    // identical concurrent calls are merged by the cache (counted as cached calls, no request)
    const m =
      /cost\s+\$\d+\.\d{6} · (\d+) judge calls \((\d+) cached, 0 failed\) · (\d+) HTTP requests · (\d+) input \+ (\d+) output tokens/.exec(
        first.stdout,
      );
    expect(m).not.toBeNull();
    const counts = m!.slice(1).map(Number) as [number, number, number, number, number];
    const [judgeCalls, cachedCalls, requests, inputTokens, outputTokens] = counts;
    expect(requests).toBe(calls);
    expect([inputTokens, outputTokens]).toEqual([20 * calls, 5 * calls]);
    // an identical call is merged with the one in flight, or (when that one has just been stored) a hit:
    // which of the two depends only on timing; every request is a miss and is written
    const stats = new RegExp(`(\\d+) hits, ${calls} misses, ${calls} written`).exec(first.stdout);
    expect(stats).not.toBeNull();
    expect(Number(stats![1])).toBeLessThanOrEqual(cachedCalls);
    expect(judgeCalls).toBe(calls + cachedCalls);
    expect(first.stdout).toMatch(/faithfulness\|options:\{\}\|model:test-model\|prompts:deepeval/);
    expect(existsSync(cache)).toBe(true);
    const html = readFileSync(join(dir, "judge.html"), "utf8");
    expect(html).toContain("<svg");
    // issue 11: faithfulness rows are shown against the retrieval context, not expected_output
    expect(html).toContain("<th>retrieval context <span");
    expect(html).toContain(`<mark class="add">landmark</mark>`); // a word of "The Eiffel Tower is a landmark in Paris."
    // the y axis of each histogram has one label per tick (3 rows: no 0, 1, 1, 2, 2)
    for (const svg of html.match(/<svg class="hist"[\s\S]*?<\/svg>/g)!) {
      const ticks = [...svg.matchAll(/class="tick" text-anchor="end">(\d+)</g)].map((t) => t[1]);
      expect(ticks.length).toBeGreaterThan(1);
      expect(new Set(ticks).size).toBe(ticks.length);
    }

    // replay: the server is closed; every call comes from the cache, nothing is sent
    const replayOut = join(dir, "replayed.jsonl");
    const replay = await runCli(
      [
        "judge",
        join(dir, "rag.jsonl"),
        "--metric",
        "faithfulness",
        "--model",
        "test-model",
        "--cache",
        cache,
        "--replay",
        "-o",
        replayOut,
        "--no-progress",
      ],
      { cwd: dir },
    );
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    expect(readJsonl(replayOut).map((r) => (r.faithfulness as { score: number }).score)).toEqual([1, 0.5, 1]);
    expect(replay.stdout).toMatch(new RegExp(`${judgeCalls} judge calls \\(${judgeCalls} cached, 0 failed\\) · 0 HTTP requests · 0 input`));
    expect(replay.stdout).toContain("(replay: nothing sent)");

    // a row the cache has not seen fails in replay (no made-up score), and the exit code says so
    writeFileSync(
      join(dir, "more.jsonl"),
      [...ROWS, { id: "d", input: "q?", actual_output: "A new answer.", retrieval_context: ["ctx"] }]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const miss = await runCli(
      [
        "judge",
        join(dir, "more.jsonl"),
        "--metric",
        "faithfulness",
        "--model",
        "test-model",
        "--cache",
        cache,
        "--replay",
        "-o",
        join(dir, "more.out.jsonl"),
        "--no-progress",
      ],
      { cwd: dir },
    );
    expect(miss.code).toBe(1);
    expect(miss.stderr).toMatch(/1 judge evaluation\(s\) failed/);
    expect(miss.stderr).toMatch(/row 4, faithfulness: .*cache/i);
    const missRows = readJsonl(join(dir, "more.out.jsonl"));
    expect(missRows[3]!.faithfulness).toMatchObject({ score: null, error: expect.any(String) });
  });

  it("rejects bad usage with exit 2", async () => {
    const input = join(dir, "rag.jsonl");
    const noModel = await runCli(["judge", input, "--metric", "faithfulness"], { cwd: dir });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain("no judge model");
    const noCache = await runCli(["judge", input, "--metric", "faithfulness", "--model", "m", "--replay"], { cwd: dir });
    expect(noCache.code).toBe(2);
    expect(noCache.stderr).toContain("--replay needs --cache");
    const unknown = await runCli(["judge", input, "--metric", "bleu", "--model", "m"], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown judge metric "bleu"');
    const noMetric = await runCli(["judge", input, "--model", "m"], { cwd: dir });
    expect(noMetric.code).toBe(2);
    const missing = await runCli(["judge", join(dir, "nope.jsonl"), "--metric", "faithfulness", "--model", "m"], { cwd: dir });
    expect(missing.code).toBe(3);
    writeFileSync(join(dir, "broken.jsonl"), '{"input": "x"}\n{oops\n');
    const broken = await runCli(["judge", join(dir, "broken.jsonl"), "--metric", "faithfulness", "--model", "m"], { cwd: dir });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/broken\.jsonl:2: invalid JSON/);
  });
});
