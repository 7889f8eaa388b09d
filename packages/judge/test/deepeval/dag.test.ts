// DAGMetric (docs/spec/judges.md §3.2): node types, traversal by indegree, verdict matching, leaf scores with
// a reason call, GEval and metric children, strict mode, graph validation.
import { LLMTestCase, LLMTestCaseParams, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  BinaryJudgementNode,
  DAGMetric,
  DeepAcyclicGraph,
  GEval,
  JudgeMetricConfigError,
  JudgeReplyError,
  NonBinaryJudgementNode,
  TaskNode,
  VerdictNode,
  type DAGInnerNode,
} from "../../src/deepeval/index.js";
import { FakeJudge, reasonReply, reply } from "./support.js";

const { ACTUAL_OUTPUT, INPUT, EXPECTED_OUTPUT } = LLMTestCaseParams;
const testCase = new LLMTestCase({
  input: "Summarise the meeting",
  actualOutput: "## Intro\nWe met.\n## Outcome\nShip it.",
  expectedOutput: "x",
});

/** Task (extract headings) → Binary (has all headings?) → false: 0 / true → NonBinary (tone) → 10 / 6 / 2. */
function formatDag() {
  const tone = new NonBinaryJudgementNode({
    criteria: "What is the tone of the summary?",
    evaluationParams: [ACTUAL_OUTPUT],
    children: [
      new VerdictNode({ verdict: "Professional", score: 10 }),
      new VerdictNode({ verdict: "Casual", score: 6 }),
      new VerdictNode({ verdict: "Rude", score: 2 }),
    ],
  });
  const hasHeadings = new BinaryJudgementNode({
    criteria: "Are 'Intro' and 'Outcome' both among the headings?",
    children: [new VerdictNode({ verdict: false, score: 0 }), new VerdictNode({ verdict: true, child: tone })],
  });
  const headings = new TaskNode({
    instructions: "List the markdown headings.",
    outputLabel: "Headings",
    evaluationParams: [ACTUAL_OUTPUT],
    children: [hasHeadings],
  });
  return new DeepAcyclicGraph([headings]);
}

