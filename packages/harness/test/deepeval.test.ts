// DeepEval's runner entry points against real metrics: rule-based ones, and judge metrics talking to
// the judge package's scripted HTTP server on loopback.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AnswerRelevancyMetric, OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from "@evalkern/judge";
import { JsonCorrectnessMetric, MLLMImage, ToolCorrectnessMetric } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, chatJson, serverError, type ScriptedServer, type RecordedRequest } from "../../judge/test/support/server.js";
import {
  ConversationalGolden,
  DatasetError,
  EvaluationDataset,
  Golden,
  InvalidArgumentError,
  LLMTestCase,
  MetricAssertionError,
  assertTest,
  evaluate,
  type EvaluateProgress,
} from "../src/index.js";
import { tempDir } from "./helpers.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => server.reset());

function judge(options: OpenAICompatibleJudgeOptions = {}): OpenAICompatibleJudge {
  return new OpenAICompatibleJudge({
    baseURL: server.baseURL,
    apiKey: "test-key",
    model: "gpt-4o-mini",
    env: {},
    timeoutMs: 10_000,
    ...options,
    retry: { initialDelayMs: 1, maxDelayMs: 5, jitter: 0, maxAttempts: 2, ...(options.retry ?? {}) },
  });
}

function promptOf(request: RecordedRequest): string {
  return request.body.messages.map((m: { content: string }) => m.content).join("\n");
}

/** Answer relevancy's three calls: one statement per answer; "no" for anything about bananas; 500 for "boom". */
function relevancyServer(): void {
  server.handle("chat", (request) => {
    const schema: string = request.body.response_format?.json_schema?.name ?? "";
    const prompt = promptOf(request);
    const usage = { prompt_tokens: 100_000, completion_tokens: 10_000 };
    if (prompt.includes("boom")) return serverError(500);
    if (schema.startsWith("statements"))
      return chatJson({ statements: [prompt.includes("bananas") ? "Bananas are yellow." : "Paris is the capital."] }, { usage });
    if (schema.startsWith("verdict")) {
      return chatJson(
        { verdicts: [prompt.includes("Bananas") ? { verdict: "no", reason: "Bananas are off topic." } : { verdict: "yes", reason: null }] },
        { usage },
      );
    }
    return chatJson(
      {
        reason: prompt.includes("Bananas") ? "The score is 0.00 because it talks about bananas." : "The score is 1.00 because it answers.",
      },
      { usage },
    );
  });
}

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

