// The 1M-row run of `evalkern score` (a benchmark, not a test): 1,000,000 pairs from the corpus
// generator (`testdata/corpus/make-pairs.mjs --seed 9 --count 1000000 --no-edge`), scored with BLEU, chrF, ROUGE-L and
// token F1 through the built command as a child process. Reports wall time per phase and the peak RSS
// of the process (its worker threads included), sampled from /proc.
//
//   node bench/score-1m.mjs [--rows 1000000] [--workers N] [--keep]
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rows = Number(opt("rows", "1000000"));
const workers = opt("workers", String(availableParallelism()));
const root = fileURLToPath(new URL("..", import.meta.url));
const repo = join(root, "../..");
const bin = join(root, "dist/bin.js");
if (!existsSync(bin))
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });

const dir = mkdtempSync(join(tmpdir(), "evalkern-bench-"));
const input = join(dir, "pairs.jsonl");
const generator = join(repo, "testdata/corpus/make-pairs.mjs");
const t = performance.now();
await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [generator, "--seed", "9", "--count", String(rows), "--no-edge"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.pipe(createWriteStream(input));
  child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`make-pairs exited ${code}`))));
});
console.log(
  `input: ${rows.toLocaleString("en-US")} rows (make-pairs.mjs --seed 9 --no-edge), ${(statSync(input).size / 1e6).toFixed(1)} ` +
    `MB, made in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

/** Run the command; resolve with wall ms and peak RSS (MiB) sampled from /proc/<pid>/status. */
function run(cliArgs) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...cliArgs], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let peak = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // exited
      }
    };
    const timer = setInterval(sample, 50);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", () => sample());
    child.on("close", (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`evalkern ${cliArgs[0]} exited ${code}\n${stderr}`));
      else resolve({ ms: performance.now() - started, peakMiB: peak, stdout, stderr });
    });
  });
}

const metrics = ["bleu", "chrf", "rougeL", "f1"].flatMap((m) => ["--metric", m]);
const results = [];
for (const [label, extra] of [
  ["score (no CIs)", ["--no-ci"]],
  ["score (95% CIs, 1000 resamples)", []],
]) {
  const out = join(dir, "out.jsonl");
  const r = await run(["score", input, ...metrics, "-o", out, "--workers", workers, "--no-progress", ...extra]);
  results.push([label, r.ms, r.peakMiB]);
  console.log(
    `${label}: ${(r.ms / 1000).toFixed(1)} s wall, peak RSS ${r.peakMiB.toFixed(0)} MiB, ` +
      `${Math.round((rows * 1000) / r.ms).toLocaleString("en-US")} rows/s`,
  );
  if (label.startsWith("score (95%")) console.log(r.stdout.split("\n").slice(0, 10).join("\n"));
}
const rep = await run(["report", join(dir, "out.jsonl"), "-o", join(dir, "report.html")]);
results.push(["report", rep.ms, rep.peakMiB]);
console.log(
  `report: ${(rep.ms / 1000).toFixed(1)} s wall, peak RSS ${rep.peakMiB.toFixed(0)} MiB, ` +
    `${(statSync(join(dir, "report.html")).size / 1024).toFixed(0)} KiB of HTML`,
);

console.log(`\n| step | wall | peak RSS |\n|---|---|---|`);
for (const [label, ms, mib] of results) console.log(`| ${label} | ${(ms / 1000).toFixed(1)} s | ${mib.toFixed(0)} MiB |`);
console.log(`\n${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus()[0]?.model ?? "?"} · ${workers} workers`);
if (!args.includes("--keep")) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
