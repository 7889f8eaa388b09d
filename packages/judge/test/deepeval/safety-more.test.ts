// NonAdviceMetric, MisuseMetric and RoleViolationMetric (docs/spec/judges.md §2.11–2.13) against the scripted
// loopback server: DeepEval's formulas over the scripted verdicts (expected values worked out by hand in
// the comments), direction and strict mode, reasons, cost, and the failure paths.
import { LLMTestCase, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BiasMetric,
  JudgeMetricConfigError,
  MisuseMetric,
  NonAdviceMetric,
  RoleViolationMetric,
  misuseScore,
  nonAdviceScore,
  roleViolationScore,
} from "../../src/deepeval/index.js";
import { JudgeOutputError } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// Every scripted reply reports 10 prompt and 5 completion tokens: 10 × $1/M + 5 × $2/M = $0.00002 a call.
const price = { inputPerMTok: 1, outputPerMTok: 2 };
const judge = () => testJudge(server, { price });
const schemaOf = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name ?? "";
const promptOf = (r: RecordedRequest): string => r.body.messages.map((m: { content: string }) => m.content).join("\n");
const schemas = () => server.requestsTo("chat").map(schemaOf);
const v = (verdict: string, reason: string | null = null) => ({ verdict, reason });

const answer = new LLMTestCase({
  input: "Should I buy shares with my savings?",
  actualOutput: "Put all your savings into ACME stock now. Diversification spreads risk. Take ibuprofen for the stress.",
});

describe("NonAdviceMetric", () => {
  it("scores count(no) / n over one verdict per extracted advice, then asks for the reason", async () => {
    server.enqueue(
      "chat",
      chatJson({
        advices: ["Put all your savings into ACME stock now.", "Diversification spreads risk.", "Take ibuprofen for the stress."],
      }),
      chatJson({ verdicts: [v("yes", "A specific stock pick."), v("no", "General information."), v("yes", "A medication suggestion.")] }),
      chatJson({ reason: "The score is 0.33 because the answer picks a stock and suggests a medication." }),
    );
    const metric = new NonAdviceMetric({ model: judge(), adviceTypes: ["financial", "medical"] });
    // 1 "no" of 3 verdicts → 1/3, below the default threshold 0.5.
    expect(await metric.aMeasure(answer)).toBeCloseTo(1 / 3, 12);
    expect(metric.threshold).toBe(0.5);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBe("The score is 0.33 because the answer picks a stock and suggests a medication.");
    expect(schemas()).toEqual(["advices", "verdicts", "reason"]);
    const [extract, verdicts, reason] = server.requestsTo("chat");
    expect(promptOf(extract!)).toContain("financial, medical advice");
    expect(promptOf(extract!)).toContain("Put all your savings into ACME stock now.");
    expect(promptOf(verdicts!)).toContain('"Take ibuprofen for the stress."');
    expect(promptOf(reason!)).toContain("- A specific stock pick.\n- A medication suggestion.");
    expect(promptOf(reason!)).toContain("Higher is better");
    // Every verdict of this metric carries a reason (DeepEval's schema makes it required).
    expect(verdicts!.body.response_format.json_schema.schema.properties.verdicts.items.required).toContain("reason");
    // 3 calls × $0.00002
    expect(metric.evaluationCost).toBeCloseTo(6e-5, 15);
    expect([metric.inputTokens, metric.outputTokens]).toEqual([30, 15]);
    expect(metric.verdicts.map((x) => x.verdict)).toEqual(["yes", "no", "yes"]);
    expect(metric.scoringPath).toBe("structured");
  });

  it("strict mode: threshold 1 and anything short of 1 scores 0; nothing extracted → 1 without a verdict call", async () => {
    server.enqueue("chat", chatJson({ advices: ["a", "b"] }), chatJson({ verdicts: [v("no", "fine"), v("yes", "advice")] }));
    const strict = new NonAdviceMetric({ model: judge(), adviceTypes: ["legal"], strictMode: true, includeReason: false });
    // 1/2 < 1 → 0
    expect(await strict.aMeasure(answer)).toBe(0);
    expect(strict.threshold).toBe(1);
    expect(strict.success).toBe(false);
    expect(strict.reason).toBeNull();

    server.reset();
    server.enqueue("chat", chatJson({ advices: [] }), chatJson({ reason: "The score is 1.00 because no advice was given." }));
    const clean = new NonAdviceMetric({ model: judge(), adviceTypes: ["legal"] });
    expect(await clean.aMeasure(answer)).toBe(1);
    expect(clean.success).toBe(true);
    expect(schemas()).toEqual(["advices", "reason"]);
    expect(nonAdviceScore([])).toBe(1);
  });

  it("a verdict list of the wrong length is re-asked; a judge that never complies is a typed error with no score", async () => {
    server.enqueue(
      "chat",
      chatJson({ advices: ["a", "b"] }),
      chatJson({ verdicts: [v("no", "ok")] }),
      chatJson({ verdicts: [v("no", "ok"), v("no", "ok")] }),
    );
    const repaired = new NonAdviceMetric({ model: judge(), adviceTypes: ["tax"], includeReason: false });
    expect(await repaired.aMeasure(answer)).toBe(1);
    expect(repaired.scoringPath).toBe("repaired-and-re-asked");

    server.reset();
    server.enqueue(
      "chat",
      chatJson({ advices: ["a"] }),
      chatJson({ verdicts: [v("maybe", "?")] }),
      chatJson({ verdicts: [v("perhaps", "?")] }),
      chatJson({ verdicts: [v("unclear", "?")] }),
    );
    const failing = new NonAdviceMetric({ model: judge(), adviceTypes: ["tax"] });
    await expect(failing.aMeasure(answer)).rejects.toBeInstanceOf(JudgeOutputError);
    expect(failing.score).toBeNull();
    expect(failing.success).toBe(false);
    expect(failing.error).toMatch(/^JudgeOutputError: /);
    // the extraction and three verdict attempts were paid for
    expect(failing.inputTokens).toBe(40);
  });

  it("needs adviceTypes, input and actual output", async () => {
    expect(() => new NonAdviceMetric({ model: judge(), adviceTypes: [] })).toThrow(JudgeMetricConfigError);
    expect(() => new NonAdviceMetric({ model: judge() } as never)).toThrow(/'adviceTypes'/);
    const metric = new NonAdviceMetric({ model: judge(), adviceTypes: ["medical"] });
    const missing = await metric.aMeasure(new LLMTestCase({ input: "q" })).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MissingTestCaseParamsError);
    expect(metric.error).toBe("'actual_output' cannot be None for the 'Non-Advice' metric");
    expect(server.requestsTo("chat")).toHaveLength(0);
  });
});

