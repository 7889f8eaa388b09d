// ConversationalDAGMetric (docs/spec/judges.md §5.5) against the scripted loopback server: the shared DAG
// walk over conversational nodes, turn windows, leaf scores, strict mode, required fields and failures.
import { ConversationalTestCase, LLMTestCaseParams, MissingTestCaseParamsError, MultiTurnParams } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BinaryJudgementNode,
  ConversationalBinaryJudgementNode,
  ConversationalDAGMetric,
  ConversationalNonBinaryJudgementNode,
  ConversationalTaskNode,
  ConversationalVerdictNode,
  DAGMetric,
  DeepAcyclicGraph,
  JudgeMetricConfigError,
  JudgeOutputError,
  VerdictNode,
} from "../../src/index.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";
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

const conversation = (extra: { expectedOutcome?: string } = {}) =>
  new ConversationalTestCase({
    ...extra,
    turns: [
      { role: "user", content: "Book a table for two on Friday." },
      { role: "assistant", content: "Booked: Friday 8pm, two people." },
      { role: "user", content: "Can you add a high chair?" },
      { role: "assistant", content: "Our chef loves penguins." },
    ],
  });

const leaves = (onTrue: number, onFalse: number) => [
  new ConversationalVerdictNode({ verdict: true, score: onTrue }),
  new ConversationalVerdictNode({ verdict: false, score: onFalse }),
];

