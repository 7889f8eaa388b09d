// Runs every example of README-deepeval.md against the sources and the scripted loopback server, and
// checks the printed output line by line, so the README cannot drift from the code. Each example talks
// to "http://localhost:8000/v1"; here that URL is replaced by the server's, and the server answers each
// judge call from a per-schema queue of scripted replies (the examples run their metrics one after
// another, so the order within a schema is fixed).
import { readFileSync } from "node:fs";
import * as deepevalMetrics from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as judgePackage from "../../src/index.js";
import { DEEPEVAL_README_SCRIPTS as SCRIPTS } from "../support/readme-scripts.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedReply, type ScriptedServer } from "../support/server.js";

const readme = readFileSync(new URL("../../README-deepeval.md", import.meta.url), "utf8");

interface Example {
  readonly title: string;
  readonly code: string;
  readonly output: string[];
}

function examples(): Example[] {
  const found: Example[] = [];
  const pattern = /### ([^\n]+)\n[^]*?```js\n([^]*?)\n```\n\n```text\n([^]*?)\n```/g;
  for (const match of readme.matchAll(pattern)) {
    found.push({ title: match[1] ?? "", code: match[2] ?? "", output: (match[3] ?? "").split("\n") });
  }
  return found;
}

function importedNames(code: string, from: string): { names: string[]; rest: string } {
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"${from.replace(/[/]/g, "\\/")}";\\n`);
  const match = pattern.exec(code);
  if (!match) return { names: [], rest: code };
  const names = (match[1] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return { names, rest: code.replace(pattern, "") };
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("README-deepeval.md examples", () => {
  const all = examples();

  it("has one scripted example per metric family", () => {
    expect(all.map((e) => e.title)).toEqual(Object.keys(SCRIPTS));
  });

  for (const example of all) {
    it(`${example.title}: runs against the loopback server and prints the documented output`, async () => {
      const script = SCRIPTS[example.title];
      expect(script, `no script for '${example.title}'`).toBeDefined();
      const queues = new Map(Object.entries(script ?? {}).map(([name, replies]) => [name, [...replies]]));
      server.handle("chat", (request) => {
        const name: string = request.body.response_format?.json_schema?.name ?? "(none)";
        const next = queues.get(name)?.shift();
        if (next === undefined) throw new Error(`no scripted '${name}' reply left for '${example.title}'`);
        return typeof next === "function" ? (next as (r: RecordedRequest) => ScriptedReply)(request) : chatJson(next);
      });

      const judgeImports = importedNames(example.code, "@evalkern/judge");
      const metricImports = importedNames(judgeImports.rest, "@evalkern/metrics/deepeval");
      expect(judgeImports.names.length).toBeGreaterThan(0);
      const body = metricImports.rest.replaceAll('"http://localhost:8000/v1"', JSON.stringify(server.baseURL));
      expect(body).not.toMatch(/^import /m);

      const printed: string[] = [];
      const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
        ...args: string[]
      ) => (...values: unknown[]) => Promise<void>;
      const names = [...judgeImports.names, ...metricImports.names];
      const run = new AsyncFunction("console", ...names, body);
      await run(
        fakeConsole,
        ...judgeImports.names.map((n) => (judgePackage as Record<string, unknown>)[n]),
        ...metricImports.names.map((n) => (deepevalMetrics as Record<string, unknown>)[n]),
      );

      expect(printed).toEqual(example.output);
      expect([...queues].filter(([, left]) => left.length > 0).map(([name]) => name)).toEqual([]);
      expect(server.unhandled).toHaveLength(0);
    });
  }
});
