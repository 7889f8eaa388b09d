// Unknown or misspelled option keys are a typed error naming the metric and the key: `new SandboxMetric({
// command })` used to run the default `cargo test` silently. The dsrs metrics, DeepEval's
// ToolCorrectnessMetric and evalwire's schema evaluator.
import { describe, expect, it } from "vitest";
import {
  DiffMetric,
  FormatMetric,
  KeywordMetric,
  LengthMetric,
  SandboxMetric,
  ScoringConfig,
  SyntaxMetric,
  TestPassMetric,
} from "../src/dsrs/index.js";
import { EvalkernError, InvalidArgumentError, UnknownOptionError } from "../src/index.js";
import { ToolCorrectnessMetric } from "../src/deepeval/index.js";
import { compilePythonSchema, makeSchemaEvaluator } from "../src/evalwire/index.js";

function thrown(make: () => unknown): UnknownOptionError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownOptionError);
    return error as UnknownOptionError;
  }
  throw new Error("did not throw");
}

describe("dsrs metrics reject unknown option keys", () => {
  it("SandboxMetric({ command }) names the metric, the key and the right key", () => {
    const e = thrown(() => new SandboxMetric({ command: ["node", "-e", ""] } as never));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e).toBeInstanceOf(EvalkernError);
    expect(e.code).toBe("UNKNOWN_OPTION");
    expect(e.metric).toBe("SandboxMetric");
    expect(e.key).toBe("command");
    expect(e.suggestion).toBe("commands");
    expect(e.argument).toBe("options.command");
    expect(e.message).toMatch(/^SandboxMetric: unknown option "command" \(did you mean "commands"\?\); known options: /);
    expect(e.known).toContain("timeoutMs");
  });

  it.each([
    ["TestPassMetric", () => new TestPassMetric({ commands: [["cargo", "test"]] } as never), "commands", "command"],
    ["TestPassMetric", () => new TestPassMetric({ timeout: 5 } as never), "timeout", "timeoutMs"],
    ["FormatMetric", () => new FormatMetric({ requireValidJSON: true } as never), "requireValidJSON", "requireValidJson"],
    ["LengthMetric", () => new LengthMetric({ maxChar: 3 } as never), "maxChar", "maxChars"],
    ["KeywordMetric", () => new KeywordMetric({ require: ["a"] } as never), "require", "required"],
    ["SyntaxMetric", () => new SyntaxMetric({ lang: "rust" } as never), "lang", undefined],
    ["DiffMetric", () => new DiffMetric({ strict: "Exact" } as never), "strict", undefined],
    ["ScoringConfig", () => new ScoringConfig({ rollout: 2 } as never), "rollout", "rollouts"],
  ] as const)("%s rejects an unknown key (case %#)", (metric, make, key, suggestion) => {
    const e = thrown(make);
    expect(e.metric).toBe(metric);
    expect(e.key).toBe(key);
    expect(e.suggestion).toBe(suggestion);
    expect(e.message).toContain(`${metric}: unknown option "${key}"`);
  });

  it("known keys, undefined options and the with* builders still work", () => {
    expect(new SandboxMetric({ commands: [["node", "-e", ""]], timeoutMs: 10_000, name: "s" }).commands).toEqual([["node", "-e", ""]]);
    expect(new SandboxMetric().withCommands([["true"]]).withTimeout(5000).name).toBe("sandbox");
    expect(new TestPassMetric({ command: ["node", "-v"] }).command).toEqual(["node", "-v"]);
    expect(new FormatMetric().withJsonCheck().requireValidJson).toBe(true);
    expect(new LengthMetric({ minChars: 1, maxChars: 3, partialCredit: true }).maxChars).toBe(3);
    expect(new ScoringConfig({ rollouts: 2 }).withRollouts(4).rollouts).toBe(4);
  });
});

describe("other options-object constructors of @evalkern/metrics", () => {
  it("ToolCorrectnessMetric", () => {
    const e = thrown(() => new ToolCorrectnessMetric({ shouldExactMatchh: true } as never));
    expect(e.metric).toBe("ToolCorrectnessMetric");
    expect(e.key).toBe("shouldExactMatchh");
    expect(e.suggestion).toBe("shouldExactMatch");
    expect(new ToolCorrectnessMetric({ threshold: 0.7, shouldConsiderOrdering: true, includeReason: false }).threshold).toBe(0.7);
  });
  it("a subclass of ToolCorrectnessMetric may take options of its own", () => {
    class Mine extends ToolCorrectnessMetric {
      constructor(options: { extra?: number; threshold?: number }) {
        super(options as never);
      }
    }
    expect(new Mine({ extra: 1, threshold: 0.2 }).threshold).toBe(0.2);
  });
  it("makeSchemaEvaluator and compilePythonSchema", () => {
    const e = thrown(() => makeSchemaEvaluator({ type: "object" }, { draft: "2020-12" } as never));
    expect(e.metric).toBe("makeSchemaEvaluator");
    expect(e.key).toBe("draft");
    expect(e.known).toEqual(["dialect"]);
    expect(thrown(() => compilePythonSchema(true, { Dialect: "auto" } as never)).suggestion).toBe("dialect");
    expect(makeSchemaEvaluator({ type: "object" }, { dialect: "draft-07" })("{}", {})).toBe(true);
  });
});
