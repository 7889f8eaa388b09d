// Runs the same vitest test files (test/**/*.test.ts) in three runtimes, one after the other:
//
//   node     vitest under Node                       (vitest.config.ts)
//   deno     vitest itself under Deno 2.9            (vitest.config.ts, `deno run -A vitest.mjs run`)
//   browser  vitest browser mode, headless Chromium  (vitest.browser.config.ts, /usr/bin/chromium)
//
// Under Deno the whole of vitest runs in Deno: the CLI, Vite's transform and the fork pool's workers
// (Deno's `child_process.fork` starts Deno again), so the test code executes in Deno's V8, with the
// `Deno` global present; test/loader.test.ts checks that against EVALKERN_TEST_RUNTIME, which this
// script sets per suite, and prints the runtime it found.
//
// Usage: node scripts/test-all.mjs [node] [deno] [browser] [-- extra vitest args]
// Every suite runs even if an earlier one failed; the exit code is non-zero if any failed. Each suite
// prints vitest's own summary, then this script prints one "<runtime>: N passed, N failed, N skipped"
// line per runtime and a "total:" line. The JSON reports stay in .test-results/<runtime>.json (the
// workspace's scripts/test-summary.mjs adds them up across packages).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const workspaceRoot = join(packageRoot, "..", "..");
const require = createRequire(import.meta.url);
const vitestCli = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const resultsDir = join(packageRoot, ".test-results");
const chromium = process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium";

const ALL = ["node", "deno", "browser"];
const dashDash = process.argv.indexOf("--");
const selected = (dashDash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashDash)).filter(Boolean);
const extraArgs = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
for (const name of selected) {
  if (!ALL.includes(name)) {
    console.error(`test-all: unknown runtime "${name}" (expected ${ALL.join(", ")})`);
    process.exit(2);
  }
}
const runtimes = selected.length > 0 ? ALL.filter((name) => selected.includes(name)) : ALL;

/** The Deno binary from the `deno-cli` devDependency (npm `deno`), without its Node wrapper process. */
function denoBinary() {
  // install_api.runInstall() finds the binary of the platform package (and caches a hard link to it
  // in the package folder); this is what the package's own bin.cjs does before it spawns Deno.
  const { runInstall } = require("deno-cli/install_api.cjs");
  return runInstall();
}

/** Installs Debian's chromium through the workspace script when it is missing. */
function ensureChromium() {
  if (existsSync(chromium)) return;
  console.log(`test-all: ${chromium} is missing, running scripts/ensure-chromium.sh`);
  const result = spawnSync("bash", [join(workspaceRoot, "scripts", "ensure-chromium.sh")], { stdio: "inherit" });
  if (result.status !== 0 || !existsSync(chromium)) {
    throw new Error(`Chromium is not available at ${chromium} (scripts/ensure-chromium.sh exited ${result.status})`);
  }
}

function vitestArgs(name, config) {
  return [
    vitestCli,
    "run",
    "--config",
    config,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${join(resultsDir, `${name}.json`)}`,
    ...extraArgs,
  ];
}

const suites = {
  node: () => ({ command: process.execPath, args: vitestArgs("node", "vitest.config.ts") }),
  deno: () => ({
    command: denoBinary(),
    // -A: vitest needs files, env, subprocesses and a local port. No update check, no prompts: CI has
    // no network beyond the npm registry and no stdin.
    args: ["run", "-A", "--no-prompt", ...vitestArgs("deno", "vitest.config.ts")],
    env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
  }),
  browser: () => {
    ensureChromium();
    return { command: process.execPath, args: vitestArgs("browser", "vitest.browser.config.ts") };
  },
};

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: packageRoot, stdio: "inherit", env: { ...process.env, ...env } });
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", (error) => {
      console.error(`test-all: could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function readCounts(name) {
  try {
    const report = JSON.parse(readFileSync(join(resultsDir, `${name}.json`), "utf8"));
    return {
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
      files: report.numTotalTestSuites ?? 0,
    };
  } catch {
    return undefined;
  }
}

// Only this run's reports go: a concurrent `test:deno` must not wipe the node report of a full run.
mkdirSync(resultsDir, { recursive: true });
for (const name of runtimes) rmSync(join(resultsDir, `${name}.json`), { force: true });

const rows = [];
for (const name of runtimes) {
  console.log(`\n=== core-wasm tests: ${name} ===`);
  const started = performance.now();
  let code;
  try {
    const { command, args, env } = suites[name]();
    code = await run(command, args, { ...env, EVALKERN_TEST_RUNTIME: name });
  } catch (error) {
    console.error(`test-all: ${name}: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const counts = readCounts(name);
  // A suite that crashed before writing its report, or ran nothing, is a failure too.
  const ok = code === 0 && counts !== undefined && counts.failed === 0 && counts.passed > 0;
  rows.push({ name, code, seconds, counts, ok });
}

console.log("\n=== core-wasm tests: summary ===");
let passed = 0;
let failed = 0;
let skipped = 0;
for (const { name, code, seconds, counts, ok } of rows) {
  const time = `${seconds.toFixed(1)} s`;
  if (counts) {
    passed += counts.passed;
    // A non-zero exit with no failed test (a crash, an unhandled error, no test files) counts as one.
    const suiteFailed = counts.failed + (ok || counts.failed > 0 ? 0 : 1);
    failed += suiteFailed;
    skipped += counts.skipped;
    console.log(`${name}: ${counts.passed} passed, ${suiteFailed} failed, ${counts.skipped} skipped`);
    console.log(`  (${time}, exit ${code}${ok ? "" : " FAILED"})`);
  } else {
    failed += 1;
    console.log(`${name}: 0 passed, 1 failed, 0 skipped`);
    console.log(`  (${time}, exit ${code}, no report: the suite did not run)`);
  }
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(rows.every((row) => row.ok) ? 0 : 1);
