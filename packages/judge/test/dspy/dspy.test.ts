// DSPy SemanticF1 and CompleteAndGrounded against scripted judge replies: formulas on hand-computed
// cases, trace binarisation, request shapes, errors, and cache replay.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Example, Prediction } from "@evalkern/metrics/dsrs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CompleteAndGrounded,
  FileCacheStore,
  JudgeCache,
  JudgeInputError,
  JudgeOutputError,
  SemanticF1,
  judgeF1,
} from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, slow, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), "evalkern-dspy-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const example = Example.from({ question: "What do cats eat?", response: "Cats are carnivores: they eat meat and fish." });
const pred = Prediction.from({ response: "Cats eat meat.", context: ["Cats are obligate carnivores.", "Many cats like fish."] });
const schemaName = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name;

describe("judgeF1 (dspy.evaluate.auto_evaluation.f1_score)", () => {
  it("harmonic mean with clamping and the 0/0 case", () => {
    expect(judgeF1(0.8, 0.5)).toBe((2 * 0.8 * 0.5) / 1.3);
    expect(judgeF1(1, 0.5)).toBeCloseTo(2 / 3, 15);
    expect(judgeF1(1.3, 1)).toBe(1);
    expect(judgeF1(1.3, -0.2)).toBe(0);
    expect(judgeF1(0, 0)).toBe(0);
    expect(judgeF1(0.5, 0.5)).toBe(0.5);
  });
});

