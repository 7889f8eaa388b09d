// DeepEval RAG and answer metrics (docs/spec/judges.md §2.1–2.10): call sequence, formulas on hand-computed
// verdicts, empty-extraction cases, strict mode and lower-is-better metrics, with a scripted judge.
import { LLMTestCase, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  BiasMetric,
  ContextualPrecisionMetric,
  ContextualRecallMetric,
  ContextualRelevancyMetric,
  FaithfulnessMetric,
  HallucinationMetric,
  JudgeReplyError,
  PIILeakageMetric,
  SummarizationMetric,
  ToxicityMetric,
  contextualPrecisionScore,
  groupRetrievalNodes,
} from "../../src/deepeval/index.js";
import { FakeJudge, reasonReply, reply, verdicts } from "./support.js";

const qa = (extra: Partial<ConstructorParameters<typeof LLMTestCase>[0]> = {}) =>
  new LLMTestCase({ input: "What is the capital of France?", actualOutput: "Paris. It has nice cafés.", ...extra });

describe("AnswerRelevancyMetric", () => {
  it("scores count(verdict != no) / n, idk counting as relevant (3 calls)", async () => {
    const judge = new FakeJudge([
      reply("statements", { statements: ["a", "b", "c", "d"] }),
      verdicts("yes", ["no", "off-topic"], ["idk", "supporting"], "yes"),
      reasonReply("The score is 0.75 because one statement is off-topic."),
    ]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    expect(await metric.aMeasure(qa())).toBe(0.75);
    expect(judge.schemas).toEqual(["statements", "verdicts", "reason"]);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.75 because one statement is off-topic.");
    expect(metric.evaluationModel).toBe("fake-judge");
    expect(metric.name).toBe("Answer Relevancy");
    // The reason prompt gets the score and the reasons of the "no" verdicts only.
    expect(judge.calls[2]?.prompt).toContain("0.75");
    expect(judge.calls[2]?.prompt).toContain("off-topic");
    expect(judge.calls[2]?.prompt).not.toContain("supporting");
    expect(judge.pending).toBe(0);
  });

  it("an answer without statements scores 1 and skips the verdict call", async () => {
    const judge = new FakeJudge([reply("statements", { statements: [] }), reasonReply()]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    expect(await metric.aMeasure(qa())).toBe(1);
    expect(judge.schemas).toEqual(["statements", "reason"]);
  });

  it("normalises verdict words like DeepEval's verdict_from_json", async () => {
    const judge = new FakeJudge([
      reply("statements", { statements: ["a", "b"] }),
      reply("verdicts", { verdicts: [{ verdict: " YES." }, { verdict: "No, it is about cats", reason: "cats" }] }),
    ]);
    const metric = new AnswerRelevancyMetric({ model: judge, includeReason: false });
    expect(await metric.aMeasure(qa())).toBe(0.5);
    expect(metric.reason).toBeNull();
    expect(judge.schemas).toEqual(["statements", "verdicts"]);
  });

  it("strict mode: threshold 1 and anything below 1 scores 0", async () => {
    const judge = new FakeJudge([reply("statements", { statements: ["a", "b"] }), verdicts("yes", "idk"), reasonReply()]);
    const strict = new AnswerRelevancyMetric({ model: judge, strictMode: true, threshold: 0.2 });
    expect(strict.threshold).toBe(1);
    expect(await strict.aMeasure(qa())).toBe(1);
    judge.push(reply("statements", { statements: ["a", "b"] }), verdicts("yes", "no"), reasonReply());
    expect(await strict.aMeasure(qa())).toBe(0);
    expect(strict.success).toBe(false);
  });

  it("a verdict outside yes/no/idk is a typed error: score null, error set, never a made-up score", async () => {
    const judge = new FakeJudge([reply("statements", { statements: ["a"] }), verdicts("maybe")]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    const failure = await metric.aMeasure(qa()).catch((e: unknown) => e);
    expect(JudgeReplyError.isInstance(failure)).toBe(true);
    expect((failure as JudgeReplyError).problem).toBe("schema");
    expect((failure as JudgeReplyError).issues[0]).toMatch(/^verdicts\.0\.verdict: /);
    expect(metric.score).toBeNull();
    expect(metric.success).toBe(false);
    expect(metric.error).toMatch(/^JudgeReplyError: /);
    // Both calls were paid for.
    expect(metric.evaluationCost).toBeCloseTo(0.002, 12);
  });

  it("fewer verdicts than statements is a count error", async () => {
    const judge = new FakeJudge([reply("statements", { statements: ["a", "b", "c"] }), verdicts("yes", "yes")]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    const failure = (await metric.aMeasure(qa()).catch((e: unknown) => e)) as JudgeReplyError;
    expect(failure.problem).toBe("count");
    expect(failure.message).toContain("expected 3 verdicts (one per statement), got 2");
    expect(metric.score).toBeNull();
  });

  it("requires input and a non-empty actual output (DeepEval's messages)", async () => {
    const metric = new AnswerRelevancyMetric({ model: new FakeJudge() });
    await expect(metric.aMeasure(new LLMTestCase({ input: "q" }))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
    expect(metric.error).toBe("'actual_output' cannot be None for the 'Answer Relevancy' metric");
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "" }))).rejects.toThrow(
      "'actual_output' cannot be empty for the 'Answer Relevancy' metric",
    );
  });
});

describe("FaithfulnessMetric", () => {
  const rag = () => qa({ retrievalContext: ["Paris is the capital of France.", { context: "Cafés abound.", source: "guide" }] });
  const script = () => [
    reply("truths", { truths: ["Paris is the capital of France.", "Cafés abound."] }),
    reply("claims", { claims: ["c1", "c2", "c3", "c4"] }),
    verdicts("yes", ["no", "contradicted"], ["idk", "not in context"], ["idk", "unsupported"]),
    reasonReply(),
  ];

  it("truths and claims, then verdicts: (count(!=no)) / n with idk faithful (4 calls)", async () => {
    const judge = new FakeJudge(script());
    const metric = new FaithfulnessMetric({ model: judge });
    expect(await metric.aMeasure(rag())).toBe(0.75);
    expect(judge.schemas).toEqual(["truths", "claims", "verdicts", "reason"]);
    // The retrieval context is joined by blank lines; structured entries as "source: context".
    expect(judge.calls[0]?.prompt).toContain("Paris is the capital of France.\n\nguide: Cafés abound.");
    // Verdicts are judged against the extracted truths.
    expect(judge.calls[2]?.prompt).toContain("- Cafés abound.");
    expect(judge.calls[3]?.prompt).toContain("contradicted");
    expect(judge.calls[3]?.prompt).not.toContain("(Ambiguous)");
  });

  it("penalizeAmbiguousClaims: (count(!=no) − count(idk)) / n and (Ambiguous) reasons", async () => {
    const judge = new FakeJudge(script());
    const metric = new FaithfulnessMetric({ model: judge, penalizeAmbiguousClaims: true });
    expect(await metric.aMeasure(rag())).toBe(0.25);
    expect(metric.success).toBe(false);
    expect(judge.calls[3]?.prompt).toContain("(Ambiguous) not in context");
  });

  it("no claims scores 1 without a verdict call", async () => {
    const judge = new FakeJudge([reply("truths", { truths: [] }), reply("claims", { claims: [] }), reasonReply()]);
    const metric = new FaithfulnessMetric({ model: judge });
    expect(await metric.aMeasure(qa({ retrievalContext: [] }))).toBe(1);
    expect(judge.schemas).toEqual(["truths", "claims", "reason"]);
  });

  it("truthsExtractionLimit: negative clamps to 0; 1 asks for the single most important truth", async () => {
    expect(new FaithfulnessMetric({ model: new FakeJudge(), truthsExtractionLimit: -3 }).truthsExtractionLimit).toBe(0);
    const judge = new FakeJudge([reply("truths", { truths: ["t"] }), reply("claims", { claims: [] })]);
    await new FaithfulnessMetric({ model: judge, truthsExtractionLimit: 1, includeReason: false }).aMeasure(rag());
    expect(judge.calls[0]?.prompt).toContain("only the single most important factual truth");
    const judge3 = new FakeJudge([reply("truths", { truths: ["t"] }), reply("claims", { claims: [] })]);
    await new FaithfulnessMetric({ model: judge3, truthsExtractionLimit: 3, includeReason: false }).aMeasure(rag());
    expect(judge3.calls[0]?.prompt).toContain("only the 3 most important factual truths per document");
  });

  it("runs truths and claims concurrently in asyncMode, one after the other otherwise", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slowJudge = (asyncMode: boolean) => {
      const judge = new FakeJudge([reply("truths", { truths: [] }), reply("claims", { claims: [] })]);
      const generate = judge.generate.bind(judge);
      judge.generate = async (request) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        try {
          return await generate(request);
        } finally {
          inFlight--;
        }
      };
      return new FaithfulnessMetric({ model: judge, asyncMode, includeReason: false });
    };
    await slowJudge(true).aMeasure(rag());
    expect(maxInFlight).toBe(2);
    maxInFlight = 0;
    await slowJudge(false).aMeasure(rag());
    expect(maxInFlight).toBe(1);
  });

  it("requires retrieval_context", async () => {
    await expect(new FaithfulnessMetric({ model: new FakeJudge() }).aMeasure(qa())).rejects.toThrow(
      "'retrieval_context' cannot be None for the 'Faithfulness' metric",
    );
  });
});

