// DeepEval's runner: evaluate, assertTest and EvaluationDataset, with a rule metric and a judge metric.
// The judge is "gpt-4o-mini" by name, built from OPENAI_BASE_URL / OPENAI_API_KEY; here those point at
// a tiny OpenAI-compatible server on loopback that plays the judge, so the example runs offline.
import { createServer } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnswerRelevancyMetric } from "@evalkern/judge";
import { JsonCorrectnessMetric } from "@evalkern/metrics/deepeval";
import { EvaluationDataset, MetricAssertionError, assertTest, evaluate } from "@evalkern/harness";

// --- a stand-in judge server: one statement per answer, judged relevant unless it mentions bananas
const server = createServer(async (request, response) => {
  let body = "";
  for await (const chunk of request) body += chunk;
  const { messages, response_format: format } = JSON.parse(body);
  const prompt = messages.map((m) => m.content).join("\n");
  const schema = format?.json_schema?.name ?? "";
  const offTopic = /banana/i.test(prompt);
  const value = schema.startsWith("statements")
    ? { statements: [offTopic ? "I like bananas." : "The answer names a city."] }
    : schema.startsWith("verdict")
      ? { verdicts: [offTopic ? { verdict: "no", reason: "Bananas do not answer the question." } : { verdict: "yes", reason: null }] }
      : {
          reason: offTopic ? "The score is 0.00 because the answer is about bananas." : "The score is 1.00 because the answer is on topic.",
        };
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify({
    id: "x", object: "chat.completion", created: 0, model: "gpt-4o-mini",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(value) } }],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  }));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${server.address().port}/v1`;
process.env.OPENAI_API_KEY = "sk-example";

// --- goldens from a CSV file in DeepEval's column names
const dir = mkdtempSync(join(tmpdir(), "evalkern-deepeval-"));
const csv = join(dir, "goldens.csv");
writeFileSync(
  csv,
  'input,expected_output\n"Capital of France, as JSON?","{""city"": ""Paris""}"\n' +
    '"Capital of Italy, as JSON?","{""city"": ""Rome""}"\n',
);
const dataset = await EvaluationDataset.fromFile(csv);

// --- the application under test
const app = (input) => (input.includes("France") ? '{"city": "Paris"}' : "I like bananas");
for (const golden of dataset.goldens) dataset.addTestCase(golden.toTestCase({ actualOutput: app(golden.input) }));

const citySchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const metrics = [new JsonCorrectnessMetric({ expectedSchema: citySchema }), new AnswerRelevancyMetric({ model: "gpt-4o-mini" })];

const result = await evaluate(dataset.testCases, metrics, {
  concurrency: 4,
  onProgress: ({ completed, total }) => process.stderr.write(`\r${completed}/${total}`),
});
console.log(result.summary);
console.log(result.testResults.map((t) => [t.input, t.success, t.metricsData.map((m) => m.score)]));

// --- assertTest throws an Error listing every failed metric (a vitest/jest test fails with it)
try {
  await assertTest({ input: "Capital of Italy, as JSON?", actual_output: "I like bananas" }, metrics);
} catch (error) {
  if (!(error instanceof MetricAssertionError)) throw error;
  console.log(error.message);
}
server.close();