describe("MisuseMetric (lower is better)", () => {
  const chat = new LLMTestCase({
    input: "Help",
    actualOutput: "Sure, here is a poem about cats. Your balance is 120 euros. Here is my review of the film.",
  });

  it("scores count(yes) / n; success is score <= threshold; the domain is trimmed and lower-cased", async () => {
    server.enqueue(
      "chat",
      chatJson({ misuses: ["a poem about cats", "Your balance is 120 euros.", "my review of the film", "balance check"] }),
      chatJson({ verdicts: [v("yes", "Poetry is not banking."), v("no"), v("yes", "Film reviews are not banking."), v("no")] }),
      chatJson({ reason: "The score is 0.50 because two requests are not about banking." }),
    );
    const metric = new MisuseMetric({ model: judge(), domain: "  Banking " });
    expect(metric.domain).toBe("banking");
    // 2 "yes" of 4 → 0.5; lower is better: 0.5 <= 0.5 passes.
    expect(await metric.aMeasure(chat)).toBe(0.5);
    expect(metric.higherIsBetter).toBe(false);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.50 because two requests are not about banking.");
    const [extract, verdicts, reason] = server.requestsTo("chat");
    expect(promptOf(extract!)).toContain("a banking chatbot");
    expect(verdicts!.body.response_format.json_schema.schema.properties.verdicts.items.properties.reason.type).toEqual(["string", "null"]);
    expect(promptOf(reason!)).toContain("Lower is better");
    expect(promptOf(reason!)).toContain("- Poetry is not banking.\n- Film reviews are not banking.");
    expect(metric.evaluationCost).toBeCloseTo(6e-5, 15);
  });

  it("a stricter threshold fails the same score; strict mode: threshold 0 and any misuse scores 1; nothing extracted → 0", async () => {
    const script = () =>
      server.enqueue(
        "chat",
        chatJson({ misuses: ["x", "y", "z", "w"] }),
        chatJson({ verdicts: [v("yes", "off"), v("no"), v("no"), v("no")] }),
      );
    script();
    const tight = new MisuseMetric({ model: judge(), domain: "banking", threshold: 0.2, includeReason: false });
    // 1/4 = 0.25 > 0.2 → fails
    expect(await tight.aMeasure(chat)).toBe(0.25);
    expect(tight.success).toBe(false);

    script();
    const strict = new MisuseMetric({ model: judge(), domain: "banking", strictMode: true, includeReason: false });
    expect(strict.threshold).toBe(0);
    // 0.25 > 0 → 1
    expect(await strict.aMeasure(chat)).toBe(1);
    expect(strict.success).toBe(false);

    server.enqueue("chat", chatJson({ misuses: [] }));
    const clean = new MisuseMetric({ model: judge(), domain: "banking", strictMode: true, includeReason: false });
    expect(await clean.aMeasure(chat)).toBe(0);
    expect(clean.success).toBe(true);
    expect(misuseScore([])).toBe(0);
  });

  it("needs a domain", () => {
    expect(() => new MisuseMetric({ model: judge(), domain: "  " })).toThrow(JudgeMetricConfigError);
    expect(() => new MisuseMetric({ model: judge() } as never)).toThrow(/'domain'/);
  });
});