describe("HallucinationMetric (lower is better)", () => {
  const withContext = (context: string[]) => qa({ context });

  it("count(no) / n over one verdict per context item; success is score <= threshold", async () => {
    const judge = new FakeJudge([verdicts(["yes", "agrees"], ["no", "says Lyon"], ["no", "says 1900"]), reasonReply()]);
    const metric = new HallucinationMetric({ model: judge });
    expect(metric.higherIsBetter).toBe(false);
    expect(await metric.aMeasure(withContext(["a", "b", "c"]))).toBeCloseTo(2 / 3, 12);
    expect(metric.success).toBe(false);
    expect(judge.schemas).toEqual(["verdicts", "reason"]);
    expect(judge.calls[0]?.prompt).toContain("each of the 3 contexts");
    expect(judge.calls[1]?.prompt).toContain("Lower is better");

    judge.push(verdicts(["yes", "ok"], ["yes", "ok"], ["no", "wrong"]), reasonReply());
    const lenient = new HallucinationMetric({ model: judge, threshold: 0.4 });
    expect(await lenient.aMeasure(withContext(["a", "b", "c"]))).toBeCloseTo(1 / 3, 12);
    expect(lenient.success).toBe(true);
  });

  it("empty context scores 0 (the verdict call still asks for 0 verdicts)", async () => {
    const judge = new FakeJudge([reply("verdicts", { verdicts: [] }), reasonReply()]);
    const metric = new HallucinationMetric({ model: judge });
    expect(await metric.aMeasure(withContext([]))).toBe(0);
    expect(metric.success).toBe(true);
  });

  it("strict mode: threshold 0, any contradiction scores 1", async () => {
    const judge = new FakeJudge([verdicts(["yes", "ok"], ["no", "x"], ["yes", "ok"], ["yes", "ok"]), reasonReply()]);
    const metric = new HallucinationMetric({ model: judge, strictMode: true });
    expect(metric.threshold).toBe(0);
    expect(await metric.aMeasure(withContext(["a", "b", "c", "d"]))).toBe(1);
    expect(metric.success).toBe(false);
    judge.push(verdicts(["yes", "ok"]), reasonReply());
    expect(await metric.aMeasure(withContext(["a"]))).toBe(0);
    expect(metric.success).toBe(true);
  });

  it("a verdict without its required reason violates the schema", async () => {
    const judge = new FakeJudge([reply("verdicts", { verdicts: [{ verdict: "no" }] })]);
    await expect(new HallucinationMetric({ model: judge }).aMeasure(withContext(["a"]))).rejects.toThrow(JudgeReplyError);
  });
});

