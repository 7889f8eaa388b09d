// A loopback HTTP server whose replies the current test scripts (the BYOB suites' OpenAI-compatible stand-in).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  path: string;
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/** A loopback server whose replies the current test scripts. */
export class ScriptedServer {
  server!: Server;
  url = "";
  seen: Seen[] = [];
  handler: Handler = (_r, res) => res.writeHead(500).end();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let data = "";
      req.on("data", (d) => (data += d));
      req.on("end", () => {
        const seen: Seen = { path: req.url ?? "", body: data ? (JSON.parse(data) as Record<string, unknown>) : {}, headers: req.headers };
        this.seen.push(seen);
        this.handler(seen, res);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  script(handler: Handler): void {
    this.seen = [];
    this.handler = handler;
  }
}

export const json = (res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

/** Generated tokens a scripted server appends after the echoed prompt, each with a logprob no sum may include. */
export const GENERATED_TOKENS: readonly { readonly token: string; readonly logprob: number }[] = [
  { token: "\n", logprob: -0.0625 },
  { token: " The", logprob: -0.03125 },
];

/**
 * A `/completions` reply echoing `prompt` as whitespace-led word tokens (trailing whitespace is a token of its
 * own) with code-point offsets, then `generated` tokens of {@link GENERATED_TOKENS}; logprobs from `lp`.
 */
export function echoCompletion(prompt: string, generated: number, lp: (token: string) => number) {
  const words = prompt.match(/\s*\S+|\s+$/g) ?? [];
  const extra = GENERATED_TOKENS.slice(0, generated);
  const tokens = [...words, ...extra.map((g) => g.token)];
  const offsets: number[] = [];
  let o = 0;
  for (const t of tokens) offsets.push(o), (o += [...t].length);
  const logprobs = [...words.map((t, i) => (i === 0 ? null : lp(t))), ...extra.map((g) => g.logprob)];
  return {
    choices: [
      {
        text: tokens.join(""),
        logprobs: {
          tokens,
          token_logprobs: logprobs,
          text_offset: offsets,
          top_logprobs: tokens.map((t, i) => (logprobs[i] === null ? null : { [t]: logprobs[i] })),
        },
      },
    ],
  };
}
