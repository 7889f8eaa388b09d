// An in-memory `JudgeModel` for the DeepEval metric unit tests: replies are scripted in call order and
// each names the schema it answers, so a metric that calls the judge in a different order (or more
// often) fails loudly. Replies are returned unvalidated, as a lax custom model would, so the metrics'
// own validation is what the schema-violation tests exercise.
import type { GenerateRequest, GenerateResult, JudgeModel, JudgeUsage, TokenLogprob } from "../../src/model.js";

export interface ScriptedReply {
  /** The schema name the call must use (`"statements"`, `"verdicts"`, `"reason"`...). */
  readonly schema: string;
  /** The structured value returned as `value` (not validated here). */
  readonly value: unknown;
  readonly logprobs?: readonly TokenLogprob[];
  readonly usage?: Partial<JudgeUsage>;
  readonly cached?: boolean;
}

export type Script = ScriptedReply | Error | ((request: GenerateRequest<unknown>) => ScriptedReply | Error);

export interface RecordedCall {
  readonly schema: string | undefined;
  /** The user message. */
  readonly prompt: string;
  readonly request: GenerateRequest<unknown>;
}

export interface FakeJudgeOptions {
  readonly name?: string;
  readonly supportsLogprobs?: boolean;
  readonly reportsCost?: boolean;
  /** Usage of every call unless the reply gives its own. Default 100 in, 20 out, $0.001. */
  readonly usage?: JudgeUsage;
  /** Answers calls when the scripted queue is empty (route by schema name or prompt). */
  readonly handler?: (request: GenerateRequest<unknown>, prompt: string) => ScriptedReply | Error;
}

/** `reply("verdicts", { verdicts: [...] })` */
export function reply(schema: string, value: unknown, extra: Omit<ScriptedReply, "schema" | "value"> = {}): ScriptedReply {
  return { schema, value, ...extra };
}

/** A verdict list reply: `verdicts("yes", "no", ["idk", "why"])`. */
export function verdicts(...items: (string | readonly [string, string | null])[]): ScriptedReply {
  return reply("verdicts", {
    verdicts: items.map((item) => (typeof item === "string" ? { verdict: item, reason: null } : { verdict: item[0], reason: item[1] })),
  });
}

export const reasonReply = (text = "The score is fine because reasons.") => reply("reason", { reason: text });

export class FakeJudge implements JudgeModel {
  readonly name: string;
  readonly supportsLogprobs: boolean;
  readonly reportsCost: boolean;
  readonly calls: RecordedCall[] = [];
  private readonly queue: Script[];
  private readonly usage: JudgeUsage;
  private readonly handler: FakeJudgeOptions["handler"];

  constructor(script: readonly Script[] = [], options: FakeJudgeOptions = {}) {
    this.queue = [...script];
    this.name = options.name ?? "fake-judge";
    this.supportsLogprobs = options.supportsLogprobs ?? false;
    this.reportsCost = options.reportsCost ?? true;
    this.usage = options.usage ?? { inputTokens: 100, outputTokens: 20, costUsd: 0.001 };
    this.handler = options.handler;
  }

  push(...script: Script[]): this {
    this.queue.push(...script);
    return this;
  }

  /** Replies not consumed yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** The schema names of the calls made, in order. */
  get schemas(): (string | undefined)[] {
    return this.calls.map((c) => c.schema);
  }

  async generate<T = string>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
    const generic = request as unknown as GenerateRequest<unknown>;
    const prompt = request.messages.map((m) => m.content).join("\n");
    this.calls.push({ schema: request.schema?.name, prompt, request: generic });
    // Let concurrent callers interleave as they would over HTTP.
    await Promise.resolve();
    request.signal?.throwIfAborted();
    let next: Script | undefined = this.queue.shift();
    if (next === undefined && this.handler) next = this.handler(generic, prompt);
    if (next === undefined) throw new Error(`FakeJudge: no scripted reply for call #${this.calls.length} (${request.schema?.name})`);
    if (typeof next === "function") next = next(generic);
    if (next instanceof Error) throw next;
    if (next.schema !== request.schema?.name) {
      throw new Error(
        `FakeJudge: call #${this.calls.length} used schema '${request.schema?.name}' but the script expected '${next.schema}'`,
      );
    }
    return {
      value: next.value as T,
      text: JSON.stringify(next.value),
      ...(next.logprobs ? { logprobs: next.logprobs } : {}),
      usage: { ...this.usage, ...next.usage },
      cached: next.cached ?? false,
      model: this.name,
    };
  }
}

/** Token logprobs for a JSON reply where the score token has the given alternatives (probabilities). */
export function scoreLogprobs(
  tokens: readonly string[],
  alternatives: Readonly<Record<number, Readonly<Record<string, number>>>>,
): TokenLogprob[] {
  return tokens.map((token, i) => {
    const alt = alternatives[i];
    const top = alt ? Object.entries(alt).map(([t, p]) => ({ token: t, logprob: Math.log(p) })) : [{ token, logprob: -0.001 }];
    return { token, logprob: alt && alt[token] !== undefined ? Math.log(alt[token] as number) : -0.001, topLogprobs: top };
  });
}