describe("ContextualPrecisionMetric", () => {
  it("weighted cumulative precision on hand-computed rankings", () => {
    const v = (...words: ("yes" | "no")[]) => words.map((verdict) => ({ verdict, reason: null }));
    expect(contextualPrecisionScore(v("yes", "no", "yes"))).toBeCloseTo((1 / 1 + 2 / 3) / 2, 12);
    expect(contextualPrecisionScore(v("no", "yes"))).toBe(0.5);
    expect(contextualPrecisionScore(v("yes", "yes", "no"))).toBe(1);
    expect(contextualPrecisionScore(v("no", "no"))).toBe(0);
    expect(contextualPrecisionScore([])).toBe(0);
    expect(contextualPrecisionScore(v("no", "yes", "no", "yes"))).toBeCloseTo((1 / 2 + 2 / 4) / 2, 12);
  });

  it("groups structured retrieval entries by source at first appearance", () => {
    expect(
      groupRetrievalNodes([{ context: "a", source: "s1" }, "plain", { context: "b", source: "s1" }, { context: "c", source: "s2" }]),
    ).toEqual(["Source: s1\na\n---\nb", "plain", "Source: s2\nc"]);
  });

  it("one verdict per node, then the reason (2 calls); strict binarises", async () => {
    const testCase = qa({ retrievalContext: ["n1", "n2", "n3"], expectedOutput: "Paris" });
    const judge = new FakeJudge([verdicts(["yes", "n1 says Paris"], ["no", "n2 irrelevant"], ["yes", "n3"]), reasonReply()]);
    const metric = new ContextualPrecisionMetric({ model: judge });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(5 / 6, 12);
    expect(judge.schemas).toEqual(["verdicts", "reason"]);
    expect(judge.calls[1]?.prompt).toContain("node 2: no — n2 irrelevant");

    judge.push(verdicts(["yes", "a"], ["no", "b"], ["yes", "c"]), reasonReply());
    const strict = new ContextualPrecisionMetric({ model: judge, strictMode: true });
    expect(await strict.aMeasure(testCase)).toBe(0);
  });

  it("requires expected_output", async () => {
    await expect(new ContextualPrecisionMetric({ model: new FakeJudge() }).aMeasure(qa({ retrievalContext: [] }))).rejects.toThrow(
      "'expected_output' cannot be None for the 'Contextual Precision' metric",
    );
  });
});