describe("evaluate", () => {
  it("measures every test case with every metric, concurrently, with per-metric score, reason, success, cost and error", async () => {
    relevancyServer();
    const progress: EvaluateProgress[] = [];
    const result = await evaluate(
      [
        { input: "Capital of France?", actual_output: '{"city": "Paris"}', name: "good" },
        { input: "Capital of France?", actual_output: "I like bananas", name: "bad" },
        { input: "boom", actual_output: '{"town": "x"}', name: "broken" },
      ],
      [new JsonCorrectnessMetric({ expectedSchema: schema }), new AnswerRelevancyMetric({ model: judge() })],
      { concurrency: 3, onProgress: (p) => progress.push(p) },
    );
    expect(progress).toHaveLength(6);
    expect(progress.map((p) => p.completed).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every((p) => p.total === 6)).toBe(true);

    const [good, bad, broken] = result.testResults;
    expect(good!.success).toBe(true);
    expect(good!.metricsData.map((m) => [m.name, m.score, m.success])).toEqual([
      ["Json Correctness", 1, true],
      ["Answer Relevancy", 1, true],
    ]);
    // 3 calls × (100k input at $0.15/M + 10k output at $0.60/M)
    expect(good!.metricsData[1]!.evaluationCost).toBeCloseTo(3 * (0.015 + 0.006), 12);
    expect(good!.metricsData[1]!.costUnknown).toBe(false);
    expect(good!.metricsData[0]!.evaluationCost).toBe(0);
    expect(good!.metricsData.map((m) => m.scoringPath)).toEqual([null, "structured"]);

    expect(bad!.success).toBe(false);
    expect(bad!.metricsData[1]).toMatchObject({ score: 0, success: false, error: null });
    expect(bad!.metricsData[1]!.reason).toContain("bananas");

    expect(broken!.success).toBe(false);
    const failed = broken!.metricsData[1]!;
    expect(failed.score).toBeNull();
    expect(failed.success).toBe(false);
    expect(failed.error).toMatch(/500/);
    expect(broken!.metricsData[0]).toMatchObject({ score: 0, success: false });

    expect(result.passed).toBe(1);
    expect(result.failed).toBe(2);
    expect(result.metrics.find((m) => m.name === "Answer Relevancy")).toMatchObject({ passed: 1, failed: 2, errors: 1, passRate: 1 / 3 });
    expect(result.summary).toMatch(/\| Test case +\| Metric +\| Score/);
    expect(result.summary).toContain("| good ");
    expect(result.summary).toContain("ERROR");
    expect(result.summary).toContain("Test cases: 1/3 passed");
  });

  it("an unpriced model makes the cost unknown (null + flag), never 0", async () => {
    relevancyServer();
    const result = await evaluate(
      [{ input: "Capital of France?", actualOutput: "Paris" }],
      [new AnswerRelevancyMetric({ model: judge({ model: "my-local-model" }) })],
    );
    const metric = result.testResults[0]!.metricsData[0]!;
    expect(metric.score).toBe(1);
    expect(metric.evaluationCost).toBeNull();
    expect(metric.costUnknown).toBe(true);
    expect(result.evaluationCost).toBeNull();
    expect(result.costUnknown).toBe(true);
    expect(result.summary).toContain("unknown");
  });

  it("skipOnMissingParams skips instead of failing; single-turn metrics do not run on conversations", async () => {
    const metric = new ToolCorrectnessMetric();
    const cases = [
      { input: "q", tools_called: [{ name: "search" }], expected_tools: [{ name: "search" }] },
      { input: "q" },
      { turns: [{ role: "user" as const, content: "hi" }] },
    ];
    const skipped = await evaluate(cases, [metric], { skipOnMissingParams: true });
    expect(skipped.testResults[0]!.metricsData[0]).toMatchObject({ score: 1, success: true });
    expect(skipped.testResults[1]!.metricsData[0]).toMatchObject({ skipped: true, success: null, error: null, score: null });
    expect(skipped.testResults[1]!.success).toBe(true);
    expect(skipped.testResults[2]!.metricsData).toEqual([]);
    expect(skipped.testResults[2]!.conversational).toBe(true);

    const strict = await evaluate(cases.slice(0, 2), [metric]);
    expect(strict.testResults[1]!.metricsData[0]!.error).toMatch(/'tools_called' and 'expected_tools' cannot be None/);
    expect(strict.testResults[1]!.success).toBe(false);
    expect(metric.score).toBeNull(); // the metric given is untouched: each measurement used a copy
  });

  it("refuses metric lists where nothing can decide pass/fail, and bad test cases up front", async () => {
    await expect(
      evaluate([{ input: "q", actual_output: "{}" }], [new JsonCorrectnessMetric({ expectedSchema: schema, threshold: null })]),
    ).rejects.toThrow(/needs a threshold/);
    await expect(
      evaluate([{ actual_output: "x" } as never], [new JsonCorrectnessMetric({ expectedSchema: schema })]),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe("assertTest", () => {
  it("resolves when every metric passes", async () => {
    const result = await assertTest({ input: "q", actual_output: '{"city": "Rome"}' }, [
      new JsonCorrectnessMetric({ expectedSchema: schema }),
    ]);
    expect(result.success).toBe(true);
  });

  it("throws an Error listing every failed metric with score, threshold and reason or error", async () => {
    relevancyServer();
    const error = await assertTest(new LLMTestCase({ input: "Capital of France?", actualOutput: "I like bananas" }), [
      new JsonCorrectnessMetric({ expectedSchema: schema }),
      new AnswerRelevancyMetric({ model: judge(), threshold: 0.7 }),
    ]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(MetricAssertionError);
    const message = (error as Error).message;
    expect(message.split("\n")[0]).toBe('2 of 2 metric(s) failed for test case "Capital of France?":');
    expect(message).toContain("  - Json Correctness: score 0, threshold 0.5\n      reason: The actual output is not valid JSON");
    expect(message).toContain(
      "  - Answer Relevancy: score 0, threshold 0.7\n      reason: The score is 0.00 because it talks about bananas.",
    );
    expect((error as MetricAssertionError).failed.map((f) => f.name)).toEqual(["Json Correctness", "Answer Relevancy"]);
  });

  // vitest marks this test passed only because the body throws: a failing assertTest fails the test it is in
  it.fails("fails the vitest test it runs in", async () => {
    await assertTest({ input: "q", actual_output: "not json" }, [new JsonCorrectnessMetric({ expectedSchema: schema })]);
  });

  it("reports a metric that errored with its error", async () => {
    const error = (await assertTest({ input: "q" }, [new JsonCorrectnessMetric({ expectedSchema: schema })]).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toContain("  - Json Correctness: score None, threshold 0.5\n      error: 'actual_output' cannot be None");
  });
});

describe("EvaluationDataset", () => {
  it("loads goldens from JSON, JSONL and CSV in DeepEval's snake_case, and from arrays", async () => {
    const dir = tempDir();
    const json = join(dir, "goldens.json");
    writeFileSync(
      json,
      JSON.stringify([
        { input: "2+2?", expected_output: "4", context: ["arithmetic"], topic: "math" },
        { scenario: "Asks for a refund", expected_outcome: "Refund issued", user_description: "a customer" },
      ]),
    );
    const jsonl = join(dir, "goldens.jsonl");
    writeFileSync(jsonl, '{"input": "a", "expectedOutput": "b"}\n\n{"input": "c", "retrieval_context": ["r1", "r2"]}\n');
    const csv = join(dir, "goldens.csv");
    writeFileSync(
      csv,
      'input,expected_output,context,expected_tools,difficulty\n"Capital of France?",Paris,"Paris is in France; France is ' +
        'in Europe","[{""name"": ""search""}]",easy\n"2+2?",4,,search;calc,\n',
    );

    const fromJson = await EvaluationDataset.fromFile(json);
    const [single, conversational] = fromJson.goldens;
    expect(single).toBeInstanceOf(Golden);
    expect((single as Golden).expectedOutput).toBe("4");
    expect((single as Golden).context).toEqual(["arithmetic"]);
    expect((single as Golden).customColumnKeyValues).toEqual({ topic: "math" });
    expect((single as Golden).sourceFile).toBe(json);
    expect(conversational).toBeInstanceOf(ConversationalGolden);
    expect((conversational as ConversationalGolden).expectedOutcome).toBe("Refund issued");

    const fromJsonl = await EvaluationDataset.fromFile(jsonl);
    expect(fromJsonl.goldens.map((g) => (g as Golden).input)).toEqual(["a", "c"]);
    expect((fromJsonl.goldens[1] as Golden).retrievalContext).toEqual(["r1", "r2"]);

    const fromCsv = await EvaluationDataset.fromFile(csv);
    const [first, second] = fromCsv.goldens as Golden[];
    expect(first!.context).toEqual(["Paris is in France", "France is in Europe"]);
    expect(first!.expectedTools?.map((t) => t.name)).toEqual(["search"]);
    expect(first!.customColumnKeyValues).toEqual({ difficulty: "easy" });
    expect(second!.context).toBeNull();
    expect(second!.expectedTools?.map((t) => t.name)).toEqual(["search", "calc"]);
    expect(second!.customColumnKeyValues).toBeNull();

    const renamed = new EvaluationDataset();
    writeFileSync(join(dir, "qa.jsonl"), '{"question": "q1", "answer": "a1"}\n');
    await renamed.addGoldensFromJsonlFile(join(dir, "qa.jsonl"), { keys: { input: "question", expected_output: "answer" } });
    expect((renamed.goldens[0] as Golden).expectedOutput).toBe("a1");

    const fromArray = EvaluationDataset.fromArray([{ input: "x", expected_output: "y" }]);
    expect(fromArray.length).toBe(1);
  });

  it("carries images through JSONL in their object form, unchanged", async () => {
    const dir = tempDir();
    const image = new MLLMImage({ url: "https://example.com/chart.png" });
    const golden = new Golden({ input: ["What does this show?", image], expectedOutput: "Growth." });
    const path = join(dir, "images.jsonl");
    writeFileSync(
      path,
      `${JSON.stringify(golden)}\n` +
        JSON.stringify({
          input: "See [DEEPEVAL:IMAGE:x1]",
          images: { x1: { id: "x1", dataBase64: "iVBORw0KGgo=", mimeType: "image/png" } },
        }) +
        "\n",
    );
    const dataset = await EvaluationDataset.fromFile(path);
    const [first, second] = dataset.goldens as Golden[];
    expect(first!.input).toBe(`What does this show?${image}`);
    expect(first!.images.get(image.id)?.url).toBe("https://example.com/chart.png");
    expect(first!.toTestCase({ actualOutput: "Growth." }).multimodal).toBe(true);
    expect(second!.images.get("x1")?.mimeType).toBe("image/png");
    expect(second!.customColumnKeyValues).toBeNull();
  });

  it("a bad row is a DatasetError naming the file and row, and nothing from that file is added", async () => {
    const dir = tempDir();
    const path = join(dir, "bad.jsonl");
    writeFileSync(path, '{"input": "ok"}\n{"expected_output": "no input"}\n');
    const dataset = new EvaluationDataset();
    const error = (await dataset.addGoldensFromJsonlFile(path).catch((e: unknown) => e)) as DatasetError;
    expect(error).toBeInstanceOf(DatasetError);
    expect(error.row).toBe(2);
    expect(error.message).toContain(`${path}: row 2:`);
    expect(dataset.length).toBe(0);
    await expect(EvaluationDataset.fromFile(join(dir, "missing.json"))).rejects.toBeInstanceOf(DatasetError);
    writeFileSync(join(dir, "x.jsonl"), '{"input": "q", "surprise": 1}\n');
    await expect(EvaluationDataset.fromFile(join(dir, "x.jsonl"), { extraKeys: "error" })).rejects.toThrow(
      /'surprise' is not a golden field/,
    );
  });

  it("goldens become test cases for evaluate", async () => {
    const dataset = EvaluationDataset.fromArray([
      { input: "City as JSON", expected_output: '{"city": "Paris"}' },
      { input: "Another city", expected_output: '{"city": "Rome"}' },
    ]);
    for (const golden of dataset.goldens as Golden[]) dataset.addTestCase(golden.toTestCase({ actualOutput: golden.expectedOutput }));
    const result = await evaluate(dataset.testCases, [new JsonCorrectnessMetric({ expectedSchema: schema })]);
    expect(result.passed).toBe(2);
  });
});
