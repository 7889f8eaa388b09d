// Every command refuses, before any work, an output that would destroy one of its inputs, another of its
// outputs or a run's sidecar, and an output that is a directory (issue 19 item 9). Each case runs the
// built CLI on real files and checks the exit code (2, usage), the message naming both sides of the
// clash, and that the input is byte for byte what it was.
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir, type CliResult } from "./support/cli.js";

const ROWS = [
  { id: "a", hyp: "the cat sat on the mat", refs: ["the cat sat on the mat"] },
  { id: "b", hyp: "a dog ran", refs: ["the dog ran away"] },
  { id: "c", hyp: "hello world", refs: ["hello there world"] },
  { id: "d", hyp: "one two three", refs: ["one two four"] },
];
const JSONL = `${ROWS.map((r) => JSON.stringify(r)).join("\n")}\n`;

/** A fresh directory with `in.jsonl`. */
function fresh(): { dir: string; input: string } {
  const dir = tempDir("evalkern-outputs-");
  const input = join(dir, "in.jsonl");
  writeFileSync(input, JSONL);
  return { dir, input };
}

/** Every file under `dir` with its bytes (sidecars included), to show that nothing was written. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const p = join(e.parentPath, e.name);
      files.set(p, readFileSync(p).toString("base64"));
    }
  }
  return files;
}

/** Exit 2, a stderr line starting `evalkern: <message>`, and every file of `dir` unchanged (none added, none removed). */
async function refused(dir: string, args: readonly string[], message: string): Promise<CliResult> {
  const before = snapshot(dir);
  const r = await runCli([...args], { cwd: dir, timeoutMs: 60_000 });
  expect(r.stderr.split("\n").find((l) => l.startsWith("evalkern: "))).toMatch(new RegExp(`^evalkern: ${message}`));
  expect(r.code).toBe(2);
  expect(snapshot(dir)).toEqual(before);
  return r;
}

/** The message of an output that is an input, as a pattern (`.` and `/` escaped). */
const clash = (output: string, input: string): string =>
  `${esc(output)} is the same file as ${esc(input)}: writing it would destroy the input`;
const both = (a: string, b: string): string => `${esc(a)} and ${esc(b)} are the same file: each output needs its own path`;
const inside = (output: string, sidecar: string): string =>
  `${esc(output)} is inside ${esc(sidecar)}/, the sidecar where evalkern keeps the run of`;
const esc = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("score", () => {
  const score = (...args: string[]) => ["score", ...args, "--no-progress"];

  it("-o <input> (the same file named as ./x, through a symlink, and through a hard link)", async () => {
    const { dir, input } = fresh();
    await refused(dir, score(input, "-o", "./in.jsonl"), clash("-o ./in.jsonl", `the input ${input}`));
    symlinkSync(input, join(dir, "link.jsonl"));
    await refused(dir, score("in.jsonl", "-o", "link.jsonl"), clash("-o link.jsonl", "the input in.jsonl"));
    linkSync(input, join(dir, "hard.jsonl"));
    await refused(dir, score("in.jsonl", "-o", "hard.jsonl"), clash("-o hard.jsonl", "the input in.jsonl"));
    // the other way round: the input is the link
    await refused(dir, score("link.jsonl", "-o", "in.jsonl"), clash("-o in.jsonl", "the input link.jsonl"));
  });

  it("--report <input>, before scoring (no output or sidecar appears)", async () => {
    const { dir } = fresh();
    await refused(dir, score("in.jsonl", "-o", "out.jsonl", "--report", "in.jsonl"), clash("--report in.jsonl", "the input in.jsonl"));
    // with the default output too
    await refused(dir, score("in.jsonl", "--report", "./in.jsonl"), clash("--report ./in.jsonl", "the input in.jsonl"));
  });

  it("-o X --report X: the HTML report would be written over the rows", async () => {
    const { dir } = fresh();
    await refused(dir, score("in.jsonl", "-o", "out.jsonl", "--report", "out.jsonl"), both("-o out.jsonl", "--report out.jsonl"));
    const defaultOutput = both("the default output in.scored.jsonl", "--report in.scored.jsonl");
    await refused(dir, score("in.jsonl", "--report", "in.scored.jsonl"), defaultOutput);
  });

  it("-o or --report naming a directory fails before scoring", async () => {
    const { dir } = fresh();
    mkdirSync(join(dir, "results"));
    await refused(dir, score("in.jsonl", "-o", "results"), "-o results is a directory: give a file path");
    expect(existsSync(join(dir, "results.evalkern"))).toBe(false);
    await refused(dir, score("in.jsonl", "-o", "out.jsonl", "--report", "results"), "--report results is a directory");
    expect(existsSync(join(dir, "out.jsonl"))).toBe(false);
  });

  it("-o into another run's sidecar (it replaced that run's statistics) and --report into its own", async () => {
    const { dir } = fresh();
    const first = await runCli(score("in.jsonl", "-o", "prev.jsonl", "--metric", "bleu", "--no-ci"), { cwd: dir });
    expect(first.code).toBe(0);
    const stats = readdirSync(join(dir, "prev.jsonl.evalkern")).find((f) => f.endsWith(".f32"));
    expect(stats).toBe("rows.jsonl.stats.f32");
    const into = `prev.jsonl.evalkern/${stats}`;
    await refused(dir, score("in.jsonl", "-o", into), `${inside(`-o ${into}`, "prev.jsonl.evalkern")} ${esc("prev.jsonl")}`);
    const own = esc("--report new.jsonl.evalkern is the sidecar directory of -o new.jsonl");
    await refused(dir, score("in.jsonl", "-o", "new.jsonl", "--report", "new.jsonl.evalkern"), own);
    // the first run is still whole: report reads it
    const report = await runCli(["report", "prev.jsonl", "-o", "r.html"], { cwd: dir });
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
  });
});

