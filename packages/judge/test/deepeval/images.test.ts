// Images in DeepEval test cases against the scripted loopback server: the image parts the server
// receives (URL and data URL, in the right messages), judges without image support failing before
// any request, and the five image metrics' formulas over scripted judgements.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImageTooLargeError, LLMTestCaseParams, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  GEval,
  ImageCoherenceMetric,
  ImageEditingMetric,
  ImageHelpfulnessMetric,
  ImageReferenceMetric,
  JudgeOutputError,
  LLMTestCase,
  MLLMImage,
  TextToImageMetric,
  UnsupportedCapabilityError,
  knownImageSupport,
} from "../../src/index.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";
import { testJudge } from "../support/judge.js";

let server: ScriptedServer;
const dir = mkdtempSync(join(tmpdir(), "evalkern-judge-images-"));
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => server.reset());

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DATA_URL = "data:image/png;base64,iVBORw0KGgo=";
const schemaOf = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name ?? "";
type Part = { type: string; text?: string; image_url?: { url: string } };
const partsOf = (r: RecordedRequest): Part[] => {
  expect(r.body.messages).toHaveLength(1);
  expect(r.body.messages[0].role).toBe("user");
  return r.body.messages[0].content as Part[];
};
const imageUrls = (r: RecordedRequest): string[] =>
  partsOf(r)
    .filter((p) => p.type === "image_url")
    .map((p) => p.image_url?.url ?? "");
const priced = () => testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 2 } });

/** Answers by the schema name of the request (concurrent calls arrive in any order). */
function routeBySchema(replies: Record<string, unknown[]>): void {
  server.handle("chat", (request) => {
    const queue = replies[schemaOf(request)];
    if (!queue || queue.length === 0) throw new Error(`no scripted reply for ${schemaOf(request)}`);
    return chatJson(queue.shift());
  });
}

