// The scripted test server itself: routes, queues, handlers, error simulation, in-flight counting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  chatJson,
  chatText,
  completion,
  hangUp,
  malformed,
  rateLimited,
  slow,
  startServer,
  textLogprobs,
  type ScriptedServer,
} from "./support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("scripted server", () => {
  it("serves queued chat replies in order and records requests", async () => {
    server.enqueue("chat", chatJson({ a: 1 }), chatText("hi", { usage: { prompt_tokens: 3, completion_tokens: 2 } }));
    const r1 = await (await post("/v1/chat/completions", { model: "m1", messages: [] })).json();
    const r2 = await (await post("/v1/chat/completions", { model: "m2", messages: [] }, { "api-key": "k" })).json();
    expect(r1.choices[0].message.content).toBe('{"a":1}');
    expect(r1.model).toBe("m1");
    expect(r2.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(server.requests.map((r) => r.body.model)).toEqual(["m1", "m2"]);
    expect(server.requests[1]!.headers["api-key"]).toBe("k");
    expect(server.pending()).toBe(0);
  });

  it("routes Azure deployment paths to chat and fails unscripted requests with a 400", async () => {
    server.handle("chat", (req) => chatJson({ path: req.path, v: req.query.get("api-version") }));
    const r = await (await post("/openai/deployments/d1/chat/completions?api-version=2024-10-21", { messages: [] })).json();
    expect(JSON.parse(r.choices[0].message.content)).toEqual({ path: "/openai/deployments/d1/chat/completions", v: "2024-10-21" });
    const u = await post("/v1/completions", {});
    expect(u.status).toBe(400);
    expect(server.unhandled).toHaveLength(1);
  });

  it("simulates 429 with Retry-After, malformed bodies and hang-ups", async () => {
    server.enqueue("chat", rateLimited(2), malformed(), hangUp());
    const a = await post("/v1/chat/completions", {});
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("2");
    const b = await post("/v1/chat/completions", {});
    await expect(b.json()).rejects.toThrow();
    await expect(post("/v1/chat/completions", {})).rejects.toThrow();
  });

  it("counts concurrent requests", async () => {
    for (let i = 0; i < 3; i++) server.enqueue("chat", slow(100, chatText("x")));
    await Promise.all([0, 1, 2].map(() => post("/v1/chat/completions", {}).then((r) => r.json())));
    expect(server.maxInFlight).toBe(3);
    expect(server.inFlight).toBe(0);
  });

  it("builds logprob replies for chat and completions", async () => {
    const content = '{"score":7}';
    server.enqueue("chat", chatText(content, { logprobs: textLogprobs(content, (t) => (t === "7" ? { "7": -0.1, "8": -2 } : undefined)) }));
    server.enqueue(
      "completions",
      completion({
        tokens: [
          { token: "The", logprob: null },
          { token: " cat", logprob: -1.5 },
        ],
      }),
    );
    const c = await (await post("/v1/chat/completions", {})).json();
    const seven = c.choices[0].logprobs.content.find((t: { token: string }) => t.token === "7");
    expect(seven.top_logprobs.map((t: { token: string }) => t.token)).toEqual(["7", "8"]);
    const p = await (await post("/v1/completions", {})).json();
    expect(p.choices[0].logprobs).toMatchObject({ tokens: ["The", " cat"], token_logprobs: [null, -1.5], text_offset: [0, 3] });
  });
});
