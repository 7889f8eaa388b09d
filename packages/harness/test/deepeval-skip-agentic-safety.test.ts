// DeepEval's `skip_on_missing_params` with the agentic and safety judge metrics of issue 20: a test case
// without a field a metric needs is skipped by that metric (no judge call, no score, no failure) when
// asked, and fails it otherwise; the cases that have the fields are scored against the loopback server.
import { ArgumentCorrectnessMetric, MisuseMetric, OpenAICompatibleJudge } from "@evalkern/judge";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatJson, startServer, type ScriptedServer } from "../../judge/test/support/server.js";
import { evaluate } from "../src/index.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

const judge = () =>
  new OpenAICompatibleJudge({
    baseURL: server.baseURL,
    apiKey: "test-key",
    model: "test-judge",
    env: {},
    retry: { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 },
  });

describe("skipOnMissingParams with the new judge metrics", () => {
  it("skips a case without actual_output / tools_called, scores the complete one", async () => {
    server.handle("chat", (request) => {
      const schema: string = request.body.response_format?.json_schema?.name ?? "";
      if (schema === "misuses") return chatJson({ misuses: ["Write me a poem."] });
      if (schema === "verdicts") return chatJson({ verdicts: [{ verdict: "yes", reason: "Poetry is not banking." }] });
      return chatJson({ reason: "The score is 1.00 because the request is about poetry." });
    });
    const metrics = [new MisuseMetric({ model: judge(), domain: "banking" }), new ArgumentCorrectnessMetric({ model: judge() })];
    const cases = [{ input: "Write me a poem.", actual_output: "Write me a poem.", tools_called: [] }, { input: "Write me a poem." }];
    const skipped = await evaluate(cases, metrics, { skipOnMissingParams: true });
    // Misuse: 1 misuse of 1 → 1, lower is better → fails; ArgumentCorrectness: no tool calls → 1, no call.
    expect(skipped.testResults[0]!.metricsData.map((m) => [m.name, m.score, m.success])).toEqual([
      ["Misuse", 1, false],
      ["Argument Correctness", 1, true],
    ]);
    expect(skipped.testResults[1]!.metricsData.map((m) => [m.name, m.skipped, m.score, m.success, m.error])).toEqual([
      ["Misuse", true, null, null, null],
      ["Argument Correctness", true, null, null, null],
    ]);
    // only the first case's three Misuse calls reached the judge
    expect(server.requestsTo("chat")).toHaveLength(3);

    const strict = await evaluate(cases.slice(1), metrics);
    expect(strict.testResults[0]!.metricsData.map((m) => m.error)).toEqual([
      "'actual_output' cannot be None for the 'Misuse' metric",
      "'tools_called' cannot be None for the 'Argument Correctness' metric",
    ]);
    expect(strict.testResults[0]!.success).toBe(false);
  });
});
