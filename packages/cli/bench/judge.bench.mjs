#!/usr/bin/env node
// `evalkern judge` at the server's pace (a benchmark script, not a test; issue 23, target 5). It measures
// the command as a user meets it, so it lives with the CLI: a fresh `evalkern judge` process over RAG rows
// × faithfulness + answer-relevancy against a scripted OpenAI-compatible server on 127.0.0.1 that answers
// every call after a fixed delay, then the same command again from the replay cache with the server down.
//
//   node bench/judge.bench.mjs                              # 2,000 rows, --concurrency 64, 200 ms per call
//   node bench/judge.bench.mjs --rows 500 --delay 200 --concurrency 64
//   node bench/judge.bench.mjs --cpu-prof /tmp/prof         # also write the judge process's CPU profile
//   node bench/judge.bench.mjs --bin /path/to/other/packages/cli/dist/bin.js
//
// The server is a separate process (this file with --serve), so its CPU is not counted as the client's.
// It replies with valid structured output for each kind of prompt (truths, claims, statements, verdicts
// with exactly the count asked for, reason). The rows are generated deterministically. The judge's CPU
// (user + system, all its threads) comes from /usr/bin/time, else from the OS's rusage of the child.
//
// Targets: wall ≤ 1.2 × ideal (calls × delay / concurrency), client CPU ≤ 1 ms per call, replay ≤ 2 s.
// Wall is noisy on a loaded machine: the load average is printed with the figures.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------------------------------------------
// the scripted server (a child process)
// ---------------------------------------------------------------------------------------------------

/** Deterministic words of a prompt's text, for replies that differ per row. */
function wordsOf(text, n) {
  return text.split(/\s+/).filter(Boolean).slice(0, n).join(" ");
}

/** The structured reply to one chat request, by its schema name (or, without one, by its prompt). */
function replyContent(body) {
  const prompt = String(body.messages?.at(-1)?.content ?? "");
  const name =
    body.response_format?.json_schema?.name ??
    (/"truths"/.test(prompt)
      ? "truths"
      : /"claims"/.test(prompt)
        ? "claims"
        : /"statements"/.test(prompt)
          ? "statements"
          : /"verdicts"/.test(prompt)
            ? "verdicts"
            : "reason");
  const text = prompt.slice(prompt.indexOf("Text:\n") + 6);
  switch (name) {
    case "truths":
      return { truths: [1, 2, 3].map((i) => `Truth ${i}: ${wordsOf(text, 6 + i)}.`) };
    case "claims":
      return { claims: [1, 2, 3].map((i) => `Claim ${i}: ${wordsOf(text, 4 + i)}.`) };
    case "statements":
      return { statements: [1, 2, 3].map((i) => `Statement ${i}: ${wordsOf(text, 3 + i)}.`) };
    case "verdicts": {
      // one verdict per listed claim or statement (the JSON array after "Claims:" / "Statements:")
      const at = Math.max(prompt.lastIndexOf("Claims:\n"), prompt.lastIndexOf("Statements:\n"));
      const start = prompt.indexOf("[", at);
      const items = JSON.parse(prompt.slice(start, prompt.indexOf("\n]", start) + 2));
      const words = ["yes", "yes", "no", "idk"];
      return {
        verdicts: items.map((item, i) => {
          const verdict = words[(prompt.length + i) % words.length];
          return { verdict, reason: verdict === "yes" ? null : `"${item}" is ${verdict}.` };
        }),
      };
    }
    default:
      return { reason: `The score is what it is because of ${wordsOf(prompt.slice(prompt.indexOf("Score:")), 3)}.` };
  }
}

