// Rows per second in the page (Chromium, Web Workers, one per core) vs the Node CLI (`evalkern score
// --report`, worker threads, one per core: the same work, scores, CIs and the HTML report) on the same seed-9 rows, the same
// metrics (the CLI's defaults) and the
// same cores, both with 1000-resample bootstrap CIs. End to end: the page's time runs from the Score
// click to `data-state="done"` (scoring, CIs, report), the CLI's is the whole process (start-up,
// scoring, CIs, summary). The scoring phase alone is compared too (the CLI's `timings.scoreMs`, the
// page's `evalkernResult.scoreMs`). Also checks that the page's corpus scores equal the CLI's.
//
//   node bench/page.bench.mjs [--count 100000] [--pairs file.jsonl] [--quick] [--no-cli]
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { benchArgs, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { startServer } from "../scripts/serve.mjs";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = resolve(pkg, "../cli/dist/bin.js");
const args = benchArgs();
if (args.quick) args.count = Math.min(args.count, 10000);
const { file } = loadBenchPairs(args);
const rows = args.count;
const cores = availableParallelism();
if (!existsSync(join(pkg, "dist/index.html"))) throw new Error("build the app first: pnpm --filter @evalkern/web run build");
const noCli = process.argv.includes("--no-cli");
if (!noCli && !existsSync(cli)) throw new Error("build the CLI first: pnpm --filter @evalkern/cli run build");

const dir = mkdtempSync(join(tmpdir(), "evalkern-web-bench-"));
copyFileSync(file, join(dir, "bench.jsonl"));

// ---- the CLI
const t0 = performance.now();
const out = noCli
  ? JSON.stringify({ metrics: [], timings: { scoreMs: NaN } })
  : execFileSync(
      process.execPath,
      [
        cli,
        "score",
        file,
        "-o",
        join(dir, "cli.scored.jsonl"),
        "--json",
        "--no-progress",
        "--workers",
        String(cores),
        "--report",
        join(dir, "cli.report.html"),
      ],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
const cliMs = performance.now() - t0;
const cliJson = JSON.parse(out);

// ---- the page
const server = await startServer({ root: join(pkg, "dist"), mounts: { "/data/": dir } });
const browser = await chromium.launch({
  executablePath: process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
let page;
try {
  page = await browser.newPage();
  await page.goto(`${server.url}?workers=${cores}`);
  await page.waitForFunction(() => document.getElementById("workers").textContent !== "");
  // give the page the file as a user would (file picker), then score with the defaults
  await page.setInputFiles("#file", join(dir, "bench.jsonl"));
  await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 120_000 });
  // the main thread must stay responsive while scoring: count animation frames and the longest gap
  await page.evaluate(() => {
    window.__frames = { n: 0, maxGap: 0, last: performance.now() };
    const tick = () => {
      const now = performance.now();
      window.__frames.maxGap = Math.max(window.__frames.maxGap, now - window.__frames.last);
      window.__frames.last = now;
      window.__frames.n++;
      if (document.body.dataset.state !== "done") requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.click("#score");
  await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state), null, { timeout: 1_200_000, polling: 500 });
  const state = await page.evaluate(() => document.body.dataset.state);
  if (state !== "done") throw new Error(`page: ${await page.textContent("#message")}`);
  const result = await page.evaluate(() => window.evalkernResult);
  const frames = await page.evaluate(() => window.__frames);

  const pageRate = (rows / result.elapsedMs) * 1000;
  const pageScoreRate = (rows / result.scoreMs) * 1000;
  console.log(
    `rows: ${rows.toLocaleString("en-US")} (seed 9), metrics: ${Object.keys(result.metrics).join(", ")}, cores: ${cores}, ` +
      `1000-resample CIs`,
  );
  console.log(
    `page (Chromium, ${result.workers} Web Workers): ${(result.elapsedMs / 1000).toFixed(2)} s from Score to done → ` +
      `${Math.round(pageRate).toLocaleString("en-US")} rows/s (scoring phase alone ${(result.scoreMs / 1000).toFixed(2)} s → ` +
      `${Math.round(pageScoreRate).toLocaleString("en-US")} rows/s)`,
  );
  console.log(`main thread while scoring: ${frames.n} frames, longest gap ${Math.round(frames.maxGap)} ms`);
  let same = true;
  if (!noCli) {
    same = cliJson.metrics.every((m) => JSON.stringify(m.corpus) === JSON.stringify(result.metrics[m.name].scores));
    const cliRate = (rows / cliMs) * 1000;
    const cliScoreRate = (rows / cliJson.timings.scoreMs) * 1000;
    console.log(
      `CLI  (evalkern score --report, ${cores} worker threads): ${(cliMs / 1000).toFixed(2)} s wall → ` +
        `${Math.round(cliRate).toLocaleString("en-US")} rows/s (scoring phase alone ` +
        `${(cliJson.timings.scoreMs / 1000).toFixed(2)} s → ${Math.round(cliScoreRate).toLocaleString("en-US")} rows/s)`,
    );
    console.log(
      `page / CLI: ${((pageRate / cliRate) * 100).toFixed(0)} % of the CLI's throughput end to end, ` +
        `${((pageScoreRate / cliScoreRate) * 100).toFixed(0)} % in the scoring phase alone (target ≥ 50 %)`,
    );
    console.log(`corpus scores identical to the CLI's: ${same ? "yes" : "NO"}`);
  }
  if (!same) process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
