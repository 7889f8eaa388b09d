// `evalkern run` end to end: BYOB benchmarks from JSON, YAML, .mjs and .ts files against a scripted
// OpenAI-compatible server on loopback.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonl, runCli, tempDir } from "./support/cli.js";
import { chat, startServer, type FakeServer } from "./support/openai-server.js";

const ANSWERS: Record<string, string> = { "capital of France": "Paris", "2 + 2": "4", "largest planet": "Saturn" };

let server: FakeServer;
let dir: string;

beforeAll(async () => {
  server = await startServer((req) => {
    if (!req.path.endsWith("/chat/completions")) return { status: 404, body: { error: { message: "not found" } } };
    const prompt = String(req.body.messages.at(-1).content);
    const key = Object.keys(ANSWERS).find((k) => prompt.includes(k));
    return chat(key ? ANSWERS[key]! : "I don't know");
  });
  dir = tempDir();
  writeFileSync(
    join(dir, "qa.jsonl"),
    [
      { question: "What is the capital of France?", answer: "Paris", topic: "geo" },
      { question: "What is 2 + 2?", answer: "4", topic: "math" },
      { question: "What is the largest planet?", answer: "Jupiter", topic: "astro" },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
});
afterAll(() => server.close());

const endpoint = () => ["--base-url", server.baseURL, "--model", "test-model", "--no-progress"];

describe("evalkern run", () => {
  it("runs a JSON definition with a built-in scorer and writes BYOB's report and predictions", async () => {
    writeFileSync(
      join(dir, "qa.json"),
      JSON.stringify({ name: "Tiny QA", dataset: "qa.jsonl", prompt: "Q: {question}\nA:", targetField: "answer", scorer: "exactMatch" }),
    );
    const before = server.requests.length;
    const r = await runCli(
      ["run", join(dir, "qa.json"), ...endpoint(), "-o", join(dir, "results.json"), "--predictions", join(dir, "preds.jsonl")],
      { cwd: dir },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("evalkern run · Tiny QA (tiny_qa) · model test-model");
    expect(r.stdout).toContain("3 scored, 0 skipped · 3 requests · 60 input + 15 output tokens"); // usage, as judge runs report it
    expect(r.stdout).toMatch(/^correct\s+0\.6667\s+±0\.\d+\s+3$/m);
    expect(server.requests.length - before).toBe(3);
    expect(server.requests.at(-1)!.body.model).toBe("test-model");
    const report = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(report.tasks.tiny_qa.metrics["pass@1"].scores.correct.value).toBe(0.6667);
    const preds = readJsonl(join(dir, "preds.jsonl"));
    expect(preds).toHaveLength(3);
  });

  it("runs a YAML definition whose scorer is a function in a local module", async () => {
    writeFileSync(
      join(dir, "scorer.mjs"),
      "export function lenient(sample) { return { correct: " +
        "String(sample.response).toLowerCase().includes(String(sample.target).toLowerCase()) }; }\n",
    );
    writeFileSync(
      join(dir, "qa.yaml"),
      'name: yaml-qa\ndataset: qa.jsonl\nprompt: "Q: {question}\\nA:"\ntargetField: answer\nscorer: ./scorer.mjs#lenient\n',
    );
    const r = await runCli(["run", join(dir, "qa.yaml"), ...endpoint(), "--json"], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.key).toBe("yaml_qa");
    expect(out.report.tasks.yaml_qa.metrics["pass@1"].scores.correct.value).toBe(0.6667);
  });

  it("runs .mjs and .ts modules (a definition with a scorer function)", async () => {
    writeFileSync(
      join(dir, "bench.mjs"),
      'export default { name: "mjs-qa", dataset: "qa.jsonl", prompt: "Q: {question}\\nA:", targetField: "answer", scorer: ' +
        "(s) => ({ correct: s.response === s.target, length: String(s.response).length }) };\n",
    );
    writeFileSync(
      join(dir, "bench.ts"),
      "interface Sample { response: string | null; target: unknown; metadata?: Record<string, unknown> }\n" +
        "const scorer = (s: Sample): { correct: boolean } => ({ correct: s.response === s.target });\n" +
        'export default { name: "ts-qa", dataset: "qa.jsonl", prompt: "Q: {question}\\nA:", targetField: "answer", scorer } as const;\n',
    );
    const mjs = await runCli(["run", join(dir, "bench.mjs"), ...endpoint()], { cwd: dir });
    expect(mjs.stderr).toBe("");
    expect(mjs.code).toBe(0);
    expect(mjs.stdout).toMatch(/^correct\s+0\.6667/m);
    expect(mjs.stdout).toMatch(/^length\s+/m);
    const ts = await runCli(["run", join(dir, "bench.ts"), ...endpoint(), "--limit", "2"], { cwd: dir });
    expect(ts.stderr).toBe("");
    expect(ts.code).toBe(0);
    expect(ts.stdout).toMatch(/^correct\s+1\.0000\s+±0\.0000\s+2$/m);
  });

  it("reports a bad endpoint, a missing dataset and a missing --base-url clearly", async () => {
    const noUrl = await runCli(["run", join(dir, "qa.json"), "--model", "m"], { cwd: dir });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("no endpoint: pass --base-url");
    writeFileSync(join(dir, "missing.json"), JSON.stringify({ name: "x", dataset: "nope.jsonl", prompt: "{q}", scorer: "exactMatch" }));
    const missing = await runCli(["run", join(dir, "missing.json"), ...endpoint()], { cwd: dir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/dataset of benchmark "x" not found: .*nope\.jsonl/);
    writeFileSync(join(dir, "broken.json"), "{ name: ");
    const broken = await runCli(["run", join(dir, "broken.json"), ...endpoint()], { cwd: dir });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain("not valid JSON");
    const badScorer = join(dir, "bad-scorer.json");
    writeFileSync(badScorer, JSON.stringify({ name: "x", dataset: "qa.jsonl", prompt: "{question}", scorer: "nonsense" }));
    const bs = await runCli(["run", badScorer, ...endpoint()], { cwd: dir });
    expect(bs.code).toBe(2);
    expect(bs.stderr).toContain('unknown scorer "nonsense"');
    // an endpoint that fails every request: samples are skipped (reported), --fail-on-skip makes it an error
    const down = await startServer(() => ({ status: 400, body: { error: { message: "model not loaded" } } }));
    try {
      const r = await runCli(
        ["run", join(dir, "qa.json"), "--base-url", down.baseURL, "--model", "m", "--no-progress", "--fail-on-skip", "--max-retries", "0"],
        { cwd: dir },
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("0 scored, 3 skipped");
      expect(r.stderr).toMatch(/sample 0: skipped_model_error/);
      // every sample failed: a failed run even without --fail-on-skip, and no `{}` report written
      const out = join(dir, "all-failed.json");
      const all = await runCli(
        ["run", join(dir, "qa.json"), "--base-url", down.baseURL, "--model", "m", "--no-progress", "--max-retries", "0", "-o", out],
        { cwd: dir },
      );
      expect(all.code).toBe(1);
      expect(all.stdout).toContain("0 scored, 3 skipped");
      expect(all.stderr).toContain("every sample failed; no report written");
      expect(existsSync(out)).toBe(false);
    } finally {
      await down.close();
    }
  });

  it("a dead server (connection refused) fails fast with a clear error and a non-zero exit", async () => {
    const probe = await startServer(() => chat("x"));
    const deadUrl = probe.baseURL;
    await probe.close();
    const rows = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ question: `q${i}`, answer: "a" }));
    writeFileSync(join(dir, "big.jsonl"), rows.join("\n"));
    writeFileSync(
      join(dir, "big.json"),
      JSON.stringify({ name: "big", dataset: "big.jsonl", prompt: "{question}", targetField: "answer", scorer: "exactMatch" }),
    );
    const out = join(dir, "dead.json");
    const r = await runCli(["run", join(dir, "big.json"), "--base-url", deadUrl, "--model", "m", "--no-progress", "-o", out], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/big: cannot reach http:\/\/127\.0\.0\.1:\d+.*connection refused/);
    expect(existsSync(out)).toBe(false);
  });
});
