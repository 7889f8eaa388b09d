// Judge metrics built with no options at all (DeepEval's `AnswerRelevancyMetric()`, the point of
// `configure({ judge })`): they take the configured judge, score with it against the scripted loopback
// server, and the metrics that need an option name it with a typed error instead of a TypeError.
import { LLMTestCase } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  ArenaGEval,
  ArgumentCorrectnessMetric,
  BiasMetric,
  CompleteAndGrounded,
  ContextualPrecisionMetric,
  ContextualRecallMetric,
  ContextualRelevancyMetric,
  ConversationCompletenessMetric,
  ConversationalGEval,
  DAGMetric,
  FaithfulnessMetric,
  GEval,
  GoalAccuracyMetric,
  HallucinationMetric,
  JudgeConfigError,
  JudgeMetricConfigError,
  KnowledgeRetentionMetric,
  LlmJudgeMetric,
  MisuseMetric,
  NonAdviceMetric,
  PIILeakageMetric,
  PlanAdherenceMetric,
  PlanQualityMetric,
  PromptAlignmentMetric,
  RoleAdherenceMetric,
  RoleViolationMetric,
  SemanticF1,
  StepEfficiencyMetric,
  SummarizationMetric,
  TaskCompletionMetric,
  ToolUseMetric,
  TopicAdherenceMetric,
  ToxicityMetric,
  TurnRelevancyMetric,
  configure,
  resetJudgeDefaults,
} from "../src/index.js";
import { testJudge } from "./support/judge.js";
import { chatJson, startServer, type ScriptedServer } from "./support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  resetJudgeDefaults();
});

type NoArgs = new () => { readonly model: unknown };

const OPTIONAL: ReadonlyArray<readonly [string, NoArgs]> = [
  ["AnswerRelevancyMetric", AnswerRelevancyMetric],
  ["FaithfulnessMetric", FaithfulnessMetric],
  ["HallucinationMetric", HallucinationMetric],
  ["ContextualPrecisionMetric", ContextualPrecisionMetric],
  ["ContextualRecallMetric", ContextualRecallMetric],
  ["ContextualRelevancyMetric", ContextualRelevancyMetric],
  ["BiasMetric", BiasMetric],
  ["ToxicityMetric", ToxicityMetric],
  ["PIILeakageMetric", PIILeakageMetric],
  ["SummarizationMetric", SummarizationMetric],
  ["TaskCompletionMetric", TaskCompletionMetric],
  ["PlanAdherenceMetric", PlanAdherenceMetric],
  ["StepEfficiencyMetric", StepEfficiencyMetric],
  ["KnowledgeRetentionMetric", KnowledgeRetentionMetric],
  ["ConversationCompletenessMetric", ConversationCompletenessMetric],
  ["RoleAdherenceMetric", RoleAdherenceMetric],
  ["TurnRelevancyMetric", TurnRelevancyMetric],
  ["LlmJudgeMetric", LlmJudgeMetric],
  ["SemanticF1", SemanticF1],
  ["CompleteAndGrounded", CompleteAndGrounded],
  ["PlanQualityMetric", PlanQualityMetric],
  ["ArgumentCorrectnessMetric", ArgumentCorrectnessMetric],
  ["GoalAccuracyMetric", GoalAccuracyMetric],
];

/** Metrics with a required option: left out, it is named by a typed error. */
const REQUIRED: ReadonlyArray<readonly [string, unknown, string]> = [
  ["GEval", GEval, "name"],
  ["ConversationalGEval", ConversationalGEval, "name"],
  ["ArenaGEval", ArenaGEval, "name"],
  ["DAGMetric", DAGMetric, "name"],
  ["PromptAlignmentMetric", PromptAlignmentMetric, "promptInstructions"],
  ["NonAdviceMetric", NonAdviceMetric, "adviceTypes"],
  ["MisuseMetric", MisuseMetric, "domain"],
  ["RoleViolationMetric", RoleViolationMetric, "role"],
  ["TopicAdherenceMetric", TopicAdherenceMetric, "relevantTopics"],
  ["ToolUseMetric", ToolUseMetric, "availableTools"],
];

describe("judge metrics built with no options", () => {
  it("every metric whose options are all optional takes the configure({ judge }) default", () => {
    const judge = testJudge(server, { model: "configured" });
    configure({ judge });
    for (const [name, Metric] of OPTIONAL) expect(new Metric().model, name).toBe(judge);
  });

  it("with no judge configured, the error is the typed 'needs a judge', never a TypeError", () => {
    for (const [name, Metric] of OPTIONAL) {
      let error: unknown;
      try {
        new Metric();
      } catch (e) {
        error = e;
      }
      // the DeepEval metrics refuse at construction; the DSPy ones look the judge up when they first run
      if (error === undefined) continue;
      expect(error, name).toBeInstanceOf(JudgeConfigError);
      expect((error as Error).message, name).toMatch(/configure\(\{ judge \}\)/);
    }
  });

  it("a metric that needs an option names it (JudgeMetricConfigError), even with no options object", () => {
    configure({ judge: testJudge(server) });
    for (const [name, Metric, option] of REQUIRED) {
      expect(() => new (Metric as new () => unknown)(), name).toThrow(JudgeMetricConfigError);
      expect(() => new (Metric as new () => unknown)(), name).toThrow(new RegExp(`'${option}'`));
    }
  });

  it("AnswerRelevancyMetric() scores with the configured judge: 1 relevant statement of 2 is 0.5", async () => {
    configure({ judge: testJudge(server, { model: "configured" }) });
    server.enqueue(
      "chat",
      chatJson({ statements: ["Paris is the capital of France.", "I like cats."] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "Cats are not the question." },
        ],
      }),
      chatJson({ reason: "One statement is about cats." }),
    );
    const metric = new AnswerRelevancyMetric();
    const testCase = new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris is the capital of France. I like cats." });
    const score = await metric.aMeasure(testCase);
    expect(score).toBe(0.5);
    expect(metric.success).toBe(true); // default threshold 0.5
    expect(metric.reason).toBe("One statement is about cats.");
    expect(metric.evaluationModel).toBe("configured");
    expect(server.requestsTo("chat").map((r) => r.body.model)).toEqual(["configured", "configured", "configured"]);
    expect(server.pending()).toBe(0);
  });

  it("LlmJudgeMetric() scores with the configured judge", async () => {
    configure({ judge: testJudge(server, { model: "configured" }) });
    server.enqueue("chat", chatJson({ reason: "Handles the flag; no test.", score: 0.75 }));
    const score = await new LlmJudgeMetric().evaluate({ goal: "add a --verbose flag" }, { code: "if (verbose) log()" });
    expect(score.value).toBe(0.75);
    expect(server.requestsTo("chat")[0]!.body.model).toBe("configured");
  });
});
