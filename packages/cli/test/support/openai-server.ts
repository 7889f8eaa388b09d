// A scripted OpenAI-compatible server on 127.0.0.1 (port 0) for the `run` and `judge` tests: each
// request is answered by the test's handler; every request is recorded.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Request {
  readonly path: string;
  readonly body: any;
}

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | { status?: number; raw: string };

export interface FakeServer {
  readonly baseURL: string;
  readonly requests: Request[];
  close(): Promise<void>;
}

/** A chat completion whose message content is `content`. */
export function chat(content: string, usage = { prompt_tokens: 20, completion_tokens: 5 }): Reply {
  return {
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 0,
      model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

export async function startServer(handler: (req: Request) => Reply | Promise<Reply>): Promise<FakeServer> {
  const requests: Request[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (raw += d));
    req.on("end", async () => {
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const r: Request = { path: (req.url ?? "").split("?")[0]!, body };
      requests.push(r);
      let reply: Reply;
      try {
        reply = await handler(r);
      } catch (e) {
        reply = { status: 400, body: { error: { message: String(e), code: "unscripted_request" } } };
      }
      res.statusCode = reply.status ?? 200;
      if ("raw" in reply) {
        res.setHeader("content-type", "application/json");
        res.end(reply.raw);
        return;
      }
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