describe("SemanticF1", () => {
  it("scores F1 of the judge's precision and recall; continuous without a trace, boolean with one", async () => {
    server.handle("chat", () => chatJson({ reasoning: "covers meat, misses fish", recall: 0.5, precision: 0.8 }));
    const metric = new SemanticF1({ model: testJudge(server) });
    const result = await metric.forward(example, pred);
    const f1 = (2 * 0.8 * 0.5) / 1.3; // 0.6153846153846154
    expect(result).toBeInstanceOf(Prediction);
    expect(result.score).toBe(f1);
    expect(result.f1).toBe(f1);
    expect(result.passed).toBe(false);
    expect(result.precision).toBe(0.8);
    expect(result.recall).toBe(0.5);
    expect(result.feedback).toContain("precision 0.800, recall 0.500");
    expect(result.feedback).toContain("covers meat, misses fish");

    const traced = await metric.forward(example, pred, []);
    expect(traced.score).toBe(false);

    const req = server.requests[0]!;
    expect(schemaName(req)).toBe("semantic_recall_precision");
    expect(Object.keys(req.body.response_format.json_schema.schema.properties)).toEqual(["reasoning", "recall", "precision"]);
    const user = req.body.messages.at(-1).content as string;
    expect(user).toContain("What do cats eat?");
    expect(user).toContain("Cats are carnivores: they eat meat and fish.");
    expect(user).toContain("Cats eat meat.");
  });

  it("binarises at the default threshold 0.66 (2/3 passes) and at a custom one", async () => {
    server.handle("chat", () => chatJson({ reasoning: "r", recall: 0.5, precision: 1 }));
    const model = testJudge(server);
    expect((await new SemanticF1({ model }).forward(example, pred, { steps: 1 })).score).toBe(true);
    expect((await new SemanticF1({ model, threshold: 0.7 }).forward(example, pred, { steps: 1 })).score).toBe(false);
    expect((await new SemanticF1({ model, threshold: 0.7 }).forward(example, pred)).score).toBeCloseTo(2 / 3, 15);
  });

  it("clamps out-of-range judge numbers and gives 0 when both are 0", async () => {
    server.enqueue(
      "chat",
      chatJson({ reasoning: "r", recall: 1.5, precision: -0.1 }),
      chatJson({ reasoning: "r", recall: 0, precision: 0 }),
    );
    const metric = new SemanticF1({ model: testJudge(server) });
    expect((await metric.forward(example, pred)).score).toBe(0);
    expect((await metric.forward(example, pred)).score).toBe(0);
  });

  it("decompositional: key ideas and discussion before the numbers", async () => {
    server.handle("chat", () =>
      chatJson({
        reasoning: "r",
        ground_truth_key_ideas: "1. carnivores 2. meat 3. fish",
        system_response_key_ideas: "1. meat",
        discussion: "meat shared; fish and carnivores missing",
        recall: 1 / 3,
        precision: 1,
      }),
    );
    const result = await new SemanticF1({ model: testJudge(server), decompositional: true }).forward(example, pred);
    expect(result.score).toBeCloseTo(0.5, 15); // 2·1·(1/3) / (4/3)
    expect(result.feedback).toContain("fish and carnivores missing");
    const schema = server.requests[0]!.body.response_format.json_schema;
    expect(schema.name).toBe("decompositional_semantic_recall_precision");
    expect(Object.keys(schema.schema.properties)).toEqual([
      "reasoning",
      "ground_truth_key_ideas",
      "system_response_key_ideas",
      "discussion",
      "recall",
      "precision",
    ]);
  });

  it("accepts plain objects; a missing field is a JudgeInputError; a failing judge rejects, never scores", async () => {
    await expect(new SemanticF1({ model: testJudge(server) }).forward({ question: "q" }, { response: "r" })).rejects.toBeInstanceOf(
      JudgeInputError,
    );
    for (let i = 0; i < 3; i++) server.enqueue("chat", chatJson({ reasoning: "r", recall: "high", precision: 1 }));
    const error = await new SemanticF1({ model: testJudge(server) })
      .forward({ question: "q", response: "a" }, { response: "b" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeOutputError);
    expect(server.requests).toHaveLength(3);
  });

  it("works as a plain DSPy metric function and reports its usage", async () => {
    server.handle("chat", () =>
      chatJson({ reasoning: "r", recall: 1, precision: 1 }, { usage: { prompt_tokens: 200, completion_tokens: 20 } }),
    );
    const judge = testJudge(server, { price: { inputPerMTok: 5, outputPerMTok: 10 } });
    const metric = new SemanticF1({ model: judge }).asMetric();
    const result = await metric(example, pred);
    expect(result.score).toBe(1);
    expect(result.usage.costUsd).toBeCloseTo((200 * 5 + 20 * 10) / 1e6, 15);
    expect(judge.ledger.forMetric("SemanticF1").calls).toBe(1);
  });
});

describe("CompleteAndGrounded", () => {
  it("two sequential calls; F1 of groundedness (precision) and completeness (recall)", async () => {
    server.handle("chat", (req) =>
      slow(
        20,
        schemaName(req) === "answer_completeness"
          ? chatJson({
              reasoning: "r",
              ground_truth_key_ideas: "a b",
              system_response_key_ideas: "a",
              discussion: "misses b",
              completeness: 0.5,
            })
          : chatJson({ reasoning: "r", system_response_claims: "a", discussion: "a is supported", groundedness: 1 }),
      ),
    );
    const metric = new CompleteAndGrounded({ model: testJudge(server) });
    const result = await metric.forward(example, pred);
    expect(result.score).toBeCloseTo(2 / 3, 15);
    expect(result.precision).toBe(1);
    expect(result.recall).toBe(0.5);
    expect(result.feedback).toContain("misses b");
    expect(result.feedback).toContain("a is supported");
    expect((await metric.forward(example, pred, "trace")).score).toBe(true);
    expect(server.requests.map(schemaName)).toEqual([
      "answer_completeness",
      "answer_groundedness",
      "answer_completeness",
      "answer_groundedness",
    ]);
    expect(server.maxInFlight).toBe(1);
    // pred.context (a list of passages) is numbered in the groundedness prompt.
    expect(server.requests[1]!.body.messages.at(-1).content).toContain("[1] Cats are obligate carnivores.\n[2] Many cats like fish.");
  });

  it("needs pred.context", async () => {
    await expect(new CompleteAndGrounded({ model: testJudge(server) }).forward(example, { response: "x" })).rejects.toBeInstanceOf(
      JudgeInputError,
    );
  });
});

describe("cache replay", () => {
  it("a re-run from a read-only cache gives identical scores with zero calls", async () => {
    const path = join(dir, "dspy.jsonl");
    let k = 0;
    server.handle("chat", () => {
      k++;
      return chatJson({ reasoning: `r${k}`, recall: 0.1 * k, precision: 1 - 0.05 * k });
    });
    const examples = ["a", "b", "c"].map(
      (q) => [Example.from({ question: q, response: `gold ${q}` }), Prediction.from({ response: `answer ${q}` })] as const,
    );
    const recorded = new SemanticF1({ model: testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path }) }) }) });
    const first = await Promise.all(examples.map(([e, p]) => recorded.forward(e, p)));
    expect(server.requests).toHaveLength(3);
    server.reset();
    const replayJudge = testJudge(server, { cache: new JudgeCache({ store: new FileCacheStore({ path }), mode: "read-only" }) });
    const replay = new SemanticF1({ model: replayJudge });
    const second = await Promise.all(examples.map(([e, p]) => replay.forward(e, p)));
    expect(server.requests).toHaveLength(0);
    expect(second.map((r) => r.score)).toEqual(first.map((r) => r.score));
    expect(second.map((r) => r.feedback)).toEqual(first.map((r) => r.feedback));
    expect(replayJudge.ledger.total()).toMatchObject({ requests: 0, inputTokens: 0, costUsd: 0 });
  });
});
