// DeepEval's conversational RAG metrics (docs/spec/judges.md §5.4) against the scripted loopback server:
// windows over unit interactions, per-window formulas on hand-computed verdicts, the mean, per-window
// strict mode, reasons, cost, missing fields and malformed verdicts.
import { ConversationalTestCase, MissingTestCaseParamsError, Turn } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  JudgeMetricConfigError,
  JudgeOutputError,
  NO_CLAIMS_REASON,
  NO_RETRIEVAL_CONTEXT_REASON,
  NO_WINDOWS_REASON,
  TurnContextualPrecisionMetric,
  TurnContextualRecallMetric,
  TurnContextualRelevancyMetric,
  TurnFaithfulnessMetric,
  turnWindows,
} from "../../src/index.js";
import { chatJson, chatText, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";
import { testJudge } from "../support/judge.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => server.reset());

const schemaOf = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name ?? "";
const promptOf = (r: RecordedRequest): string => r.body.messages.map((m: { content: string }) => m.content).join("\n");
const calls = (schema: string) => server.requestsTo("chat").filter((r) => schemaOf(r) === schema);

const A = "Refunds are accepted within 30 days of delivery.";
const B = "Shipping takes five working days.";
const C = "Sale items can be refunded within 14 days.";
const conversation = (extra: { expectedOutcome?: string } = {}) =>
  new ConversationalTestCase({
    ...extra,
    turns: [
      { role: "user", content: "How long do I have to return a jacket?" },
      { role: "assistant", content: "You have 30 days.", retrievalContext: [A, B] },
      { role: "user", content: "And if it was on sale?" },
      // DeepEval's snake_case field name is accepted on turns too.
      { role: "assistant", content: "Sale items: 14 days, and shipping is free.", retrieval_context: [C] },
      { role: "user", content: "Thanks!" },
      { role: "assistant", content: "You're welcome." },
    ],
  });
const outcome = "Regular items can be returned within 30 days. Sale items within 14 days.";

describe("turn windows", () => {
  it("cut the conversation into unit interactions and slide a window over them; retrieval context comes from assistant turns", () => {
    const windows = turnWindows(conversation(), 2);
    expect(windows).toHaveLength(3);
    expect(windows[0]).toEqual({
      userContent: "How long do I have to return a jacket?",
      assistantContent: "You have 30 days.",
      retrievalContext: [A, B],
    });
    expect(windows[1]!.retrievalContext).toEqual([A, B, C]);
    expect(windows[2]!.userContent).toBe("And if it was on sale?\nThanks!");
    expect(windows[2]!.retrievalContext).toEqual([C]);
    expect(() => new Turn({ role: "assistant", content: "x", retrievalContext: "not a list" as unknown as string[] })).toThrow(
      /retrievalContext/,
    );
    expect(() => new TurnFaithfulnessMetric({ model: testJudge(server), windowSize: 0 })).toThrow(JudgeMetricConfigError);
  });
});

describe("TurnContextualPrecisionMetric", () => {
  // windowSize 10: window 1 sees [A, B], window 2 [A, B, C], window 3 [A, B, C] too.
  const script = () =>
    server.handle("chat", (request) => {
      const prompt = promptOf(request);
      if (schemaOf(request) === "reason") return chatJson({ reason: prompt.includes("Window 1") ? "final reason" : "window reason" });
      if (prompt.includes("returned the 2 nodes"))
        return chatJson({
          verdicts: [
            { verdict: "yes", reason: "A" },
            { verdict: "no", reason: "B" },
          ],
        });
      return chatJson({
        verdicts: [
          { verdict: "no", reason: "A" },
          { verdict: "no", reason: "B" },
          { verdict: "yes", reason: "C" },
        ],
      });
    });

  it("weighted cumulative precision per window against the expected outcome, then the mean", async () => {
    script();
    const metric = new TurnContextualPrecisionMetric({ model: testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 2 } }) });
    // window 1: r = [1, 0] → 1; windows 2 and 3: r = [0, 0, 1] → (1/3) / 1 = 1/3. Mean (1 + 1/3 + 1/3) / 3 = 5/9.
    expect(await metric.aMeasure(conversation({ expectedOutcome: outcome }))).toBeCloseTo(5 / 9, 12);
    expect(metric.name).toBe("Turn Contextual Precision");
    expect(metric.success).toBe(true);
    expect(metric.windows.map((w) => w.reason)).toEqual(["window reason", "window reason", "window reason"]);
    expect(metric.reason).toBe("final reason");
    expect(calls("verdicts")).toHaveLength(3);
    expect(promptOf(calls("verdicts")[0]!)).toContain(outcome);
    const final = calls("reason")
      .map(promptOf)
      .find((p) => p.includes("Window 1"))!;
    expect(final).toContain("Window 3 (score 0.3333333333333333): window reason");
    // 3 verdict + 3 window reason + 1 final reason calls, each 10 prompt × $1/M + 5 completion × $2/M.
    expect(metric.evaluationCost).toBeCloseTo(7 * 20e-6, 15);
    expect(metric.inputTokens).toBe(70);
  });

  it("strict mode zeroes each window below 1 and does not binarise the mean again", async () => {
    script();
    const metric = new TurnContextualPrecisionMetric({ model: testJudge(server), strictMode: true, includeReason: false });
    expect(await metric.aMeasure(conversation({ expectedOutcome: outcome }))).toBeCloseTo(1 / 3, 12);
    expect(metric.threshold).toBe(1);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBeNull();
    expect(calls("reason")).toHaveLength(0);
  });

  it("needs the expected outcome: a typed MissingTestCaseParamsError before any request", async () => {
    const metric = new TurnContextualPrecisionMetric({ model: testJudge(server) });
    const failure = await metric.aMeasure(conversation()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MissingTestCaseParamsError);
    expect((failure as MissingTestCaseParamsError).params).toEqual(["expected_outcome"]);
    expect(metric.error).toBe(
      "'expected_outcome' in a conversational test case cannot be empty for the 'Turn Contextual Precision' metric.",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("a verdict list of the wrong length is re-asked, then a typed error; no score is made up", async () => {
    server.handle("chat", () => chatJson({ verdicts: [{ verdict: "yes", reason: "only one" }] }));
    const metric = new TurnContextualPrecisionMetric({ model: testJudge(server, { maxReasks: 1 }), windowSize: 1, asyncMode: false });
    await expect(metric.aMeasure(conversation({ expectedOutcome: outcome }))).rejects.toBeInstanceOf(JudgeOutputError);
    expect(metric.score).toBeNull();
    expect(metric.success).toBe(false);
    expect(server.requestsTo("chat")).toHaveLength(2);
  });
});

describe("TurnContextualRecallMetric", () => {
  it("count(yes)/n of the expected outcome's sentences per window; a window without retrieval context scores 1 unasked", async () => {
    server.handle("chat", (request) => {
      const prompt = promptOf(request);
      if (schemaOf(request) === "reason") return chatJson({ reason: "r" });
      if (prompt.includes(A))
        return chatJson({
          verdicts: [
            { verdict: "yes", reason: "1st node" },
            { verdict: "no", reason: "nothing" },
          ],
        });
      return chatJson({
        verdicts: [
          { verdict: "no", reason: "nothing" },
          { verdict: "yes", reason: "1st node" },
        ],
      });
    });
    const metric = new TurnContextualRecallMetric({ model: testJudge(server), windowSize: 1 });
    // windows: [A, B] → 1/2; [C] → 1/2; no context → 1. Mean 2/3.
    expect(await metric.aMeasure(conversation({ expectedOutcome: outcome }))).toBeCloseTo(2 / 3, 12);
    expect(metric.windows[2]).toMatchObject({ score: 1, reason: NO_RETRIEVAL_CONTEXT_REASON });
    expect(calls("verdicts")).toHaveLength(2);
    expect(calls("reason")).toHaveLength(3); // two windows + the final reason
    await expect(new TurnContextualRecallMetric({ model: testJudge(server) }).aMeasure(conversation())).rejects.toThrow(
      /'expected_outcome'/,
    );
  });
});

describe("TurnContextualRelevancyMetric", () => {
  it("one call per retrieved node; count(yes)/n over the window's statements; strict mode per window", async () => {
    const byNode: Record<string, unknown> = {
      [A]: { verdicts: [{ statement: "30-day refunds", verdict: "yes", reason: null }] },
      [B]: { verdicts: [{ statement: "shipping time", verdict: "no", reason: "not about returns" }] },
      [C]: {
        verdicts: [
          { statement: "sale refunds", verdict: "yes", reason: null },
          { statement: "sale dates", verdict: "no", reason: "dates" },
          { statement: "store hours", verdict: "no", reason: "hours" },
        ],
      },
    };
    const handler = (request: RecordedRequest) => {
      const prompt = promptOf(request);
      if (schemaOf(request) === "reason") return chatJson({ reason: "r" });
      const node = [A, B, C].find((n) => prompt.includes(`Context:\n${n}`))!;
      return chatJson(byNode[node]);
    };
    server.handle("chat", handler);
    const metric = new TurnContextualRelevancyMetric({ model: testJudge(server), windowSize: 1 });
    // windows: [A, B] → 1/2; [C] → 1/3; none → 1. Mean (1/2 + 1/3 + 1) / 3 = 11/18.
    expect(await metric.aMeasure(conversation())).toBeCloseTo(11 / 18, 12);
    expect(calls("verdicts")).toHaveLength(3);
    const windowReason = calls("reason")
      .map(promptOf)
      .find((p) => p.includes("shipping time"))!;
    expect(windowReason).toContain("shipping time: not about returns");

    server.reset();
    server.handle("chat", handler);
    const strict = new TurnContextualRelevancyMetric({ model: testJudge(server), windowSize: 1, strictMode: true, includeReason: false });
    expect(await strict.aMeasure(conversation())).toBeCloseTo(1 / 3, 12);
  });
});

describe("TurnFaithfulnessMetric", () => {
  const handler = (request: RecordedRequest) => {
    const prompt = promptOf(request);
    switch (schemaOf(request)) {
      case "truths":
        return chatJson({ truths: prompt.includes(C) ? ["Sale items: 14 days."] : prompt.includes(A) ? ["Refunds: 30 days."] : [] });
      case "claims":
        if (prompt.includes("You have 30 days.")) return chatJson({ claims: ["The return window is 30 days."] });
        if (prompt.includes("Sale items: 14 days")) return chatJson({ claims: ["Sale items: 14 days.", "Shipping is free."] });
        return chatJson({ claims: [] });
      case "verdicts":
        return prompt.includes("Shipping is free.")
          ? chatJson({
              verdicts: [
                { verdict: "yes", reason: null },
                { verdict: "idk", reason: "Free shipping is not mentioned." },
              ],
            })
          : chatJson({ verdicts: [{ verdict: "yes", reason: null }] });
      default:
        return chatJson({ reason: "r" });
    }
  };

  it("truths of the window's retrieval context, claims of its assistant messages, verdicts; idk penalised on request", async () => {
    server.handle("chat", handler);
    const lenient = new TurnFaithfulnessMetric({ model: testJudge(server), windowSize: 1 });
    // windows: [yes] → 1; [yes, idk] → 1; no claims → 1 (no verdict call).
    expect(await lenient.aMeasure(conversation())).toBe(1);
    expect(lenient.windows[2]).toMatchObject({ score: 1, reason: NO_CLAIMS_REASON });
    expect(calls("verdicts")).toHaveLength(2);
    expect(calls("truths")).toHaveLength(3);

    server.reset();
    server.handle("chat", handler);
    const penalised = new TurnFaithfulnessMetric({
      model: testJudge(server),
      windowSize: 1,
      penalizeAmbiguousClaims: true,
      includeReason: false,
    });
    // window 2: (2 − 1) / 2 = 0.5. Mean (1 + 0.5 + 1) / 3 = 5/6.
    expect(await penalised.aMeasure(conversation())).toBeCloseTo(5 / 6, 12);
    expect(penalised.reason).toBeNull();
  });

  it("a malformed verdict reply is re-asked and then recovers", async () => {
    let bad = true;
    server.handle("chat", (request) => {
      if (schemaOf(request) === "verdicts" && bad) {
        bad = false;
        return chatText("this is not JSON");
      }
      return handler(request);
    });
    const metric = new TurnFaithfulnessMetric({ model: testJudge(server), windowSize: 1, includeReason: false, asyncMode: false });
    expect(await metric.aMeasure(conversation())).toBe(1);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
  });

  it("a conversation without a complete interaction scores 1 with a fixed reason and no request", async () => {
    const metric = new TurnFaithfulnessMetric({ model: testJudge(server) });
    expect(await metric.aMeasure(new ConversationalTestCase({ turns: [{ role: "user", content: "Hello?" }] }))).toBe(1);
    expect(metric.reason).toBe(NO_WINDOWS_REASON);
    expect(server.requests).toHaveLength(0);
  });
});