/** Serve chat completions after `delay` ms; GET /stats reports requests, peak and mean in flight. */
function serve(delay) {
  let requests = 0;
  let inflight = 0;
  let peak = 0;
  let busyArea = 0; // ∫ inflight dt, in request·ms
  let lastChange = 0;
  let first = 0;
  let last = 0;
  const change = (d) => {
    const now = performance.now();
    if (first === 0) first = now;
    busyArea += inflight * (now - (lastChange || now));
    lastChange = now;
    inflight += d;
    if (inflight > peak) peak = inflight;
    last = now;
  };
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/stats") {
      const span = last - first;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ requests, peak, meanInFlight: span > 0 ? busyArea / span : 0, spanMs: span }));
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      requests++;
      change(1);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const content = JSON.stringify(replyContent(body));
      const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
      const reply = JSON.stringify({
        id: `chatcmpl-${requests}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4) },
      });
      setTimeout(() => {
        res.setHeader("content-type", "application/json");
        res.end(reply);
        change(-1);
      }, delay);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.stdout.write(`PORT ${server.address().port}\n`));
}

if (args[0] === "--serve") {
  serve(Number(opt("delay", "200")));
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------------
// the benchmark
// ---------------------------------------------------------------------------------------------------

/** A seeded generator (mulberry32), so every run judges the same rows. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` RAG rows: a question, an answer of three sentences, two or three retrieved documents. */
function ragRows(n, seed = 23) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const places = ["museum", "library", "station", "harbour", "castle", "gallery", "observatory", "garden", "market", "theatre"];
  const cities = ["Lyon", "Porto", "Ghent", "Turin", "Bergen", "Krakow", "Seville", "Graz", "Utrecht", "Tartu"];
  const facts = ["opens at", "closes at", "was built in", "is renovated in", "hosts a fair in", "charges extra in"];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const place = pick(places);
    const city = pick(cities);
    const hour = 7 + Math.floor(r() * 5);
    const year = 1700 + Math.floor(r() * 300);
    const docs = Array.from(
      { length: 2 + Math.floor(r() * 2) },
      (_, k) => `Row ${i}, document ${k + 1}: the ${place} of ${city} ${pick(facts)} ${hour + k}am; it was founded in ${year - k * 7}.`,
    );
    rows.push({
      id: `q${i}`,
      input: `Question ${i}: when does the ${place} of ${city} open, and how old is it?`,
      actual_output:
        `The ${place} of ${city} opens at ${hour}am. It was founded in ${year}. ` +
        `Visitors in row ${i} should ${pick(["book ahead", "arrive early", "bring cash", "check the website"])}.`,
      retrieval_context: docs,
    });
  }
  return rows;
}

function startServer(delay) {
  const child = spawn(process.execPath, [SELF, "--serve", "--delay", String(delay)], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on("exit", (code) => reject(new Error(`the scripted server exited (${code})`)));
  });
}

function getJson(port, path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET", agent: false }, (res) => {
      let s = "";
      res.on("data", (d) => (s += d));
      res.on("end", () => resolve(JSON.parse(s)));
    });
    req.on("error", reject);
    req.end();
  });
}

/** One `evalkern judge` process: wall, CPU (user + system) and peak RSS, its exit code and its JSON summary. */
function runJudge(bin, argv, dir, cpuProf) {
  const timeFile = join(dir, "time.txt");
  const node = [process.execPath, ...(cpuProf ? ["--cpu-prof", "--cpu-prof-dir", cpuProf] : []), bin, ...argv];
  const useTime = existsSync("/usr/bin/time");
  const [cmd, cmdArgs] = useTime ? ["/usr/bin/time", ["-o", timeFile, "-f", "%e %U %S %M", ...node]] : [node[0], node.slice(1)];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      const wall = (performance.now() - started) / 1000;
      let cpu = Number.NaN;
      let rssMb = Number.NaN;
      if (useTime && existsSync(timeFile)) {
        const line = readFileSync(timeFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
        cpu = line[1] + line[2];
        rssMb = line[3] / 1024;
      }
      let summary;
      try {
        summary = JSON.parse(stdout);
      } catch {
        summary = undefined;
      }
      resolve({ code, wall, cpu, rssMb, summary, stderr });
    });
  });
}

function portClosed(port) {
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/stats", agent: false }, () => resolve(false));
    req.on("error", () => resolve(true));
    req.end();
  });
}

