#!/usr/bin/env node
// Stress run of small `evalkern score` calls (a benchmark script, not a test): it looks for the rare run
// that dies by a signal with nothing on stdout (issue 19: a worker thread terminated while it was still
// compiling the WebAssembly module crashed the whole process). Each run scores the bundled example
// (300 rows: one chunk, so with two threads one of them has nothing to do) with --json --no-ci in a
// fresh child process, `--parallel` runs at a time. A run passes when it exits 0 and its stdout parses as
// the JSON summary; any other outcome is listed with its exit code or signal and the end of its stderr.
// With `--cores`, core dumps of crashed runs are kept in the run's directory (ulimit -c unlimited).
//
//   node bench/score-stress.mjs                      # 200 runs, 2 at a time
//   node bench/score-stress.mjs --runs 500 --parallel 4 --metric bleu --metric chrf
//   node bench/score-stress.mjs --bin /path/to/other/packages/cli/dist/bin.js
//
// Needs a build of the workspace (cli dist/). The machine may be shared: keep --parallel at or below
// the cores. Exits 1 when any run failed.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const all = (name) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]] : []));
const BIN = opt("bin") ?? fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const INPUT = opt("input") ?? fileURLToPath(new URL("../../../examples/pairs.jsonl", import.meta.url));
const runs = Number(opt("runs", "200"));
const parallel = Number(opt("parallel", "2"));
const metrics = all("metric").length > 0 ? all("metric") : ["bleu"];
const keepCores = args.includes("--cores");
const dir = mkdtempSync(join(tmpdir(), "evalkern-stress-"));

/** One CLI run in a fresh process: its exit code or signal, whether stdout was the JSON summary, and stderr's end. */
function runOnce(i) {
  const out = join(dir, `out-${i}.jsonl`);
  const cliArgs = [BIN, "score", INPUT, "-o", out, ...metrics.flatMap((m) => ["--metric", m]), "--no-ci", "--json", "--quiet"];
  // a shell only to raise the core-file limit of the child
  const [cmd, argv] = keepCores
    ? ["sh", ["-c", 'ulimit -c unlimited; exec "$0" "$@"', process.execPath, ...cliArgs]]
    : [process.execPath, cliArgs];
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code, signal) => {
      let json = false;
      try {
        json = typeof JSON.parse(stdout) === "object";
      } catch {
        // not the summary: a failure below
      }
      rmSync(out, { force: true });
      rmSync(`${out}.evalkern`, { recursive: true, force: true });
      resolve({ i, code, signal, json, ms: performance.now() - t0, stderr: stderr.slice(-600) });
    });
  });
}

const results = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Math.max(1, parallel) }, async () => {
    while (next < runs) {
      const r = await runOnce(next++);
      results.push(r);
      if (r.code !== 0 || !r.json)
        console.log(
          `run ${r.i}: ${r.signal ? `killed by ${r.signal}` : `exit ${r.code}`}${r.json ? "" : ", stdout is no JSON summary"}\n${r.stderr}`,
        );
    }
  }),
);
const failed = results.filter((r) => r.code !== 0 || !r.json);
const ms = results.map((r) => r.ms).sort((a, b) => a - b);
const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(0);
console.log(
  `${runs} runs of \`evalkern score ${metrics.map((m) => `--metric ${m}`).join(" ")} --no-ci --json\`, ${parallel} at a time, ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s`,
);
console.log(`per run: median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms`);
console.log(`failed: ${failed.length}${failed.length ? ` (${failed.map((r) => r.signal ?? `exit ${r.code}`).join(", ")})` : ""}`);
const cores = readdirSync(dir).filter((f) => f.startsWith("core"));
if (cores.length > 0) console.log(`core dumps kept in ${dir}: ${cores.join(", ")}`);
else rmSync(dir, { recursive: true, force: true });
process.exitCode = failed.length > 0 ? 1 : 0;