describe("report, merge", () => {
  let dir: string;
  beforeAll(async () => {
    dir = fresh().dir;
    for (const s of [1, 2]) {
      const args = ["score", "in.jsonl", "-o", `s${s}.jsonl`, "--shard", `${s}/2`, "--metric", "bleu", "--no-progress", "--no-ci"];
      const r = await runCli(args, { cwd: dir });
      expect(r.code).toBe(0);
    }
  });

  it("report X -o X, and -o inside X's sidecar", async () => {
    await refused(dir, ["report", "s1.jsonl", "-o", "s1.jsonl"], clash("-o s1.jsonl", "the results file s1.jsonl"));
    await refused(dir, ["report", "s1.jsonl", "s2.jsonl", "-o", "./s1.jsonl"], clash("-o ./s1.jsonl", "the baseline s1.jsonl"));
    const into = "s1.jsonl.evalkern/run.json";
    await refused(dir, ["report", "s1.jsonl", "-o", into], inside(`-o ${into}`, "s1.jsonl.evalkern"));
  });

  it("merge s1 s2 -o s1, and -o into a shard's sidecar", async () => {
    await refused(dir, ["merge", "s1.jsonl", "s2.jsonl", "-o", "s1.jsonl"], clash("-o s1.jsonl", "the shard s1.jsonl"));
    const into = "s2.jsonl.evalkern/merged.jsonl";
    await refused(dir, ["merge", "s1.jsonl", "s2.jsonl", "-o", into], inside(`-o ${into}`, "s2.jsonl.evalkern"));
    const ok = await runCli(["merge", "s1.jsonl", "s2.jsonl", "-o", "merged.jsonl"], { cwd: dir });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
  });
});

describe("judge", () => {
  // the check comes before any request: the endpoint is a closed port on loopback that is never called
  const endpoint = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k", "--no-progress"];
  const judge = (...args: string[]) => ["judge", "rag.jsonl", "--metric", "faithfulness", ...endpoint, ...args];
  let dir: string;
  beforeAll(() => {
    dir = tempDir("evalkern-outputs-");
    writeFileSync(join(dir, "rag.jsonl"), `${JSON.stringify({ input: "q", actual_output: "a", retrieval_context: ["a"] })}\n`);
  });

  it("-o, --cache and --report naming the input", async () => {
    await refused(dir, judge("-o", "rag.jsonl"), clash("-o rag.jsonl", "the input rag.jsonl"));
    await refused(dir, judge("--cache", "./rag.jsonl"), clash("--cache ./rag.jsonl", "the input rag.jsonl"));
    await refused(dir, judge("--report", "rag.jsonl"), clash("--report rag.jsonl", "the input rag.jsonl"));
  });

  it("outputs naming each other", async () => {
    await refused(dir, judge("-o", "out.jsonl", "--cache", "out.jsonl"), both("-o out.jsonl", "--cache out.jsonl"));
    await refused(dir, judge("--cache", "c.jsonl", "--report", "c.jsonl"), both("--cache c.jsonl", "--report c.jsonl"));
  });
});

describe("run", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("evalkern-outputs-");
    writeFileSync(join(dir, "qa.jsonl"), `${JSON.stringify({ question: "2 + 2?", answer: "4", response: "4" })}\n`);
    // responseField: the responses are in the dataset, so no endpoint is involved at all
    const definition = {
      name: "qa",
      dataset: "qa.jsonl",
      prompt: "{question}",
      targetField: "answer",
      responseField: "response",
      scorer: "exactMatch",
    };
    writeFileSync(join(dir, "qa.json"), JSON.stringify(definition));
  });

  it("--predictions <dataset>, -o <dataset>, -o <benchmark file>, -o X --predictions X", async () => {
    const run = (...args: string[]) => ["run", "qa.json", ...args, "--no-progress"];
    const dataset = `the dataset ${join(dir, "qa.jsonl")}`; // the definition's path, resolved against its file
    await refused(dir, run("--predictions", "qa.jsonl"), clash("--predictions qa.jsonl", dataset));
    await refused(dir, run("-o", "./qa.jsonl"), clash("-o ./qa.jsonl", dataset));
    await refused(dir, run("-o", "qa.json"), clash("-o qa.json", "the benchmark file qa.json"));
    await refused(dir, run("-o", "r.json", "--predictions", "r.json"), both("-o r.json", "--predictions r.json"));
    // the same benchmark with distinct outputs runs
    const ok = await runCli(run("-o", "r.json", "--predictions", "p.jsonl"), { cwd: dir });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).tasks.qa.metrics["pass@1"].scores.correct.value).toBe(1);
  });
});
