// BYOB: a NeMo-style benchmark against an OpenAI-compatible endpoint. To stay runnable offline this
// example starts a tiny local server; point baseUrl at vLLM/SGLang/OpenAI instead.
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchmark } from "@evalkern/harness";
import { exactMatch, multipleChoiceAcc, ready } from "@evalkern/metrics/byob";

await ready();
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const r = JSON.parse(body);
    let reply;
    if (req.url === "/v1/chat/completions") reply = { choices: [{ message: { role: "assistant", content: "Paris" } }] };
    else {
      // /v1/completions with echo + logprobs: one token per word, " Paris" is likely
      const tokens = r.prompt.match(/\s*\S+/g);
      const offsets = [];
      let o = 0;
      for (const t of tokens) (offsets.push(o), (o += t.length));
      const logprobs = {
        tokens,
        text_offset: offsets,
        token_logprobs: tokens.map((t, i) => (i ? (t === " Paris" ? -0.2 : -2) : null)),
        top_logprobs: tokens.map((t) => ({ [t]: -0.2 })),
      };
      reply = { choices: [{ text: r.prompt, logprobs }] };
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const dir = mkdtempSync(join(tmpdir(), "byob-"));
const data = join(dir, "capitals.jsonl");
writeFileSync(
  data,
  [{ q: { text: "Capital of France?" }, answer: "Paris", options: [" Lyon", " Paris"], gold: 1 }].map((r) => JSON.stringify(r)).join("\n"),
);

// free-form answers over chat, scored with BYOB's exact_match
const qa = benchmark(
  { name: "Capitals QA", dataset: data, prompt: "Q: {q.text}\nA:", targetField: "answer", endpointType: "chat" },
  exactMatch,
);
const chat = await qa.run({ baseUrl, model: "demo", outputPath: join(dir, "byob_results.json") });
console.log(JSON.stringify(chat.report));

// multiple choice by log-likelihood: one /v1/completions call per choice (echo, logprobs, max_tokens 0)
const mc = benchmark(
  {
    name: "capitals-mc",
    dataset: data,
    prompt: "Q: {q.text}\nA:",
    targetField: "gold",
    endpointType: "completions_logprob",
    choicesField: "options",
  },
  multipleChoiceAcc,
);
const ranked = await mc.run({ baseUrl, model: "demo" });
console.log(ranked.samples[0].response, ranked.samples[0].metadata._choices_logprobs, JSON.stringify(ranked.report));
server.close();
rmSync(dir, { recursive: true, force: true });