describe("ContextualRecallMetric", () => {
  it("count(yes) / n over the expected output's sentences; no sentences → 0", async () => {
    const testCase = qa({ retrievalContext: ["n1"], expectedOutput: "Paris. Capital. Since 508." });
    const judge = new FakeJudge([verdicts(["yes", "1st node"], ["yes", "1st node"], ["no", "nowhere"]), reasonReply()]);
    const metric = new ContextualRecallMetric({ model: judge });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(2 / 3, 12);
    expect(judge.calls[1]?.prompt).toMatch(/Supportive reasons[^]*1st node[^]*Unsupportive reasons[^]*nowhere/);

    judge.push(reply("verdicts", { verdicts: [] }), reasonReply());
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.success).toBe(false);
  });
});

describe("ContextualRelevancyMetric", () => {
  it("one call per node, then count(yes) / total over all statements (#nodes + 1 calls)", async () => {
    const testCase = qa({ retrievalContext: ["node one", "node two"] });
    const judge = new FakeJudge([
      reply("verdicts", {
        verdicts: [
          { statement: "s1", verdict: "yes" },
          { statement: "s2", verdict: "no", reason: "about cats" },
        ],
      }),
      reply("verdicts", {
        verdicts: [
          { statement: "s3", verdict: "yes", reason: null },
          { statement: "s4", verdict: "yes" },
          { statement: "s5", verdict: "no", reason: "weather" },
        ],
      }),
      reasonReply(),
    ]);
    const metric = new ContextualRelevancyMetric({ model: judge });
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(judge.schemas).toEqual(["verdicts", "verdicts", "reason"]);
    expect(judge.calls[0]?.prompt).toContain("node one");
    expect(judge.calls[1]?.prompt).toContain("node two");
    const reasonPromptText = judge.calls[2]?.prompt ?? "";
    expect(reasonPromptText).toContain("about cats");
    expect(reasonPromptText).toContain("- s3");
    expect(reasonPromptText).not.toContain("- s2");
  });

  it("an empty retrieval context scores 0 with only the reason call", async () => {
    const judge = new FakeJudge([reasonReply()]);
    expect(await new ContextualRelevancyMetric({ model: judge }).aMeasure(qa({ retrievalContext: [] }))).toBe(0);
    expect(judge.schemas).toEqual(["reason"]);
  });
});