describe("ConversationalDAGMetric", () => {
  it("a task over a turn window feeds a judgement; the fired leaf's score / 10 is the score; the reason walks the steps", async () => {
    server.enqueue(
      "chat",
      chatJson({ output: ["Friday 8pm", "two people"] }),
      chatJson({ verdict: "complete", reason: "Both details are confirmed." }),
      chatJson({ reason: "The score is 0.8 because the booking is confirmed." }),
    );
    const dag = new DeepAcyclicGraph([
      new ConversationalTaskNode({
        instructions: "List the booking details the assistant confirmed.",
        outputLabel: "Confirmed details",
        evaluationParams: [MultiTurnParams.ROLE, MultiTurnParams.CONTENT],
        turnWindow: [0, 1],
        children: [
          new ConversationalNonBinaryJudgementNode({
            criteria: "Are the confirmed details complete?",
            children: [
              new ConversationalVerdictNode({ verdict: "complete", score: 8 }),
              new ConversationalVerdictNode({ verdict: "partial", score: 3 }),
            ],
          }),
        ],
      }),
    ]);
    const metric = new ConversationalDAGMetric({
      model: testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 2 } }),
      name: "Booking",
      dag,
    });
    expect(metric.name).toBe("Booking [ConversationalDAG]");
    expect(await metric.aMeasure(conversation())).toBeCloseTo(0.8, 12);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.8 because the booking is confirmed.");
    const [task, judgement, reason] = server.requestsTo("chat");
    expect([task, judgement, reason].map((r) => schemaOf(r!))).toEqual(["task_output", "non_binary_verdict", "reason"]);
    // The window shows turns 0..1 only, each as its role and content.
    expect(promptOf(task!)).toContain(
      "Full Conversation:\nRole:\nuser\n\nContent:\nBook a table for two on Friday.\n\nRole:\nassistant\n\n",
    );
    expect(promptOf(task!)).not.toContain("penguins");
    expect(promptOf(judgement!)).toContain('Confirmed details:\n["Friday 8pm","two people"]');
    expect(promptOf(reason!)).toContain("ConversationalNonBinaryJudgementNode (level 1)");
    expect(metric.evaluationCost).toBeCloseTo(3 * 20e-6, 15);
    expect(server.pending()).toBe(0);
  });

  it("strict mode moves the threshold to 1 without binarising the leaf score", async () => {
    server.enqueue("chat", chatJson({ verdict: false, reason: "The high chair request is ignored." }));
    const dag = new DeepAcyclicGraph([
      new ConversationalBinaryJudgementNode({
        criteria: "Does the assistant answer every request?",
        evaluationParams: [MultiTurnParams.CONTENT],
        children: leaves(10, 4),
      }),
    ]);
    const metric = new ConversationalDAGMetric({ model: testJudge(server), name: "Answers", dag, strictMode: true, includeReason: false });
    expect(await metric.aMeasure(conversation())).toBeCloseTo(0.4, 12);
    expect(metric.threshold).toBe(1);
    expect(metric.success).toBe(false);
    expect(promptOf(server.requestsTo("chat")[0]!)).toContain("Our chef loves penguins.");
  });

  it("conversation-level params are required fields and shown once", async () => {
    const dag = new DeepAcyclicGraph([
      new ConversationalBinaryJudgementNode({
        criteria: "Is the expected outcome reached?",
        evaluationParams: [MultiTurnParams.CONTENT, MultiTurnParams.EXPECTED_OUTCOME],
        children: leaves(10, 0),
      }),
    ]);
    const metric = new ConversationalDAGMetric({ model: testJudge(server), name: "Outcome", dag });
    const failure = await metric.aMeasure(conversation()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MissingTestCaseParamsError);
    expect((failure as MissingTestCaseParamsError).params).toEqual(["expected_outcome"]);
    expect(server.requests).toHaveLength(0);

    server.enqueue("chat", chatJson({ verdict: true, reason: "Booked." }), chatJson({ reason: "r" }));
    expect(await metric.aMeasure(conversation({ expectedOutcome: "A table is booked." }))).toBe(1);
    expect(promptOf(server.requestsTo("chat")[0]!)).toContain("Expected Outcome:\nA table is booked.\n\nFull Conversation:\n");
  });

  it("refuses mixed or single-turn graphs, bad turn windows and malformed verdicts with typed errors", async () => {
    const single = new VerdictNode({ verdict: true, score: 1 });
    expect(
      () =>
        new DeepAcyclicGraph([
          new ConversationalBinaryJudgementNode({
            criteria: "c",
            evaluationParams: ["content"],
            children: [single, new VerdictNode({ verdict: false, score: 0 })],
          }),
        ]),
    ).toThrow(/cannot mix conversational and single-turn nodes/);
    const singleDag = new DeepAcyclicGraph([
      new BinaryJudgementNode({
        criteria: "c",
        evaluationParams: [LLMTestCaseParams.INPUT],
        children: [single, new VerdictNode({ verdict: false, score: 0 })],
      }),
    ]);
    expect(() => new ConversationalDAGMetric({ model: testJudge(server), name: "x", dag: singleDag })).toThrow(JudgeMetricConfigError);
    const convoDag = new DeepAcyclicGraph([
      new ConversationalBinaryJudgementNode({ criteria: "c", evaluationParams: ["content"], children: leaves(1, 0) }),
    ]);
    expect(() => new DAGMetric({ model: testJudge(server), name: "x", dag: convoDag })).toThrow(/ConversationalDAGMetric/);
    expect(
      () => new ConversationalTaskNode({ instructions: "i", outputLabel: "o", evaluationParams: ["input" as "content"], children: [] }),
    ).toThrow(/MultiTurnParams/);
    expect(
      () =>
        new ConversationalVerdictNode({
          verdict: true,
          child: new DAGMetric({ model: testJudge(server), name: "x", dag: singleDag }) as never,
        }),
    ).toThrow(/conversational metric/);

    // DeepEval's window rule: 0 <= start < end < turns; checked against the conversation before any call.
    const windowed = new DeepAcyclicGraph([
      new ConversationalBinaryJudgementNode({ criteria: "c", evaluationParams: ["content"], turnWindow: [2, 4], children: leaves(1, 0) }),
    ]);
    await expect(
      new ConversationalDAGMetric({ model: testJudge(server), name: "w", dag: windowed }).aMeasure(conversation()),
    ).rejects.toThrow(/turnWindow \[2, 4\] does not fit a conversation of 4 turns/);
    expect(server.requests).toHaveLength(0);

    server.handle("chat", () => chatJson({ verdict: "perhaps", reason: "?" }));
    const metric = new ConversationalDAGMetric({ model: testJudge(server, { maxReasks: 1 }), name: "m", dag: convoDag });
    await expect(metric.aMeasure(conversation())).rejects.toBeInstanceOf(JudgeOutputError);
    expect(server.requestsTo("chat")).toHaveLength(2);
    expect(metric.score).toBeNull();
  });
});
