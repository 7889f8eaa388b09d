// Runs every example of README.md against the sources and the scripted loopback server and checks the
// printed output line by line, so the README cannot drift from the code. Each example talks to
// "http://localhost:8000/v1"; here that URL is replaced by the server's, and the server answers each
// judge call from a per-schema queue of scripted replies.
import { readFileSync } from "node:fs";
import * as metricsDsrs from "@evalkern/metrics/dsrs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as zod from "zod";
import * as judgePackage from "../src/index.js";
import { chatJson, startServer, type ScriptedReply, type ScriptedServer } from "./support/server.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

interface ReadmeExample {
  readonly title: string;
  readonly code: string;
  readonly output: string[];
}

function examples(): ReadmeExample[] {
  const found: ReadmeExample[] = [];
  const pattern = /### ([^\n]+)\n[^]*?```js\n([^]*?)\n```\n\n```text\n([^]*?)\n```/g;
  for (const match of readme.matchAll(pattern)) {
    found.push({ title: match[1] ?? "", code: match[2] ?? "", output: (match[3] ?? "").split("\n") });
  }
  return found;
}

const MODULES: Record<string, Record<string, unknown>> = {
  "@evalkern/judge": judgePackage as Record<string, unknown>,
  "@evalkern/metrics/dsrs": metricsDsrs as Record<string, unknown>,
  zod: zod as Record<string, unknown>,
};

/** Replace `import { a, b } from "m";` lines by parameters bound to the real modules. */
function bindImports(code: string): { names: string[]; values: unknown[]; body: string } {
  const names: string[] = [];
  const values: unknown[] = [];
  const body = code.replace(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)";\n/g, (_all, list: string, from: string) => {
    const module = MODULES[from];
    if (!module) throw new Error(`README imports an unknown module ${from}`);
    for (const name of list.split(",").map((s) => s.trim()).filter(Boolean)) {
      names.push(name);
      values.push(module[name]);
    }
    return "";
  });
  return { names, values, body };
}

type Script = Record<string, Array<unknown | (() => ScriptedReply)>>;

const bad = { explanation: "unsure", score: "maybe" };

/** The scripted judge replies of each example, keyed by title, then by schema name. */
const SCRIPTS: Record<string, Script> = {
  "The judge client": {
    verdict: [() => chatJson({ reason: "Paris is the capital of France.", verdict: "yes" }, { usage: { prompt_tokens: 40, completion_tokens: 12 } })],
  },
  "DSPy: SemanticF1 and CompleteAndGrounded": {
    decompositional_semantic_recall_precision: Array.from({ length: 2 }, () => ({
      reasoning: "Both name Rayleigh scattering.",
      ground_truth_key_ideas: "1. air scatters light 2. short wavelengths more 3. blue 4. Rayleigh scattering",
      system_response_key_ideas: "1. Rayleigh scattering 2. blue scattered more than red",
      discussion: "Three of four ideas are present; 'sunlight' is implicit.",
      recall: 0.75,
      precision: 1,
    })),
    answer_completeness: [
      {
        reasoning: "r",
        ground_truth_key_ideas: "scattering; short wavelengths; blue; Rayleigh",
        system_response_key_ideas: "Rayleigh; blue more than red",
        discussion: "Misses why short wavelengths scatter more.",
        completeness: 0.5,
      },
    ],
    answer_groundedness: [
      { reasoning: "r", system_response_claims: "Rayleigh scattering makes the sky blue.", discussion: "Passage 1 supports it.", groundedness: 1 },
    ],
  },
  "evalwire: makeLlmJudgeEvaluator": {
    correctness: [
      { explanation: "Paris is expected.", score: true },
      { explanation: "Lyon is not Paris.", score: false },
      bad,
      bad,
      bad,
    ],
  },
  "dsrs: LlmJudgeMetric and Semantic DiffMetric": {
    judge_verdict: [
      { reason: "max() raises on an empty list.", score: 0.6 },
      { reason: "Handles the empty list.", score: 0.9 },
    ],
    semantic_equivalence: [{ reason: "Same sum; names differ and addition commutes.", equivalent: true, similarity: 1 }],
  },
  "Judges by name, a default judge, prices and DeepEval's rubric form": {
    reason_score: [
      () => chatJson({ reason: "Both say Paris.", score: 9 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
      () => chatJson({ reason: "Both say Paris.", score: 8 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
      () => chatJson({ reason: "Both say Paris.", score: 8 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
    ],
    semantic_recall_precision: [
      { reasoning: "Same city.", recall: 1, precision: 1 },
      { reasoning: "Adds the country.", recall: 1, precision: 0.5 },
    ],
  },
};

const savedEnv = { OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
afterEach(() => {
  judgePackage.resetJudgeDefaults();
  judgePackage.resetModelPrices();
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("README.md examples", () => {
  const all = examples();

  it("has one scripted example per section", () => {
    expect(all.map((e) => e.title)).toEqual(Object.keys(SCRIPTS));
  });

  for (const example of all) {
    it(`${example.title}: runs against the loopback server and prints the documented output`, async () => {
      const script = SCRIPTS[example.title] ?? {};
      const queues = new Map(Object.entries(script).map(([name, replies]) => [name, [...replies]]));
      server.handle("chat", (request) => {
        const name: string = request.body.response_format?.json_schema?.name ?? "(none)";
        const next = queues.get(name)?.shift();
        if (next === undefined) throw new Error(`no scripted '${name}' reply left for '${example.title}'`);
        return typeof next === "function" ? (next as () => ScriptedReply)() : chatJson(next);
      });
      const { names, values, body } = bindImports(example.code);
      expect(body).not.toMatch(/^import /m);
      const code = body.replaceAll('"http://localhost:8000/v1"', JSON.stringify(server.baseURL));
      const printed: string[] = [];
      const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
        ...args: string[]
      ) => (...values: unknown[]) => Promise<void>;
      await new AsyncFunction("console", ...names, code)(fakeConsole, ...values);
      expect(printed).toEqual(example.output);
      expect([...queues].filter(([, left]) => left.length > 0).map(([name]) => name)).toEqual([]);
      expect(server.unhandled).toHaveLength(0);
    });
  }
});