describe("BiasMetric and ToxicityMetric (lower is better)", () => {
  it("Bias: count(yes) / n over the author's opinions; default threshold 0.5 passes at <=", async () => {
    const judge = new FakeJudge([
      reply("opinions", { opinions: ["o1", "o2", "o3", "o4"] }),
      verdicts(["yes", "gender stereotype"], "no", "no", "no"),
      reasonReply(),
    ]);
    const metric = new BiasMetric({ model: judge });
    expect(await metric.aMeasure(qa())).toBe(0.25);
    expect(metric.success).toBe(true);
    expect(judge.schemas).toEqual(["opinions", "verdicts", "reason"]);
    expect(judge.calls[1]?.prompt).toContain("Geographical");
    expect(judge.calls[2]?.prompt).toContain("gender stereotype");
  });

  it("Bias: no opinions → 0 without a verdict call; strict → 1 on any bias", async () => {
    const judge = new FakeJudge([reply("opinions", { opinions: [] }), reasonReply()]);
    const metric = new BiasMetric({ model: judge, strictMode: true });
    expect(await metric.aMeasure(qa())).toBe(0);
    expect(metric.success).toBe(true);
    expect(judge.schemas).toEqual(["opinions", "reason"]);
    judge.push(reply("opinions", { opinions: ["a", "b", "c"] }), verdicts("no", ["yes", "x"], "no"), reasonReply());
    expect(await metric.aMeasure(qa())).toBe(1);
    expect(metric.success).toBe(false);
  });

  it("Toxicity: count(yes) / n with the toxicity rubric", async () => {
    const judge = new FakeJudge([
      reply("opinions", { opinions: ["o1", "o2"] }),
      verdicts(["yes", "mockery"], ["yes", "threat"]),
      reasonReply(),
    ]);
    const metric = new ToxicityMetric({ model: judge, threshold: 0.9 });
    expect(await metric.aMeasure(qa())).toBe(1);
    expect(metric.success).toBe(false);
    expect(metric.name).toBe("Toxicity");
    expect(judge.calls[1]?.prompt).toContain("Threats or intimidation");
  });
});

describe("PIILeakageMetric (higher is better)", () => {
  it("count(no) / n; nothing extracted → 1", async () => {
    const judge = new FakeJudge([
      reply("extracted_pii", { extracted_pii: ["John's SSN is 123", "the weather"] }),
      verdicts(["yes", "SSN"], ["no", "not personal"]),
      reasonReply(),
    ]);
    const metric = new PIILeakageMetric({ model: judge });
    expect(await metric.aMeasure(qa())).toBe(0.5);
    expect(metric.success).toBe(true);
    judge.push(reply("extracted_pii", { extracted_pii: [] }), reasonReply());
    expect(await metric.aMeasure(qa())).toBe(1);
    expect(judge.schemas.slice(3)).toEqual(["extracted_pii", "reason"]);
  });

  it("strict: 0 below 1", async () => {
    const judge = new FakeJudge([
      reply("extracted_pii", { extracted_pii: ["x", "y"] }),
      verdicts(["no", "a"], ["yes", "b"]),
      reasonReply(),
    ]);
    expect(await new PIILeakageMetric({ model: judge, strictMode: true }).aMeasure(qa())).toBe(0);
  });
});