async function main() {
  const rowsN = Number(opt("rows", "2000"));
  const concurrency = Number(opt("concurrency", "64"));
  const delay = Number(opt("delay", "200"));
  const bin = opt("bin") ?? fileURLToPath(new URL("../dist/bin.js", import.meta.url));
  const cpuProf = opt("cpu-prof");
  const dir = mkdtempSync(join(tmpdir(), "evalkern-judge-bench-"));
  try {
    const input = join(dir, "rag.jsonl");
    writeFileSync(
      input,
      ragRows(rowsN)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(""),
    );
    const { child: server, port } = await startServer(delay);
    const metrics = ["--metric", "faithfulness", "--metric", "answer-relevancy"];
    const common = [...metrics, "--model", "bench-judge", "--cache", "cache.jsonl", "--concurrency", String(concurrency), "--json"];
    const liveArgs = ["judge", "rag.jsonl", "-o", "live.jsonl", ...common, "--base-url", `http://127.0.0.1:${port}/v1`, "--api-key", "x"];
    const load = loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
    const live = await runJudge(bin, liveArgs, dir, cpuProf);
    const stats = await getJson(port, "/stats");
    server.kill();
    await new Promise((resolve) => server.once("exit", resolve));
    if (!(await portClosed(port))) throw new Error("the scripted server is still answering");
    const replayArgs = ["judge", "rag.jsonl", "-o", "replay.jsonl", ...common, "--replay"];
    const replay = await runJudge(bin, replayArgs, dir, undefined);
    report({ rowsN, concurrency, delay, load, live, replay, stats, liveArgs, replayArgs, dir });
  } finally {
    if (!args.includes("--keep")) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

/** Scores of a judged file, for the check that the replay gives the same ones. */
function scoresOf(file) {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => {
      const o = JSON.parse(l);
      return `${o.faithfulness?.score}|${o["answer-relevancy"]?.score}`;
    })
    .join("\n");
}

function report({ rowsN, concurrency, delay, load, live, replay, stats, liveArgs, replayArgs, dir }) {
  if (live.code !== 0 || !live.summary) throw new Error(`the live run failed (exit ${live.code}):\n${live.stderr.slice(-2000)}`);
  if (replay.code !== 0 || !replay.summary) throw new Error(`the replay failed (exit ${replay.code}):\n${replay.stderr.slice(-2000)}`);
  const cost = live.summary.judge.cost;
  const calls = stats.requests;
  if (cost.requests !== calls) throw new Error(`the ledger counts ${cost.requests} requests, the server ${calls}`);
  const sameScores = scoresOf(join(dir, "live.jsonl")) === scoresOf(join(dir, "replay.jsonl"));
  if (!sameScores) throw new Error("the replay's scores differ from the live run's");
  const ideal = (calls * delay) / 1000 / concurrency;
  const ratio = live.wall / ideal;
  const cpuPerCall = (live.cpu * 1000) / calls;
  // DeepEval's a_measure per test case, include_reason=True (the default; see the README for the lines):
  // Faithfulness truths ∥ claims → verdicts → reason = 4; AnswerRelevancy statements → verdicts → reason = 3.
  const deepeval = 4 + 3;
  const pass = (ok) => (ok ? "PASS" : "MISS");
  const lines = [
    `command   evalkern ${liveArgs.join(" ").replace(/--base-url \S+/, "--base-url http://127.0.0.1:PORT/v1")}`,
    `replay    evalkern ${replayArgs.join(" ")}   (server down)`,
    `server    scripted, 127.0.0.1, ${delay} ms per call, separate process; load average ${load}`,
    `rows      ${rowsN.toLocaleString("en-US")} × faithfulness + answer-relevancy`,
    `calls     ${calls.toLocaleString("en-US")} HTTP requests (${cost.calls} judge calls, ${cost.failedCalls} failed)`,
    `calls/row ${(cost.calls / rowsN).toFixed(2)} judge calls, ${(calls / rowsN).toFixed(2)} requests (identical prompts answered ` +
      `by the cache); DeepEval's structure ${deepeval} (faithfulness 4, answer relevancy 3)`,
    `wall      ${live.wall.toFixed(2)} s; ideal ${ideal.toFixed(2)} s (calls × ${delay} ms / ${concurrency}); ` +
      `wall/ideal ${ratio.toFixed(3)}`,
    `in flight mean ${stats.meanInFlight.toFixed(1)} of ${concurrency} at the server (peak ${stats.peak}) ` +
      `over ${(stats.spanMs / 1000).toFixed(2)} s`,
    `client    ${live.cpu.toFixed(2)} CPU-s = ${cpuPerCall.toFixed(3)} ms per call; peak RSS ${live.rssMb.toFixed(0)} MB`,
    `replay    ${replay.wall.toFixed(2)} s wall, ${replay.cpu.toFixed(2)} CPU-s, same scores: ${sameScores}`,
    "",
    `${pass(ratio <= 1.2)}  wall ≤ 1.2 × ideal (${ratio.toFixed(3)})`,
    `${pass(cpuPerCall <= 1)}  client CPU ≤ 1 ms per call (${cpuPerCall.toFixed(3)} ms)`,
    `${pass(replay.wall <= 2)}  replay ≤ 2 s (${replay.wall.toFixed(2)} s)`,
  ];
  console.log(lines.join("\n"));
}
