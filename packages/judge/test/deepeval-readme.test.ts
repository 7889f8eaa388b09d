// Runs every example of README-deepeval.md against the sources and the scripted loopback server, and
// checks the printed output line by line, so the README cannot drift from the code. Each example talks
// to "http://localhost:8000/v1"; here that URL is replaced by the server's, and the server answers each
// judge call from a per-schema queue of scripted replies (the examples run their metrics one after
// another, so the order within a schema is fixed).
import { readFileSync } from "node:fs";
import * as deepevalMetrics from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as judgePackage from "../src/index.js";
import { chatJson, chatText, startServer, textLogprobs, type RecordedRequest, type ScriptedReply, type ScriptedServer } from "./support/server.js";

const readme = readFileSync(new URL("../README-deepeval.md", import.meta.url), "utf8");

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

type Script = Record<string, (unknown | ((request: RecordedRequest) => ScriptedReply))[]>;

const v = (verdict: string, reason: string | null = null) => ({ verdict, reason });

/** The scripted judge replies of each example, keyed by example title. */
const SCRIPTS: Record<string, Script> = {
  "RAG and answer metrics": {
    statements: [{ statements: ["The museum opens at 9am.", "Tickets cost 12 euros."] }],
    truths: [{ truths: ["Opening hours are 9am-6pm.", "It is open Tuesday to Sunday.", "The café serves lunch."] }],
    claims: [{ claims: ["The museum opens at 9am.", "Tickets cost 12 euros."] }],
    verdicts: [
      { verdicts: [v("yes"), v("idk", "Ticket prices help a visit but do not say when it opens.")] },
      { verdicts: [v("yes"), v("idk", "The context does not mention ticket prices.")] },
      { verdicts: [v("yes", "'Opening hours: 9am-6pm' gives the answer."), v("no", "'The café serves lunch' is unrelated.")] },
      { verdicts: [v("yes", "1st node: 'Opening hours: 9am-6pm, Tuesday to Sunday'.")] },
      { verdicts: [{ statement: "Opening hours are 9am-6pm.", ...v("yes") }, { statement: "Open Tuesday to Sunday.", ...v("yes") }] },
      { verdicts: [{ statement: "The café serves lunch.", ...v("no", "Lunch is unrelated to opening hours.") }] },
      { verdicts: [v("yes", "Both say 9am."), v("no", "The context says admission is free; the answer says 12 euros.")] },
    ],
    reason: Array.from({ length: 6 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  "Bias, toxicity and PII leakage": {
    opinions: [{ opinions: ["People who can't read a manual are hopeless."] }, { opinions: ["People who can't read a manual are hopeless."] }],
    verdicts: [
      { verdicts: [v("no")] },
      { verdicts: [v("yes", "Dismissive and insulting; say 'The manual covers this step.' instead.")] },
      { verdicts: [v("yes", "A named person's phone number.")] },
    ],
    extracted_pii: [{ extracted_pii: ["Call Jane Doe on +1 555 0100."] }],
    reason: Array.from({ length: 3 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  Summarization: {
    truths: [{ truths: ["The library is open 9-5 on weekdays.", "Members can borrow 10 books.", "Late returns cost 50 cents a day."] }],
    claims: [{ claims: ["The library opens weekdays 9-5.", "Members can borrow 10 books."] }],
    answers: [{ answers: ["yes", "yes", "yes"] }, { answers: ["yes", "yes", "no"] }],
    verdicts: [{ verdicts: [v("yes"), v("yes")] }],
    reason: [{ reason: "The score is 0.67 because the summary leaves out the late fees." }],
  },
  "G-Eval and Arena G-Eval": {
    steps: [
      { steps: ["Compare the facts in the actual output with the expected output.", "Penalise contradictions, not extra detail."] },
      { steps: ["Check whether each answer gives opening days and hours.", "Prefer the most specific answer."] },
    ],
    reason_score: [
      () => {
        const content = '{"reason":"Correct, with a useful qualification.","score":8}';
        return chatText(content, {
          logprobs: textLogprobs(content, (t) => (t === "8" ? { "8": Math.log(0.7), "9": Math.log(0.2), "7": Math.log(0.1) } : undefined)),
        });
      },
    ],
    winner: [
      (request: RecordedRequest) => {
        const prompt: string = request.body.messages[0].content;
        const shown = JSON.parse(prompt.slice(prompt.indexOf("Task and contestants:\n") + 22, prompt.indexOf("\n\nReply with"))) as {
          contestants: { name: string; actual_output: string }[];
        };
        const best = shown.contestants.find((c) => c.actual_output.includes("9am"))!.name;
        const other = shown.contestants.find((c) => c.name !== best)!.name;
        return chatJson({ winner: `$${best}$`, reason: `$${best}$ gives the exact hours and days; $${other}$ is vague.` });
      },
    ],
  },
  DAG: {
    task_output: [{ output: ["Decisions", "Next steps"] }],
    binary_verdict: [{ verdict: true, reason: "Both headings are present." }],
    non_binary_verdict: [{ verdict: "Professional", reason: "Neutral, businesslike wording." }],
    reason: [{ reason: "The score is 1 because both headings are present and the tone is professional." }],
  },
  "Agents (needs a trace for plan adherence and step efficiency)": {
    task_outcome: [{ task: "Book a table for two at 8pm tonight.", outcome: "The agent searched twice and booked Chez Nous for two at 20:00." }],
    task_completion_verdict: [{ verdict: 1, reason: "The table was booked as asked." }],
    task: [{ task: "Book a table for two at 8pm tonight." }, { task: "Book a table for two at 8pm tonight." }],
    plan: [{ plan: ["Search restaurants", "Book one"] }],
    score_reason: [
      { score: 1, reason: "Searched, then booked, as planned." },
      { score: 0.75, reason: "The identical search ran twice." },
    ],
  },
  Conversations: {
    knowledge: [
      { data: [{ key: "name", value: "Sam" }, { key: "departure city", value: "Lisbon" }] },
      { data: [{ key: "destination", value: "Rome" }, { key: "needs", value: ["flight", "hotel"] }] },
    ],
    knowledge_retention_verdict: [v("no"), v("yes", "Asked again for the departure city (Lisbon).")],
    intentions: [{ intentions: ["Book a flight from Lisbon to Rome", "Book a hotel in Rome"] }],
    intention_verdict: [v("no", "No flight was booked."), v("no", "No hotel was offered.")],
    out_of_character: [{ verdicts: [] }],
    reason: Array.from({ length: 3 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  "Prompt alignment, turn relevancy and conversational G-Eval": {
    verdicts: [{ verdicts: [v("no", "Two sentences: 'It opens at 9am. Tickets are 12 euros.'"), v("yes")] }],
    turn_verdict: [v("yes"), v("no", "'Our museum was founded in 1901.' does not say whether there is a café.")],
    reason_score: [{ reason: "The opening hours are given, but the café question is ignored.", score: 7 }],
    reason: Array.from({ length: 2 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
};

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
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
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
