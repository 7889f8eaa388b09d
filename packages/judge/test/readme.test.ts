// Runs every example of README.md against the sources and the scripted loopback server and checks the
// printed output line by line, so the README cannot drift from the code. Each example talks to
// "http://localhost:8000/v1"; here that URL is replaced by the server's, and the server answers each
// judge call from a per-schema queue of scripted replies.
import { readFileSync } from "node:fs";
import * as metricsDsrs from "@evalkern/metrics/dsrs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as zod from "zod";
import * as aiTest from "ai/test";
import * as aiSdk from "../src/ai-sdk/index.js";
import * as judgePackage from "../src/index.js";
import * as judgeAutoevals from "../src/autoevals/index.js";
import * as judgePromptfoo from "../src/promptfoo/index.js";
import { README_SCRIPTS as SCRIPTS, readmeEmbeddings, readmeModeration } from "./support/readme-scripts.js";
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
  "@evalkern/judge/ai-sdk": aiSdk as Record<string, unknown>,
  "ai/test": aiTest as Record<string, unknown>,
  "@evalkern/judge/autoevals": judgeAutoevals as Record<string, unknown>,
  "@evalkern/judge/promptfoo": judgePromptfoo as Record<string, unknown>,
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
    for (const name of list
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      names.push(name);
      values.push(module[name]);
    }
    return "";
  });
  return { names, values, body };
}

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
beforeEach(() => {
  server.reset();
  server.handle("embeddings", readmeEmbeddings);
  server.handle("moderations", readmeModeration);
});

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

describe("README.md prose", () => {
  it("says what the code does about prices: a bundled, dated table ships, and it can be turned off", () => {
    expect(Object.keys(judgePackage.BUNDLED_PRICES).length).toBeGreaterThan(0);
    expect(readme).not.toMatch(/ships no price|no prices \(cost/i);
    expect(readme).toMatch(/`bundledPrices: false`/);
    const judge = new judgePackage.OpenAICompatibleJudge({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "gpt-4o-mini", env: {} });
    expect(judge.price).toEqual(judgePackage.BUNDLED_PRICES["gpt-4o-mini"]);
  });
});
