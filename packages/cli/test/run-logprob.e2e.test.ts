// `evalkern run` of a completions_logprob benchmark (a system prompt, a prompt ending in a space, static
// choices with an empty one) against a scripted vLLM-like server on loopback that refuses `max_tokens: 0` and
// then returns zero, one or two generated tokens (issue 19, items 1–3). BYOB's span rule applies; each
// expected sum is written out from the scripted token logprobs.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonl, runCli, tempDir } from "./support/cli.js";
import { startServer, type FakeServer, type Reply } from "./support/openai-server.js";

/** The scripted model's logprob of each prompt token (the first token has none; others -1). */
const LP: Readonly<Record<string, number>> = { " Paris": -0.5, " Rome": -1.25, " New": -1.625, " York": -0.875, " City": -0.5, " ": -3 };
/** Generated tokens: their logprobs must never enter a sum. */
const GENERATED = [
  { token: "\n", logprob: -0.0625 },
  { token: " The", logprob: -0.03125 },
];

/** The prompt as whitespace-led word tokens (trailing whitespace a token of its own), code-point offsets, then `g` generated tokens. */
function echo(prompt: string, g: number): Reply {
  const words = prompt.match(/\s*\S+|\s+$/g) ?? [];
  const tokens = [...words, ...GENERATED.slice(0, g).map((x) => x.token)];
  const logprobs = [...words.map((t, i) => (i === 0 ? null : (LP[t] ?? -1))), ...GENERATED.slice(0, g).map((x) => x.logprob)];
  const offsets: number[] = [];
  let o = 0;
  for (const t of tokens) offsets.push(o), (o += [...t].length);
  const top = tokens.map((t, i) => (logprobs[i] === null ? null : { [t]: logprobs[i] }));
  const lp = { tokens, token_logprobs: logprobs, text_offset: offsets, top_logprobs: top };
  return { body: { object: "text_completion", model: "base", choices: [{ index: 0, text: tokens.join(""), logprobs: lp }] } };
}

let server: FakeServer;
let dir: string;

beforeAll(async () => {
  server = await startServer((req) => {
    if (!req.path.endsWith("/completions")) return { status: 404, body: { error: { message: "not found" } } };
    if (req.body.max_tokens === 0) {
      const refusal = { object: "error", message: "max_tokens must be at least 1, got 0.", type: "BadRequestError", code: 400 };
      return { status: 400, body: refusal };
    }
    const prompt = String(req.body.prompt);
    return echo(prompt, Number(/\(g=(\d)\)/.exec(prompt)![1]));
  });
  dir = tempDir();
  writeFileSync(join(dir, "mc.jsonl"), [0, 1, 2].map((g) => JSON.stringify({ q: `capital of France? (g=${g})`, answer: 0 })).join("\n"));
});
afterAll(() => server.close());

describe("evalkern run, completions_logprob", () => {
  it("a system prompt, a trailing-space prompt and an empty choice: BYOB's sums on every row, nothing skipped", async () => {
    const definition = {
      name: "cities",
      dataset: "mc.jsonl",
      systemPrompt: "Be terse 😀.",
      prompt: "Question: {q}\nAnswer: ",
      targetField: "answer",
      endpointType: "completions_logprob",
      choices: ["Paris", "Rome", "New York City", ""],
      scorer: "multipleChoiceAcc",
    };
    writeFileSync(join(dir, "cities.json"), JSON.stringify(definition));
    const preds = join(dir, "preds.jsonl");
    const endpoint = ["--base-url", server.baseURL, "--model", "base", "--no-progress"];
    const files = ["-o", join(dir, "out.json"), "--predictions", preds];
    const r = await runCli(["run", join(dir, "cities.json"), ...endpoint, ...files], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("3 scored, 0 skipped");
    const sent = server.requests.map((q) => q.body.prompt);
    expect(sent).toContain("Be terse 😀.\nQuestion: capital of France? (g=0)\nAnswer: New York City");
    const rows = readJsonl(preds);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const metadata = row.metadata as Record<string, unknown>;
      // "Paris" and "Rome": their one token starts inside the context (the space), so the last prompt token;
      // "New York City": " York" + " City" (the first tokens at or past the context); "": the trailing " "
      expect(metadata._choices_logprobs).toEqual([-0.5, -1.25, -0.875 + -0.5, -3]);
      expect(row.status).toBe("scored");
      expect(row.response).toBe("Paris");
    }
    const report = JSON.parse(readFileSync(join(dir, "out.json"), "utf8"));
    expect(report.tasks.cities.metrics["pass@1"].scores.acc.value).toBe(1);
  });
});