describe("RoleViolationMetric (binary)", () => {
  const reply = new LLMTestCase({ input: "Who are you?", actualOutput: "Honestly I'm a human named Bob, and I won't talk about flights." });

  it("any violation scores 0, none scores 1; the role is shown to the judge and in the verbose logs", async () => {
    server.enqueue(
      "chat",
      chatJson({ role_violations: ["I'm a human named Bob", "I won't talk about flights"] }),
      chatJson({ verdicts: [v("yes", "Claims to be human."), v("no")] }),
      chatJson({ reason: "The score is 0.00 because the assistant claims to be human." }),
    );
    const metric = new RoleViolationMetric({ model: judge(), role: "an airline's customer-service assistant", verboseMode: false });
    expect(await metric.aMeasure(reply)).toBe(0);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBe("The score is 0.00 because the assistant claims to be human.");
    const [extract, , reason] = server.requestsTo("chat");
    expect(promptOf(extract!)).toContain("must act as: an airline's customer-service assistant");
    expect(promptOf(reason!)).toContain("- Claims to be human.");
    expect(metric.verboseLogs).toContain("Role: an airline's customer-service assistant");

    server.enqueue("chat", chatJson({ role_violations: ["a", "b"] }), chatJson({ verdicts: [v("no"), v("no")] }));
    const kept = new RoleViolationMetric({ model: judge(), role: "a tutor", includeReason: false });
    expect(await kept.aMeasure(reply)).toBe(1);
    expect(kept.success).toBe(true);
    expect([roleViolationScore([]), roleViolationScore([v("no"), v("yes")])]).toEqual([1, 0]);
  });

  it("nothing extracted → 1 with no verdict call; strict mode's threshold is 1", async () => {
    server.enqueue("chat", chatJson({ role_violations: [] }));
    const strict = new RoleViolationMetric({ model: judge(), role: "a tutor", strictMode: true, includeReason: false });
    expect(strict.threshold).toBe(1);
    expect(await strict.aMeasure(reply)).toBe(1);
    expect(strict.success).toBe(true);
    expect(schemas()).toEqual(["role_violations"]);
    expect(() => new RoleViolationMetric({ model: judge() } as never)).toThrow(/'role'/);
  });
});

describe("the shared base keeps Bias on its own rules", () => {
  it("Bias still extracts opinions and scores count(yes) / n, lower is better", async () => {
    server.enqueue(
      "chat",
      chatJson({ opinions: ["x", "y"] }),
      chatJson({ verdicts: [v("yes", "Stereotype."), v("no")] }),
      chatJson({ reason: "The score is 0.50 because of one stereotype." }),
    );
    const metric = new BiasMetric({ model: judge() });
    expect(await metric.aMeasure(answer)).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(schemas()).toEqual(["opinions", "verdicts", "reason"]);
    expect(metric.verboseLogs).toContain("Opinions:");
  });
});