describe("image parts sent to the judge", () => {
  it("a remote URL and a local file become image_url parts (URL and data URL) where their slugs were", async () => {
    const path = join(dir, "photo.png");
    writeFileSync(path, PNG);
    const remote = new MLLMImage({ url: "https://example.com/cat.jpg" });
    const local = new MLLMImage({ url: path });
    const testCase = new LLMTestCase({ input: ["Which animal is this?", remote], actualOutput: "A cat.", retrievalContext: [local] });
    server.enqueue("chat", chatJson({ score: 9, reason: "Right." }));
    const metric = new GEval({
      model: testJudge(server),
      name: "Seeing",
      criteria: "Is the answer right about the picture?",
      evaluationSteps: ["Look at the picture.", "Compare."],
      evaluationParams: [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT],
    });
    await metric.aMeasure(testCase);
    const [call] = server.requestsTo("chat");
    expect(imageUrls(call!)).toEqual(["https://example.com/cat.jpg", PNG_DATA_URL]);
    const parts = partsOf(call!);
    const first = parts.findIndex((p) => p.type === "image_url");
    expect(parts[first - 1]?.text).toMatch(/Which animal is this\?$/);
    // No slug reaches the judge.
    expect(JSON.stringify(call!.body)).not.toContain("DEEPEVAL:IMAGE");
    expect(metric.score).toBe(0.9);
  });

  it("a text-only test case still sends a plain string", async () => {
    server.enqueue(
      "chat",
      chatJson({ statements: ["a"] }),
      chatJson({ verdicts: [{ verdict: "yes", reason: null }] }),
      chatJson({ reason: "ok" }),
    );
    await new AnswerRelevancyMetric({ model: testJudge(server) }).aMeasure(new LLMTestCase({ input: "q", actualOutput: "a" }));
    for (const r of server.requestsTo("chat")) expect(typeof r.body.messages[0].content).toBe("string");
  });

  it("a judge without image support fails with UnsupportedCapabilityError before any request", async () => {
    const image = new MLLMImage({ url: "https://example.com/x.png" });
    const testCase = new LLMTestCase({ input: `Describe ${image}`, actualOutput: "A dog." });
    for (const judge of [testJudge(server, { model: "gpt-3.5-turbo" }), testJudge(server, { capabilities: { supportsImages: false } })]) {
      expect(judge.capabilities.supportsImages).toBe(false);
      const relevancy = new AnswerRelevancyMetric({ model: judge });
      const error = await relevancy.aMeasure(testCase).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedCapabilityError);
      expect((error as UnsupportedCapabilityError).capability).toBe("images");
      expect((error as Error).message).toMatch(/the test case holds images but the judge '.*' does not accept image input/);
      await expect(
        new TextToImageMetric({ model: judge }).aMeasure(new LLMTestCase({ input: "a dog", actualOutput: [image] })),
      ).rejects.toThrow(UnsupportedCapabilityError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("a 30 MB local image is refused with a clear error before any request", async () => {
    const path = join(dir, "huge.jpg");
    writeFileSync(path, "");
    truncateSync(path, 30 * 1024 * 1024);
    const metric = new TextToImageMetric({ model: testJudge(server) });
    const error = await metric
      .aMeasure(new LLMTestCase({ input: "a lake", actualOutput: [new MLLMImage({ url: path })] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect((error as Error).message).toBe(
      `image ${path} is 30.0 MiB, over the 20.0 MiB limit for images sent to a judge (MLLMImage maxBytes)`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("knows the common model names", () => {
    expect(knownImageSupport("gpt-4o-mini")).toBe(true);
    expect(knownImageSupport("openai/gpt-4.1")).toBe(true);
    expect(knownImageSupport("claude-3-5-sonnet-latest")).toBe(true);
    expect(knownImageSupport("gpt-3.5-turbo")).toBe(false);
    expect(knownImageSupport("o3-mini")).toBe(false);
    expect(knownImageSupport("my-local-model")).toBeUndefined();
    expect(testJudge(server).capabilities.supportsImages).toBeUndefined();
  });
});

describe("TextToImageMetric", () => {
  const output = new MLLMImage({ dataBase64: "iVBORw0KGgo=", mimeType: "image/png" });
  const testCase = new LLMTestCase({ input: "A red bicycle by a lake", actualOutput: [output] });

  it("scores sqrt(min(SC) * min(PQ)) / 10, both calls sent the image", async () => {
    routeBySchema({
      semantic_consistency: [{ score: [8], reasoning: "Bicycle is red; lake present." }],
      perceptual_quality: [{ score: [9, 6], reasoning: "Some blur on the wheels." }],
    });
    const metric = new TextToImageMetric({ model: priced() });
    // sqrt(8 * 6) / 10
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.6928203230275509, 15);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe(
      "The score is 0.69: the lowest semantic-consistency score was 8.0 and the lowest perceptual-quality score was 6.0 (out of 10).\n" +
        "Semantic consistency: Bicycle is red; lake present.\nPerceptual quality: Some blur on the wheels.",
    );
    const calls = server.requestsTo("chat");
    expect(calls.map(schemaOf).sort()).toEqual(["perceptual_quality", "semantic_consistency"]);
    for (const call of calls) expect(imageUrls(call)).toEqual([PNG_DATA_URL]);
    const sc = calls.find((c) => schemaOf(c) === "semantic_consistency")!;
    expect(partsOf(sc)[0]?.text).toContain("A red bicycle by a lake");
    // two calls of 10 prompt + 5 completion tokens at $1 / $2 per million
    expect(metric.evaluationCost).toBeCloseTo((2 * (10 + 10)) / 1e6, 15);
    expect(metric.inputTokens).toBe(20);
  });

  it("strict mode scores below 1 as 0; threshold decides success", async () => {
    routeBySchema({ semantic_consistency: [{ score: [10], reasoning: "r" }], perceptual_quality: [{ score: [10, 9], reasoning: "r" }] });
    const strict = new TextToImageMetric({ model: testJudge(server), strictMode: true });
    expect(await strict.aMeasure(testCase)).toBe(0);
    expect(strict.threshold).toBe(1);
    expect(strict.success).toBe(false);
    routeBySchema({ semantic_consistency: [{ score: [4], reasoning: "r" }], perceptual_quality: [{ score: [9, 9], reasoning: "r" }] });
    const high = new TextToImageMetric({ model: testJudge(server), threshold: 0.7 });
    expect(await high.aMeasure(testCase)).toBeCloseTo(0.6, 15); // sqrt(4 * 9) / 10
    expect(high.success).toBe(false);
  });

  it("re-asks a malformed judgement, then fails with a typed error", async () => {
    routeBySchema({
      semantic_consistency: [
        { score: [8, 7], reasoning: "two scores" },
        { score: [7], reasoning: "ok" },
      ],
      perceptual_quality: [{ score: [10, 10], reasoning: "fine" }],
    });
    const metric = new TextToImageMetric({ model: testJudge(server), asyncMode: false });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(Math.sqrt(70) / 10, 15);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
    server.reset();
    const bad = { score: [11], reasoning: "out of range" };
    routeBySchema({ semantic_consistency: [bad, bad, bad], perceptual_quality: [{ score: [5, 5], reasoning: "" }] });
    await expect(new TextToImageMetric({ model: testJudge(server), asyncMode: false }).aMeasure(testCase)).rejects.toThrow(
      JudgeOutputError,
    );
  });

  it("needs input and actual output (skippable), and exactly one output image", async () => {
    const metric = new TextToImageMetric({ model: testJudge(server) });
    await expect(metric.aMeasure(new LLMTestCase({ input: "a lake" }))).rejects.toThrow(MissingTestCaseParamsError);
    await expect(metric.aMeasure(new LLMTestCase({ input: "a lake", actualOutput: "no image" }))).rejects.toThrow(
      "Can only evaluate test cases with '1' output images using the 'Text to Image' metric. `0` found.",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("ImageEditingMetric", () => {
  it("sends the original and the edited image to the consistency call, in that order", async () => {
    const original = new MLLMImage({ url: "https://example.com/before.png" });
    const edited = new MLLMImage({ url: "https://example.com/after.png" });
    routeBySchema({
      semantic_consistency: [{ score: [9, 4], reasoning: "Sky purple, but the house was removed." }],
      perceptual_quality: [{ score: [8, 9], reasoning: "Clean." }],
    });
    const metric = new ImageEditingMetric({ model: testJudge(server) });
    // sqrt(min(9, 4) * min(8, 9)) / 10 = sqrt(32) / 10
    expect(await metric.aMeasure(new LLMTestCase({ input: ["Make the sky purple", original], actualOutput: [edited] }))).toBeCloseTo(
      Math.sqrt(32) / 10,
      15,
    );
    const calls = server.requestsTo("chat");
    expect(imageUrls(calls.find((c) => schemaOf(c) === "semantic_consistency")!)).toEqual([original.url, edited.url]);
    expect(imageUrls(calls.find((c) => schemaOf(c) === "perceptual_quality")!)).toEqual([edited.url]);
    await expect(metric.aMeasure(new LLMTestCase({ input: "Make the sky purple", actualOutput: [edited] }))).rejects.toThrow(
      "Can only evaluate test cases with '1' input images using the 'Image Editing' metric. `0` found.",
    );
  });
});

describe("ImageCoherenceMetric, ImageHelpfulnessMetric, ImageReferenceMetric", () => {
  const a = new MLLMImage({ url: "https://example.com/a.png" });
  const b = new MLLMImage({ url: "https://example.com/b.png" });
  const testCase = new LLMTestCase({
    input: "Explain photosynthesis",
    actualOutput: ["Leaves take in light.", a, "Chlorophyll absorbs it.", b, "Then sugar is made."],
  });

  for (const Metric of [ImageCoherenceMetric, ImageHelpfulnessMetric, ImageReferenceMetric]) {
    it(`${Metric.name}: the mean of score/10 over the images, each judged with its neighbouring text`, async () => {
      server.enqueue("chat", chatJson({ score: 8, reasoning: "Fits." }), chatJson({ score: 3, reasoning: "Unrelated." }));
      const metric = new Metric({ model: testJudge(server), asyncMode: false, maxContextSize: 10 });
      expect(await metric.aMeasure(testCase)).toBeCloseTo((0.8 + 0.3) / 2, 15);
      expect(metric.success).toBe(true);
      expect(metric.reason).toBe("Image 1: Fits.\nImage 2: Unrelated.");
      const [first, second] = server.requestsTo("chat");
      expect(imageUrls(first!)).toEqual([a.url]);
      expect(imageUrls(second!)).toEqual([b.url]);
      const text = (r: RecordedRequest) =>
        partsOf(r)
          .map((p) => p.text ?? "")
          .join("");
      // maxContextSize 10: the last 10 characters above, the first 10 below.
      expect(text(first!)).toContain("in light.");
      expect(text(first!)).toContain("Chlorophyl");
      expect(text(first!)).not.toContain("Chlorophyll");
      expect(text(second!)).toContain("sorbs it.");
    });
  }

  it("needs an image in the actual output; strict mode binarises", async () => {
    const metric = new ImageCoherenceMetric({ model: testJudge(server) });
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "text only" }))).rejects.toThrow(
      "The test case must have at least one image in the `actual_output` to calculate Image Coherence score",
    );
    await expect(metric.aMeasure(new LLMTestCase({ input: "q" }))).rejects.toThrow(MissingTestCaseParamsError);
    server.enqueue("chat", chatJson({ score: 10, reasoning: "Perfect." }));
    const strict = new ImageReferenceMetric({ model: testJudge(server), strictMode: true });
    expect(await strict.aMeasure(new LLMTestCase({ input: "q", actualOutput: [`Figure 1 shows it:`, a] }))).toBe(1);
    expect(strict.success).toBe(true);
  });
});