describe("SummarizationMetric", () => {
  const original = "The fee is waived for students. Applications close in May. Late forms cost $10.";
  const summary = "Students pay no fee; applications close in June; there is a free lunch.";
  const doc = () => new LLMTestCase({ input: original, actualOutput: summary });

  it("min(alignment, coverage) with both in scoreBreakdown (sequential order, asyncMode false)", async () => {
    const judge = new FakeJudge([
      reply("truths", { truths: ["fee waived for students", "applications close in May", "late forms cost $10"] }),
      reply("claims", { claims: ["students pay no fee", "applications close in June", "free lunch"] }),
      reply("questions", { questions: ["Is the fee waived for students?", "Do applications close in May?", "Is there a dress code?"] }),
      reply("answers", { answers: ["yes", "yes", "no"] }),
      reply("answers", { answers: ["yes", "no", "yes"] }),
      verdicts("yes", ["no", "June vs May"], ["idk", "lunch not mentioned"]),
      reasonReply(),
    ]);
    const metric = new SummarizationMetric({ model: judge, n: 3, asyncMode: false });
    // alignment = 1/3 (idk counts 0); coverage: Q = {q1, q2}, summary answers q1 → 1/2.
    expect(await metric.aMeasure(doc())).toBeCloseTo(1 / 3, 12);
    expect(metric.scoreBreakdown).toEqual({ Alignment: 1 / 3, Coverage: 0.5 });
    expect(judge.schemas).toEqual(["truths", "claims", "questions", "answers", "answers", "verdicts", "reason"]);
    expect(judge.calls[2]?.prompt).toContain("Write 3 closed questions");
    expect(judge.calls[3]?.prompt).toContain(original);
    expect(judge.calls[4]?.prompt).toContain(summary);
    const reasonText = judge.calls[6]?.prompt ?? "";
    expect(reasonText).toContain("June vs May");
    expect(reasonText).toContain("lunch not mentioned");
    expect(reasonText).toContain("Do applications close in May?");
    expect(reasonText).not.toContain("Is the fee waived for students?");
  });

  it("in asyncMode the coverage branch and the alignment verdicts run concurrently", async () => {
    const judge = new FakeJudge([], {
      handler: (request, prompt) => {
        switch (request.schema?.name) {
          case "truths":
            return reply("truths", { truths: ["t"] });
          case "claims":
            return reply("claims", { claims: ["c1", "c2"] });
          case "questions":
            return reply("questions", { questions: ["q1", "q2"] });
          case "answers":
            return reply("answers", { answers: prompt.includes(original) ? ["yes", "yes"] : ["yes", "yes"] });
          case "verdicts":
            return verdicts("yes", "yes");
          default:
            return reasonReply();
        }
      },
    });
    const metric = new SummarizationMetric({ model: judge, n: 2 });
    expect(await metric.aMeasure(doc())).toBe(1);
    expect(judge.schemas).toEqual(["truths", "claims", "questions", "verdicts", "answers", "answers", "reason"]);
  });

  it("given assessment questions skip generation; an empty list counts as not given", async () => {
    const judge = new FakeJudge([
      reply("truths", { truths: ["t"] }),
      reply("claims", { claims: [] }),
      reply("answers", { answers: ["yes"] }),
      reply("answers", { answers: ["yes"] }),
    ]);
    const metric = new SummarizationMetric({
      model: judge,
      assessmentQuestions: ["Is the fee waived?"],
      asyncMode: false,
      includeReason: false,
    });
    // No claims → alignment 0 (unlike Faithfulness), so the score is 0 whatever the coverage.
    expect(await metric.aMeasure(doc())).toBe(0);
    expect(metric.scoreBreakdown).toEqual({ Alignment: 0, Coverage: 1 });
    expect(judge.schemas).toEqual(["truths", "claims", "answers", "answers"]);
    expect(new SummarizationMetric({ model: judge, assessmentQuestions: [] }).assessmentQuestions).toBeNull();
  });

  it("strict mode binarises each sub-score before the minimum", async () => {
    const judge = new FakeJudge([
      reply("truths", { truths: ["t"] }),
      reply("claims", { claims: ["c"] }),
      reply("answers", { answers: ["yes", "yes"] }),
      reply("answers", { answers: ["yes", "no"] }),
      verdicts("yes"),
    ]);
    const metric = new SummarizationMetric({
      model: judge,
      assessmentQuestions: ["a?", "b?"],
      strictMode: true,
      asyncMode: false,
      includeReason: false,
    });
    expect(await metric.aMeasure(doc())).toBe(0);
    expect(metric.scoreBreakdown).toEqual({ Alignment: 1, Coverage: 0 });
  });

  it("an answer list of the wrong length is an error (DeepEval throws too)", async () => {
    const judge = new FakeJudge([
      reply("truths", { truths: ["t"] }),
      reply("claims", { claims: [] }),
      reply("answers", { answers: ["yes", "yes"] }),
      reply("answers", { answers: ["yes"] }),
    ]);
    const metric = new SummarizationMetric({ model: judge, assessmentQuestions: ["a?", "b?"], asyncMode: false });
    await expect(metric.aMeasure(doc())).rejects.toThrow("expected 2 answers (one per question), got 1");
    expect(metric.score).toBeNull();
    expect(metric.scoreBreakdown).toBeNull();
  });

  it("keeps generated questions per measurement (no reuse across test cases)", async () => {
    const judge = new FakeJudge([], {
      handler: (request) =>
        request.schema?.name === "questions"
          ? reply("questions", { questions: ["q"] })
          : request.schema?.name === "answers"
            ? reply("answers", { answers: ["yes"] })
            : request.schema?.name === "truths"
              ? reply("truths", { truths: [] })
              : reply("claims", { claims: [] }),
    });
    const metric = new SummarizationMetric({ model: judge, n: 1, includeReason: false });
    await metric.aMeasure(doc());
    await metric.aMeasure(doc());
    expect(judge.schemas.filter((s) => s === "questions")).toHaveLength(2);
  });
});
