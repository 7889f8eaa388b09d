// `describeSuite` runs an `evalkern test` suite inside vitest (here the repository's example suite: every
// test passes), and the async judge matcher `toPassMetric` measures a DeepEval-style metric: a rule metric
// in process, and DeepEval Faithfulness against a scripted OpenAI-compatible server on loopback.
import { fileURLToPath } from "node:url";
import { OpenAICompatibleJudge, FaithfulnessMetric } from "@evalkern/judge";
import { JsonCorrectnessMetric, LLMTestCase } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeReply } from "../../cli/test/support/faithfulness-judge.js";
import { startServer, type FakeServer } from "../../cli/test/support/openai-server.js";
import "../src/index.js";
import { describeSuite } from "../src/suite.js";

describeSuite(fileURLToPath(new URL("../../../examples/evals.yaml", import.meta.url)));

describe("toPassMetric", () => {
  const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  it("passes when the metric's isSuccessful() is true, and .not inverts it", async () => {
    await expect(new LLMTestCase({ input: "q", actualOutput: '{"name": "Ada"}' })).toPassMetric(
      new JsonCorrectnessMetric({ expectedSchema: schema }),
    );
    await expect(new LLMTestCase({ input: "q", actualOutput: "{}" })).not.toPassMetric(
      new JsonCorrectnessMetric({ expectedSchema: schema }),
    );
  });

  it("fails with the score, the threshold and the reason", async () => {
    const failing = expect(new LLMTestCase({ input: "q", actualOutput: "not json" })).toPassMetric(
      new JsonCorrectnessMetric({ expectedSchema: schema }),
    );
    await expect(failing).rejects.toThrow(/to pass .*: score 0\.0000, threshold 0\.5\n {2}reason: /);
  });

  describe("with a judge metric (async measure through the judge)", () => {
    let server: FakeServer;
    beforeAll(async () => {
      server = await startServer(judgeReply);
    });
    afterAll(() => server.close());

    it("measures DeepEval Faithfulness: 1 of 2 claims supported is 0.5, below a threshold of 0.6", async () => {
      const model = new OpenAICompatibleJudge({ baseURL: server.baseURL, apiKey: "test", model: "test-model" });
      const tc = new LLMTestCase({
        input: "Where is the Eiffel Tower?",
        actualOutput: "The Eiffel Tower is in Paris. It was moved to Berlin in 1999.",
        retrievalContext: ["The Eiffel Tower is a landmark in Paris."],
      });
      await expect(tc).toPassMetric(new FaithfulnessMetric({ model, threshold: 0.5 }));
      const strict = new FaithfulnessMetric({ model, threshold: 0.6 });
      await expect(expect(tc).toPassMetric(strict)).rejects.toThrow(
        /score 0\.5000, threshold 0\.6\n {2}reason: Scored by the test judge\./,
      );
    });
  });
});
