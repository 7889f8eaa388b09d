// evalwire make_llm_judge_evaluator: prompt formatting, result extraction, the zero-value rules of
// onError "silent", "reraise" with its callback, and the failure flag evalkern adds.
import { InvalidArgumentError, UnknownOptionError } from "@evalkern/metrics";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { JudgeConfigError, JudgeHttpError, JudgeOutputError, formatTemplate, makeLlmJudgeEvaluator, zodSchema } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, errorReply, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const BoolVerdict = zodSchema("verdict", z.object({ explanation: z.string(), score: z.boolean() }));
const Rating = zodSchema("rating", z.object({ explanation: z.string(), score: z.number().int().min(1).max(5) }));
const MaybeBool = zodSchema("maybe", z.object({ explanation: z.string(), score: z.boolean().nullable() }));
const TEMPLATE = 'Answer: {output}\nExpected: {expected_output}\nReply like {{"score": true}}. Keep {this} as is.';
const lastPrompt = (): string => server.requests.at(-1)!.body.messages[0].content;

describe("prompt formatting", () => {
  it("substitutes only the two placeholders; {{ }} become braces; other braces stay", () => {
    expect(formatTemplate("{output}|{expected_output}|{{x}}|{other}|{", { output: "a", expected_output: "b" })).toBe("a|b|{x}|{other}|{");
  });

  it("uses the first parsed expected item as Python str(): lists, ints, floats, booleans, None", async () => {
    server.handle("chat", () => chatJson({ explanation: "e", score: true }));
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict);
    const cases: Array<[unknown, string]> = [
      ["['Paris', 'Lyon']", "Paris"],
      ["Paris is nice", "Paris is nice"],
      ["42", "42"],
      ["2.0", "2.0"],
      ["True", "True"],
      ["[None]", "None"],
      ["(1, 'a')", "1"],
      [["x", "y"], "x"],
      [7, "7"],
      ["[[1, 2.5, 'q']]", "[1, 2.5, 'q']"],
      ["{'k': (1,)}", "{'k': (1,)}"],
    ];
    for (const [expectedOutput, text] of cases) {
      await judge("out", { expected_output: expectedOutput });
      expect(lastPrompt()).toBe(`Answer: out\nExpected: ${text}\nReply like {"score": true}. Keep {this} as is.`);
    }
    await judge(null, {});
    expect(lastPrompt()).toBe('Answer: \nExpected: \nReply like {"score": true}. Keep {this} as is.');
    await judge("x", { expected_output: [] });
    expect(lastPrompt()).toContain("Expected: \n");
  });

  it("sends one user message with the output schema as structured output", async () => {
    server.handle("chat", () => chatJson({ explanation: "e", score: 4 }));
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, Rating);
    expect(await judge("o", { expected_output: "e" })).toBe(4);
    const body = server.requests[0]!.body;
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].role).toBe("user");
    expect(body.response_format.json_schema.name).toBe("rating");
  });
});