describe("DAGMetric traversal", () => {
  it("task → binary → non-binary → leaf 6/10, then one reason call walking the traversal", async () => {
    const judge = new FakeJudge([
      reply("task_output", { output: ["Intro", "Outcome"] }),
      reply("binary_verdict", { verdict: true, reason: "Both present." }),
      reply("non_binary_verdict", { verdict: "casual", reason: "Short sentences." }),
      reasonReply("The score is 0.6 because the tone is casual."),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Format", dag: formatDag() });
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(metric.name).toBe("Format [DAG]");
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.6 because the tone is casual.");
    expect(judge.schemas).toEqual(["task_output", "binary_verdict", "non_binary_verdict", "reason"]);
    // The task's output reaches its child under its label; own params follow.
    expect(judge.calls[1]!.prompt).toContain('Headings:\n["Intro","Outcome"]');
    expect(judge.calls[2]!.prompt).toContain('"Professional", "Casual", "Rude"');
    expect(judge.calls[2]!.prompt).toContain("Actual Output:\n## Intro");
    // The reason call sees every visited node.
    const reasonPrompt = judge.calls[3]!.prompt;
    expect(reasonPrompt).toContain("TaskNode (level 0)");
    expect(reasonPrompt).toContain("BinaryJudgementNode (level 1)");
    expect(reasonPrompt).toContain("Verdict: Casual");
    expect(reasonPrompt).toContain("VerdictNode (level 3)");
    expect(metric.verboseLogs).toContain("Reason: Short sentences.");
    expect(metric.evaluationCost).toBeCloseTo(0.004, 12);
  });

  it("the false branch ends at its leaf: 2 judge calls + reason, score 0", async () => {
    const judge = new FakeJudge([
      reply("task_output", { output: "Intro" }),
      reply("binary_verdict", { verdict: "false", reason: "Outcome missing." }),
      reasonReply(),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Format", dag: formatDag() });
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.success).toBe(false);
    expect(judge.schemas).toEqual(["task_output", "binary_verdict", "reason"]);
  });

  it("includeReason false: no reason call", async () => {
    const judge = new FakeJudge([reply("task_output", { output: "Intro" }), reply("binary_verdict", { verdict: false, reason: "x" })]);
    const metric = new DAGMetric({ model: judge, name: "Format", dag: formatDag(), includeReason: false });
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.reason).toBeNull();
  });

  it("strict mode sets threshold 1 but does not binarise the leaf score", async () => {
    const judge = new FakeJudge([
      reply("task_output", { output: "Intro, Outcome" }),
      reply("binary_verdict", { verdict: true, reason: "ok" }),
      reply("non_binary_verdict", { verdict: "Casual", reason: "ok" }),
      reasonReply(),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Format", dag: formatDag(), strictMode: true });
    expect(metric.threshold).toBe(1);
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(metric.success).toBe(false);
  });

  it("a non-binary verdict outside the options is a schema error", async () => {
    const judge = new FakeJudge([
      reply("task_output", { output: "Intro, Outcome" }),
      reply("binary_verdict", { verdict: true, reason: "ok" }),
      reply("non_binary_verdict", { verdict: "Sarcastic", reason: "?" }),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Format", dag: formatDag() });
    await expect(metric.aMeasure(testCase)).rejects.toThrow(JudgeReplyError);
    expect(metric.score).toBeNull();
  });

  it("required fields are the union of the nodes' evaluation params", async () => {
    const metric = new DAGMetric({ model: new FakeJudge(), name: "Format", dag: formatDag() });
    expect(formatDag().evaluationParams).toEqual([ACTUAL_OUTPUT]);
    await expect(metric.aMeasure(new LLMTestCase({ input: "q" }))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
  });

  it("a node waits for all incoming edges; when a verdict never arrives no leaf fires (score null)", async () => {
    // TaskC needs J1=true AND J2=false; TaskD needs J1=false AND J2=true. With J1 = J2 = true neither runs.
    const leafFor = (criteria: string) =>
      new BinaryJudgementNode({
        criteria,
        evaluationParams: [INPUT],
        children: [new VerdictNode({ verdict: true, score: 10 }), new VerdictNode({ verdict: false, score: 0 })],
      });
    const taskC = new TaskNode({ instructions: "c", outputLabel: "C", evaluationParams: [INPUT], children: [leafFor("c?")] });
    const taskD = new TaskNode({ instructions: "d", outputLabel: "D", evaluationParams: [INPUT], children: [leafFor("d?")] });
    const j1 = new BinaryJudgementNode({
      criteria: "j1?",
      children: [new VerdictNode({ verdict: true, child: taskC }), new VerdictNode({ verdict: false, child: taskD })],
    });
    const j2 = new BinaryJudgementNode({
      criteria: "j2?",
      children: [new VerdictNode({ verdict: true, child: taskD }), new VerdictNode({ verdict: false, child: taskC })],
    });
    const taskA = new TaskNode({ instructions: "a", outputLabel: "A", evaluationParams: [INPUT], children: [j1] });
    const taskB = new TaskNode({ instructions: "b", outputLabel: "B", evaluationParams: [INPUT], children: [j2] });
    const dag = new DeepAcyclicGraph([taskA, taskB]);
    expect(dag.indegree.get(taskC)).toBe(2);

    const judge = new FakeJudge([
      reply("task_output", { output: "a" }),
      reply("task_output", { output: "b" }),
      reply("binary_verdict", { verdict: true, reason: "r1" }),
      reply("binary_verdict", { verdict: true, reason: "r2" }),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Gate", dag });
    expect(await metric.aMeasure(testCase)).toBeNull();
    expect(metric.success).toBe(false);
    expect(metric.reason).toBeNull();
    expect(judge.pending).toBe(0);
    expect(judge.calls).toHaveLength(4);

    // J1 = true, J2 = false: TaskC gets both arrivals and runs.
    judge.push(
      reply("task_output", { output: "a" }),
      reply("task_output", { output: "b" }),
      reply("binary_verdict", { verdict: true, reason: "r1" }),
      reply("binary_verdict", { verdict: false, reason: "r2" }),
      reply("task_output", { output: "c" }),
      reply("binary_verdict", { verdict: true, reason: "c ok" }),
    );
    const quiet = new DAGMetric({ model: judge, name: "Gate", dag, includeReason: false });
    expect(await quiet.aMeasure(testCase)).toBe(1);
    // TaskC saw both of its parents' task outputs? No: its parents are verdicts; only TaskNode parents feed text.
    expect(judge.calls[8]!.prompt).toContain("Input:\nSummarise the meeting");
  });

  it("both verdicts of one judgement leading to the same node count as one edge", async () => {
    const after = new TaskNode({
      instructions: "Count words",
      outputLabel: "Words",
      evaluationParams: [ACTUAL_OUTPUT],
      children: [
        new BinaryJudgementNode({
          criteria: "More than 3 words?",
          children: [new VerdictNode({ verdict: true, score: 8 }), new VerdictNode({ verdict: false, score: 3 })],
        }),
      ],
    });
    const root = new BinaryJudgementNode({
      criteria: "Is it English?",
      evaluationParams: [ACTUAL_OUTPUT],
      children: [new VerdictNode({ verdict: true, child: after }), new VerdictNode({ verdict: false, child: after })],
    });
    const dag = new DeepAcyclicGraph([root]);
    expect(dag.indegree.get(after)).toBe(1);
    const judge = new FakeJudge([
      reply("binary_verdict", { verdict: false, reason: "French" }),
      reply("task_output", { output: "7" }),
      reply("binary_verdict", { verdict: true, reason: "7 > 3" }),
    ]);
    expect(await new DAGMetric({ model: judge, name: "W", dag, includeReason: false }).aMeasure(testCase)).toBe(0.8);
    expect(judge.calls[2]!.prompt).toContain("Words:\n7");
  });
});

describe("DAGMetric children", () => {
  it("a GEval child is re-created on the DAG's judge; its score, reason and cost become the DAG's", async () => {
    const otherJudge = new FakeJudge();
    const child = new GEval({
      model: otherJudge,
      name: "Tone",
      criteria: "Is it polite?",
      evaluationParams: [ACTUAL_OUTPUT],
      threshold: 0.9,
    });
    const dag = new DeepAcyclicGraph([
      new BinaryJudgementNode({
        criteria: "Is there an answer?",
        evaluationParams: [ACTUAL_OUTPUT],
        children: [new VerdictNode({ verdict: false, score: 0 }), new VerdictNode({ verdict: true, child })],
      }),
    ]);
    const judge = new FakeJudge([
      reply("binary_verdict", { verdict: true, reason: "yes" }),
      reply("steps", { steps: ["Check politeness."] }),
      reply("reason_score", { reason: "Polite and clear.", score: 7 }),
    ]);
    const metric = new DAGMetric({ model: judge, name: "Answer", dag });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.7, 12);
    expect(metric.reason).toBe("Polite and clear.");
    expect(otherJudge.calls).toHaveLength(0);
    expect(judge.schemas).toEqual(["binary_verdict", "steps", "reason_score"]);
    expect(metric.evaluationCost).toBeCloseTo(0.003, 12);
    expect(metric.inputTokens).toBe(300);
    expect(metric.verboseLogs).toContain("Metric: Tone [GEval]");
  });

  it("any other metric child is copied and measured with its own judge; its cost accrues to the DAG", async () => {
    const childJudge = new FakeJudge(
      [
        reply("statements", { statements: ["a", "b"] }),
        reply("verdicts", { verdicts: [{ verdict: "yes" }, { verdict: "no", reason: "off" }] }),
        reasonReply("child reason"),
      ],
      { usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.01 } },
    );
    const child = new AnswerRelevancyMetric({ model: childJudge });
    const dag = new DeepAcyclicGraph([
      new BinaryJudgementNode({
        criteria: "Answered?",
        evaluationParams: [INPUT, ACTUAL_OUTPUT],
        children: [new VerdictNode({ verdict: true, child }), new VerdictNode({ verdict: false, score: 0 })],
      }),
    ]);
    const judge = new FakeJudge([reply("binary_verdict", { verdict: true, reason: "yes" })]);
    const metric = new DAGMetric({ model: judge, name: "Relevant", dag });
    expect(await metric.aMeasure(testCase)).toBe(0.5);
    expect(metric.reason).toBe("child reason");
    expect(child.score).toBeNull(); // the original instance is untouched
    expect(metric.evaluationCost).toBeCloseTo(0.001 + 0.03, 12);
    expect(metric.inputTokens).toBe(100 + 30);
  });

  it("a failing child fails the DAG with its error", async () => {
    const child = new AnswerRelevancyMetric({ model: new FakeJudge([reply("statements", { statements: "not a list" })]) });
    const dag = new DeepAcyclicGraph([
      new BinaryJudgementNode({
        criteria: "?",
        evaluationParams: [INPUT],
        children: [new VerdictNode({ verdict: true, child }), new VerdictNode({ verdict: false, score: 0 })],
      }),
    ]);
    const metric = new DAGMetric({ model: new FakeJudge([reply("binary_verdict", { verdict: true, reason: "r" })]), name: "D", dag });
    await expect(metric.aMeasure(testCase)).rejects.toThrow(JudgeReplyError);
    expect(metric.score).toBeNull();
  });
});

describe("DAG validation", () => {
  const leaf = (verdict: boolean | string, score = 5) => new VerdictNode({ verdict, score });

  it("node rules", () => {
    expect(() => new BinaryJudgementNode({ criteria: "?", children: [leaf(true), leaf(true)] })).toThrow(/one true and one false/);
    expect(() => new BinaryJudgementNode({ criteria: "?", children: [leaf(true)] })).toThrow(/exactly 2/);
    expect(() => new BinaryJudgementNode({ criteria: "?", children: [leaf("a"), leaf(false)] })).toThrow(/boolean verdicts/);
    expect(() => new NonBinaryJudgementNode({ criteria: "?", children: [leaf("a"), leaf("a")] })).toThrow(/duplicate verdict/);
    expect(() => new NonBinaryJudgementNode({ criteria: "?", children: [] })).toThrow(/at least one child/);
    expect(() => new VerdictNode({ verdict: true })).toThrow(/exactly one of 'score' or 'child'/);
    expect(() => new VerdictNode({ verdict: true, score: 11 })).toThrow(/between 0 and 10/);
    expect(() => new VerdictNode({ verdict: true, score: 2.5 })).toThrow(JudgeMetricConfigError);
    expect(() => new TaskNode({ instructions: "x", outputLabel: "X", children: [leaf(true) as never] })).toThrow(/VerdictNode child/);
  });

  it("graph rules", () => {
    const judgement = () => new BinaryJudgementNode({ criteria: "?", evaluationParams: [INPUT], children: [leaf(true), leaf(false)] });
    const task = (children: DAGInnerNode[] = [judgement()]) =>
      new TaskNode({ instructions: "x", outputLabel: "X", evaluationParams: [INPUT], children });
    expect(() => new DeepAcyclicGraph([judgement(), task()])).toThrow(/more than one root node/);
    expect(() => new DeepAcyclicGraph([])).toThrow(JudgeMetricConfigError);
    const shared = judgement();
    const t1 = task([shared]);
    expect(() => new DeepAcyclicGraph([t1, task([t1])])).toThrow(/reachable from another root/);
    const orphan = new TaskNode({ instructions: "x", outputLabel: "X", children: [judgement()] });
    expect(() => new DeepAcyclicGraph([orphan])).toThrow(/'evaluationParams' or a TaskNode parent/);
    // Two roots without judgements are fine; a task child of a task needs no params.
    const chained = new TaskNode({ instructions: "y", outputLabel: "Y", children: [judgement()] });
    expect(() => new DeepAcyclicGraph([task([chained]), task()])).not.toThrow();
    expect(() => new DAGMetric({ model: new FakeJudge(), name: "D", dag: {} as never })).toThrow(/DeepAcyclicGraph/);
  });

  it("a task parent's output feeds a task child (chained tasks)", async () => {
    const last = new BinaryJudgementNode({ criteria: "ok?", children: [leaf(true, 9), leaf(false, 1)] });
    const second = new TaskNode({ instructions: "Count them", outputLabel: "Count", children: [last] });
    const first = new TaskNode({
      instructions: "List names",
      outputLabel: "Names",
      evaluationParams: [EXPECTED_OUTPUT],
      children: [second],
    });
    const judge = new FakeJudge([
      reply("task_output", { output: ["Ann", "Bo"] }),
      reply("task_output", { output: "2" }),
      reply("binary_verdict", { verdict: true, reason: "fine" }),
    ]);
    expect(
      await new DAGMetric({ model: judge, name: "N", dag: new DeepAcyclicGraph([first]), includeReason: false }).aMeasure(testCase),
    ).toBe(0.9);
    expect(judge.calls[1]!.prompt).toContain('Names:\n["Ann","Bo"]');
    expect(judge.calls[2]!.prompt).toContain("Count:\n2");
    expect(judge.calls[2]!.prompt).not.toContain("Names:");
  });
});