describe("results and zero values", () => {
  it("returns reply[resultKey] as is", async () => {
    server.enqueue("chat", chatJson({ explanation: "e", score: false }), chatJson({ explanation: "the why", score: true }));
    const model = testJudge(server);
    expect(await makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict)("o", {})).toBe(false);
    expect(await makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { resultKey: "explanation" })("o", {})).toBe("the why");
  });

  it("silent: a failed call returns false for a boolean field, 0.0 otherwise — with the failure recorded", async () => {
    const model = testJudge(server, { maxReasks: 0 });
    server.enqueue("chat", chatJson({ explanation: "e", score: "yes" }));
    const boolJudge = makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict);
    expect(await boolJudge("o", {})).toBe(false);
    expect(boolJudge.zeroValue).toBe(false);
    expect(boolJudge.errorCount).toBe(1);
    expect(boolJudge.lastError).toBeInstanceOf(JudgeOutputError);

    server.enqueue("chat", errorReply(400, "bad request"));
    const ratingJudge = makeLlmJudgeEvaluator(model, TEMPLATE, Rating);
    const outcome = await ratingJudge.detailed("o", {});
    expect(outcome).toMatchObject({ ok: false, value: 0 });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(JudgeHttpError);
    expect(ratingJudge.zeroValue).toBe(0);

    // Optional[bool] is not `bool`: zero is 0.0 (evalwire's `annotation is bool`).
    expect(makeLlmJudgeEvaluator(model, TEMPLATE, MaybeBool).zeroValue).toBe(0);
  });

  it("silent: a resultKey the schema lacks gives 0.0, after the call", async () => {
    server.enqueue("chat", chatJson({ explanation: "e", score: true }));
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict, { resultKey: "verdict" });
    expect(judge.zeroValue).toBe(0);
    expect(await judge("o", {})).toBe(0);
    expect(judge.errorCount).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("reraise: calls errorCallback then rethrows; requires the callback at factory time", async () => {
    expect(() => makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict, { onError: "reraise" })).toThrow(JudgeConfigError);
    server.enqueue("chat", errorReply(401, "no"));
    const seen: unknown[] = [];
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict, {
      onError: "reraise",
      errorCallback: (e) => seen.push(e),
    });
    const error = await judge("o", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeHttpError);
    expect(seen).toEqual([error]);
  });

  it("errors in parsing `expected` propagate whatever onError says (outside evalwire's try)", async () => {
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict);
    await expect(judge("o", "not a dict")).rejects.toThrow(/AttributeError/);
    await expect(judge("o", { expected_output: "{[1]: 2}" })).rejects.toThrow(/TypeError/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("options: evalwire's keywords, unknown keys and contradictions", () => {
  it("result_key (evalwire's spelling) is honoured like resultKey", async () => {
    server.enqueue("chat", chatJson({ explanation: "the why", score: true }));
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict, { result_key: "explanation" });
    expect(await judge("o", {})).toBe("the why");
    // the zero value follows result_key too: `explanation` is a string field, so 0.0
    expect(judge.zeroValue).toBe(0);
  });

  it("on_error / error_callback (evalwire's spelling) reraise through the callback", async () => {
    server.enqueue("chat", errorReply(401, "no"));
    const seen: unknown[] = [];
    const options = { on_error: "reraise", error_callback: (e: unknown) => seen.push(e) } as const;
    const judge = makeLlmJudgeEvaluator(testJudge(server), TEMPLATE, BoolVerdict, options);
    const error = await judge("o", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeHttpError);
    expect(seen).toEqual([error]);
  });

  it("refuses contradictions at factory time: reraise without a callback, a callback that silent never calls", () => {
    const model = testJudge(server);
    expect(() => makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { on_error: "reraise" })).toThrow(JudgeConfigError);
    expect(() => makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { on_error: "reraise" })).toThrow(/errorCallback is required/);
    const make = (options: object) => () => makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, options as never);
    expect(make({ errorCallback: () => {} })).toThrow(/only called with onError: "reraise"/);
    expect(make({ on_error: "loud" })).toThrow(/onError must be "silent" or "reraise"/);
    expect(() => makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { resultKey: "" })).toThrow(JudgeConfigError);
    expect(server.requests).toHaveLength(0);
  });

  it("an unknown key is an UnknownOptionError naming the closest key; both spellings of one key are refused", () => {
    const model = testJudge(server);
    const error = (() => {
      try {
        makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { resultkey: "explanation" } as never);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({ key: "resultkey", suggestion: "resultKey", code: "UNKNOWN_OPTION" });
    const both = () => makeLlmJudgeEvaluator(model, TEMPLATE, BoolVerdict, { result_key: "a", resultKey: "b" } as never);
    expect(both).toThrow(InvalidArgumentError);
    expect(both).toThrow(/same field/);
  });
});
