// docs/spec/dsrs.md §3.3-3.4 and §6: SandboxMetric and TestPassMetric run real commands (argument vector, no shell,
// cwd, timeout killing the process tree, output cap, scrubbed environment) and keep dsrs's score shape.
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  DEFAULT_INHERITED_ENV,
  formatCommand,
  MetricScore,
  SandboxMetric,
  TestPassMetric,
  type CommandRequest,
  type CommandRun,
  type CommandRunner,
} from "../../src/dsrs/index.js";
import { runCommand } from "../../src/dsrs/process/node-runner.js";

const NODE = process.execPath;
const node = (script: string, ...args: string[]): string[] => [NODE, "-e", script, ...args];
const NO_INPUT = {};
const NO_OUTPUT = {};
const IS_POSIX = process.platform !== "win32";

const scratch = mkdtempSync(join(tmpdir(), "evalkern-dsrs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function request(argv: string[], extra: Partial<CommandRequest> = {}): CommandRequest {
  return { argv, inheritEnv: DEFAULT_INHERITED_ENV, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024, ...extra };
}

/** Alive and not a zombie (a container's PID 1 may not reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return !/^\d+ \(.*\) Z/.test(stat);
    } catch {
      return false;
    }
  }
  return true;
}

/** Polls until the process is gone (a killed process takes a moment to be reaped on a busy machine). */
async function diesWithin(pid: number, ms = 10_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (isAlive(pid)) {
    if (performance.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe("defaults and options (dsrs shape)", () => {
  it("SandboxMetric: name sandbox, cargo test, Medium (120 s), cost 500, tier truth", () => {
    const metric = new SandboxMetric();
    expect(metric).toMatchObject({
      name: "sandbox",
      commands: [["cargo", "test"]],
      profile: "Medium",
      timeoutMs: 120_000,
      costEstimate: 500,
      tier: "truth",
    });
    expect(metric.withProfile("Small").timeoutMs).toBe(60_000);
    expect(metric.withProfile("Large").timeoutMs).toBe(300_000);
    expect(metric.withCost(7).costEstimate).toBe(7);
    expect(metric.withName("s2").name).toBe("s2");
    expect(metric.withCommands([["a"], ["b", "c"]]).commands).toEqual([["a"], ["b", "c"]]);
    expect(metric.withTimeout(5).withProfile("Large").timeoutMs).toBe(5);
  });

  it("TestPassMetric: name tests_pass, cargo test, Medium, cost 500", () => {
    const metric = new TestPassMetric();
    expect(metric).toMatchObject({ name: "tests_pass", command: ["cargo", "test"], timeoutMs: 120_000, costEstimate: 500, tier: "truth" });
    expect(metric.withCommand(["npm", "test"]).command).toEqual(["npm", "test"]);
  });

  it("refuses shell strings: commands are argument vectors", () => {
    expect(() => new SandboxMetric({ commands: ["cargo test" as never] })).toThrow(InvalidArgumentError);
    expect(() => new TestPassMetric({ command: "npm test" as never })).toThrow(/not a shell string/);
    expect(() => new TestPassMetric({ command: [] })).toThrow(InvalidArgumentError);
    expect(() => new TestPassMetric({ command: ["a\0b"] })).toThrow(InvalidArgumentError);
  });

  it("validates the other options", () => {
    expect(() => new SandboxMetric({ timeoutMs: 0 })).toThrow(InvalidArgumentError);
    expect(() => new SandboxMetric({ profile: "Huge" as never })).toThrow(InvalidArgumentError);
    expect(() => new SandboxMetric({ env: { A: 1 as never } })).toThrow(InvalidArgumentError);
    expect(() => new SandboxMetric({ maxOutputBytes: -1 })).toThrow(InvalidArgumentError);
    expect(() => new SandboxMetric({ costMsats: 0.5 })).toThrow(InvalidArgumentError);
  });

  it("formats commands for details: plain arguments bare, others JSON-quoted", () => {
    expect(formatCommand(["cargo", "test", "--lib"])).toBe("cargo test --lib");
    expect(formatCommand(["node", "-e", "process.exit(1)", "a b", ""])).toBe('node -e "process.exit(1)" "a b" ""');
  });
});

describe("SandboxMetric against real processes", () => {
  it("pass: value 1, confidence 1, dsrs's details, cost 500", async () => {
    const score = await new SandboxMetric({ commands: [node("process.exit(0)")], timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 1, confidence: 1, costMsats: 500 });
    expect(score.details).toMatch(/^All 1 commands passed in \d+ms$/);
  });

  it("sums the durations of all commands", async () => {
    const metric = new SandboxMetric({ commands: [node(""), node("setTimeout(() => {}, 50)")], timeoutMs: 20_000 });
    const score = await metric.evaluate(NO_INPUT, NO_OUTPUT);
    const total = Number(/in (\d+)ms$/.exec(score.details ?? "")?.[1]);
    expect(score.details).toMatch(/^All 2 commands passed in \d+ms$/);
    expect(total).toBeGreaterThanOrEqual(50);
  });

  it("an empty command list passes (status Success, no runs)", async () => {
    const score = await new SandboxMetric({ commands: [] }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score.details).toBe("All 0 commands passed in 0ms");
  });

  it("fail: value 0, confidence 0.8, the failed command with its exit code, then the output tail", async () => {
    const argv = node("console.error('boom: assertion failed'); process.exit(3)");
    const score = await new SandboxMetric({ commands: [argv], timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 0, confidence: 0.8, costMsats: 500 });
    expect(score.details).toBe(`Failed commands: ${formatCommand(argv)} (exit 3)\nboom: assertion failed`);
  });

  it("expectedExitCode: a command exiting 3 passes with expectedExitCode 3 and fails with the default 0", async () => {
    const argv = node("console.error('expected failure'); process.exit(3)");
    const expected = await new SandboxMetric({ commands: [argv], timeoutMs: 20_000, expectedExitCode: 3 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(expected).toMatchObject({ value: 1, confidence: 1, costMsats: 500 });
    expect(expected.details).toMatch(/^All 1 commands passed in \d+ms$/);
    const byDefault = await new SandboxMetric({ commands: [argv], timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(byDefault).toMatchObject({ value: 0, confidence: 0.8 });
    expect(byDefault.details).toBe(`Failed commands: ${formatCommand(argv)} (exit 3)\nexpected failure`);
  });

  it("expectedExitCode: a clean exit fails when another code is expected, and the status says which was expected", async () => {
    const ok = node("process.exit(0)");
    const metric = new SandboxMetric({ commands: [ok, node("")], timeoutMs: 20_000 }).withExpectedExitCode(3);
    expect(metric.expectedExitCode).toBe(3);
    const score = await metric.evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 0, confidence: 0.8 });
    // The first command already missed the expected code, so the second never ran.
    expect(score.details).toBe(`Failed commands: ${formatCommand(ok)} (exit 0, expected 3)`);
    expect(new SandboxMetric().expectedExitCode).toBe(0);
    for (const bad of [-1, 1.5, 256, "3"]) {
      expect(() => new SandboxMetric({ expectedExitCode: bad as never })).toThrow(InvalidArgumentError);
    }
  });

  it("stops at the first failing command (continue_on_fail false)", async () => {
    const marker = join(scratch, "second-ran");
    const first = node("process.exit(1)");
    const metric = new SandboxMetric({
      commands: [first, node(`require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`)],
      timeoutMs: 20_000,
    });
    const score = await metric.evaluate(NO_INPUT, NO_OUTPUT);
    expect(score.details).toBe(`Failed commands: ${formatCommand(first)} (exit 1)`);
    expect(existsSync(marker)).toBe(false);
  });

  it("a program that cannot start is a failed run, not an exception", async () => {
    const score = await new SandboxMetric({ commands: [["evalkern-no-such-program-xyz", "--x"]] }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 0, confidence: 0.8 });
    expect(score.details).toMatch(
      /^Failed commands: evalkern-no-such-program-xyz --x \(error: spawn evalkern-no-such-program-xyz ENOENT\)$/,
    );
  });

  it("times out: ends within the timeout plus a small margin, reports it, and kills the process", async () => {
    const started = performance.now();
    const argv = node("setInterval(() => {}, 1000)");
    const score = await new SandboxMetric({ commands: [argv], timeoutMs: 500 }).evaluate(NO_INPUT, NO_OUTPUT);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(500 + 10_000); // the deadline holds; the margin is for a busy machine
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(score).toMatchObject({ value: 0, confidence: 0.8 });
    expect(score.details).toBe(`Failed commands: ${formatCommand(argv)} (timed out after 500ms)`);
  });

  it("one deadline covers all commands", async () => {
    const started = performance.now();
    const slow = node("setTimeout(() => {}, 400)");
    const score = await new SandboxMetric({ commands: [slow, slow, slow], timeoutMs: 600 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(performance.now() - started).toBeLessThan(600 + 10_000);
    expect(score.details).toContain("(timed out after 600ms)");
  });

  it("passes arguments literally: no shell interpretation", async () => {
    const marker = join(scratch, "pwned");
    const hostile = ["; echo pwned", `$(touch ${marker})`, "`touch " + marker + "`", "a b", "*", "|", "&&", "'\"", "$HOME"];
    const metric = new TestPassMetric({
      command: node("console.error(JSON.stringify(process.argv.slice(1))); process.exit(1)", ...hostile),
      timeoutMs: 20_000,
    });
    const score = await metric.evaluate(NO_INPUT, NO_OUTPUT);
    expect(score.details).toBe(`Tests failed (exit 1): ${JSON.stringify(hostile)}`);
    expect(existsSync(marker)).toBe(false);
  });

  it("runs in the working directory", async () => {
    const dir = mkdtempSync(join(scratch, "cwd-"));
    const score = await new TestPassMetric({
      command: node("console.log(process.cwd()); process.exit(9)"),
      cwd: dir,
      timeoutMs: 20_000,
    }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score.details).toBe(`Tests failed (exit 9): ${realpathSync(dir)}`);
  });

  it("a missing working directory is a typed error naming it (not a made-up 0)", async () => {
    const missing = join(scratch, "does-not-exist");
    const error = await new SandboxMetric({ commands: [node("")], cwd: missing }).evaluate(NO_INPUT, NO_OUTPUT).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "WorkingDirectoryNotFoundError", code: "WORKING_DIRECTORY_NOT_FOUND", path: missing });
  });

  it("pipes an output field to stdin when asked", async () => {
    const metric = new TestPassMetric({
      command: node(
        "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => { " +
          "console.log('got:' + s); process.exit(s === 'print(1)' ? 0 : 4); })",
      ),
      stdinField: "code",
      timeoutMs: 20_000,
    });
    expect((await metric.evaluate(NO_INPUT, { code: "print(1)" })).value).toBe(1);
    expect((await metric.evaluate(NO_INPUT, { code: "other" })).details).toBe("Tests failed (exit 4): got:other");
  });
});

describe("environment scrubbing", () => {
  const dumpEnv = node("console.log(JSON.stringify(process.env))");
  const envOf = (run: CommandRun): Record<string, string> => JSON.parse(run.stdout) as Record<string, string>;

  it("the metric hides parent variables outside the allow-list and adds explicit ones", async () => {
    process.env.EVALKERN_TEST_SECRET = "s3cret";
    try {
      const check = node("process.exit(process.env.EVALKERN_TEST_SECRET === undefined && process.env.EXTRA === 'yes' ? 0 : 1)");
      const score = await new TestPassMetric({ command: check, env: { EXTRA: "yes" }, timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
      expect(score.value).toBe(1);
    } finally {
      delete process.env.EVALKERN_TEST_SECRET;
    }
  });

  it("the child sees only allow-listed parent variables plus the explicit ones", async () => {
    process.env.EVALKERN_TEST_SECRET = "s3cret";
    try {
      const env = envOf(await runCommand(request(dumpEnv, { env: { EXTRA: "yes" } })));
      expect(env.EVALKERN_TEST_SECRET).toBeUndefined();
      expect(env.EXTRA).toBe("yes");
      expect(env.PATH).toBe(process.env.PATH);
      for (const key of Object.keys(env)) expect([...DEFAULT_INHERITED_ENV, "EXTRA"]).toContain(key);
    } finally {
      delete process.env.EVALKERN_TEST_SECRET;
    }
  });

  it("inheritEnv: [] passes nothing but the explicit variables", async () => {
    const env = envOf(await runCommand(request(dumpEnv, { inheritEnv: [], env: { ONLY: "1" } })));
    expect(env).toEqual({ ONLY: "1" });
  });

  it("explicit variables win over inherited ones", async () => {
    const env = envOf(await runCommand(request(dumpEnv, { inheritEnv: ["PATH"], env: { PATH: "/custom" } })));
    expect(env).toEqual({ PATH: "/custom" });
  });

  it("finds programs on the inherited PATH", async () => {
    const score = await new TestPassMetric({ command: ["node", "-e", "process.exit(0)"], timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score.value).toBe(1);
  });
});

describe("TestPassMetric details", () => {
  it("pass: Tests passed in <ms>ms, confidence 1, cost 500", async () => {
    const score = await new TestPassMetric({ command: node("console.log('ok')"), timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 1, confidence: 1, costMsats: 500 });
    expect(score.details).toMatch(/^Tests passed in \d+ms$/);
  });

  it("fail: confidence 0.9, the stderr tail preferred over stdout", async () => {
    const score = await new TestPassMetric({
      command: node("console.log('stdout text'); console.error('1 test failed'); process.exit(1)"),
      timeoutMs: 20_000,
    }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(score).toMatchObject({ value: 0, confidence: 0.9, costMsats: 500, details: "Tests failed (exit 1): 1 test failed" });
  });

  it("uses stdout when stderr is empty, and No output when both are", async () => {
    const stdout = await new TestPassMetric({ command: node("console.log('only stdout'); process.exit(2)"), timeoutMs: 20_000 }).evaluate(
      NO_INPUT,
      NO_OUTPUT,
    );
    expect(stdout.details).toBe("Tests failed (exit 2): only stdout");
    const silent = await new TestPassMetric({ command: node("process.exit(2)"), timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(silent.details).toBe("Tests failed (exit 2): No output");
  });

  it("keeps the last 200 characters (code points) of the output", async () => {
    const script = "process.stderr.write('head ' + '😀'.repeat(300) + ' tail-marker'); process.exit(1)";
    const score = await new TestPassMetric({ command: node(script), timeoutMs: 20_000 }).evaluate(NO_INPUT, NO_OUTPUT);
    const preview = (score.details ?? "").replace(/^Tests failed \(exit 1\): /, "");
    expect([...preview]).toHaveLength(200);
    expect(preview.endsWith(" tail-marker")).toBe(true);
    expect(preview.startsWith("😀")).toBe(true);
  });

  it("a timeout ends in time with its own status", async () => {
    const started = performance.now();
    const score = await new TestPassMetric({
      command: node("console.log('starting'); setInterval(() => {}, 1000)"),
      timeoutMs: 5_000,
    }).evaluate(NO_INPUT, NO_OUTPUT);
    // 5 s: long enough for a Node child to start and print on a busy machine, so its output is in the status
    expect(performance.now() - started).toBeLessThan(5_000 + 10_000);
    expect(score).toMatchObject({ value: 0, confidence: 0.9, details: "Tests failed (timed out after 5000ms): starting" });
  });
});

describe("the Node runner", () => {
  it("kills the whole process tree at the deadline", async () => {
    const script =
      "const { spawn } = require('child_process');" +
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });" +
      "console.log(c.pid); setInterval(() => {}, 1000);";
    const started = performance.now();
    const run = await runCommand(request(node(script), { timeoutMs: 5_000 }));
    expect(performance.now() - started).toBeLessThan(5_000 + 10_000);
    expect(run).toMatchObject({ timedOut: true, exitCode: null });
    const grandchild = Number(run.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await diesWithin(run.pid as number)).toBe(true);
    if (IS_POSIX) expect(await diesWithin(grandchild)).toBe(true);
  });

  it("reaps what a finished command left behind in its process group", async () => {
    const script =
      "const { spawn } = require('child_process');" +
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });" +
      "console.log(c.pid); c.unref();";
    const started = performance.now();
    const run = await runCommand(request(node(script), { timeoutMs: 10_000 }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run).toMatchObject({ timedOut: false, exitCode: 0 });
    if (IS_POSIX) expect(await diesWithin(Number(run.stdout.trim()))).toBe(true);
  });

  it("does not wait forever for pipes held open by a leftover process outside the group", async () => {
    if (!IS_POSIX) return;
    // setsid-like escape: a detached grandchild leaves the group but inherits stdout.
    const script =
      "const { spawn } = require('child_process');" +
      "const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], " +
      "{ stdio: ['ignore', 'inherit', 'inherit'], detached: true });" +
      "console.log(c.pid); c.unref();";
    const started = performance.now();
    const run = await runCommand(request(node(script), { timeoutMs: 60_000 }));
    // far below both the leftover's 120 s and the deadline: the runner did not wait for the pipe
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(run).toMatchObject({ timedOut: false, exitCode: 0 });
    process.kill(Number(run.stdout.trim()), "SIGKILL");
  });

  it("caps the output it keeps, keeping the tail and counting every byte", async () => {
    const run = await runCommand(request(node("process.stdout.write('x'.repeat(1_000_000) + 'END')"), { maxOutputBytes: 1024 }));
    expect(run.stdout.length).toBeLessThanOrEqual(1024);
    expect(run.stdout.endsWith("END")).toBe(true);
    expect(run.stdoutBytes).toBe(1_000_003);
    expect(run.truncated).toBe(true);
    expect(run.stderr).toBe("");
  });

  it("cuts at a character boundary when the cap splits a UTF-8 sequence", async () => {
    const run = await runCommand(request(node("process.stdout.write('é'.repeat(100))"), { maxOutputBytes: 11 }));
    expect(run.stdout).toBe("é".repeat(5));
    expect(run.truncated).toBe(true);
  });

  it("maxOutputBytes 0 keeps nothing but still counts", async () => {
    const run = await runCommand(request(node("console.log('hello')"), { maxOutputBytes: 0 }));
    expect(run).toMatchObject({ stdout: "", stdoutBytes: 6, truncated: true, exitCode: 0 });
  });

  it("reports signals", async () => {
    if (!IS_POSIX) return;
    const run = await runCommand(request(node("process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000)")));
    expect(run).toMatchObject({ exitCode: null, signal: "SIGTERM", timedOut: false });
  });

  it("rejects a malformed request with a typed error", async () => {
    await expect(runCommand(request([]))).rejects.toThrow(InvalidArgumentError);
    await expect(runCommand(request([""]))).rejects.toThrow(InvalidArgumentError);
  });
});

describe("custom runners (runtime-neutral injection)", () => {
  const fake =
    (run: Partial<CommandRun>): CommandRunner =>
    async (req) => ({
      argv: req.argv,
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 100,
      stdout: "",
      stderr: "",
      stdoutBytes: 0,
      stderrBytes: 0,
      truncated: false,
      ...run,
    });

  it("scores whatever the runner reports, with dsrs's texts", async () => {
    const ok = await new SandboxMetric({ runner: fake({}) }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(ok).toEqual(MetricScore.perfect().withDetails("All 1 commands passed in 100ms").withCost(500));
    const testOk = await new TestPassMetric({ runner: fake({}) }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(testOk.details).toBe("Tests passed in 100ms");
    const bad = await new SandboxMetric({ runner: fake({ exitCode: 101, stdout: "test result: FAILED\n" }) }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(bad.details).toBe("Failed commands: cargo test (exit 101)\ntest result: FAILED");
  });

  it("passes the request through: argv, cwd, env, inheritEnv, timeout, cap", async () => {
    const seen: CommandRequest[] = [];
    const runner: CommandRunner = async (req) => {
      seen.push(req);
      return fake({})(req);
    };
    await new TestPassMetric({
      command: ["make", "check"],
      cwd: "/w",
      env: { A: "1" },
      inheritEnv: ["PATH"],
      timeoutMs: 1234,
      maxOutputBytes: 99,
      runner,
    }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(seen[0]).toMatchObject({ argv: ["make", "check"], cwd: "/w", env: { A: "1" }, inheritEnv: ["PATH"], maxOutputBytes: 99 });
    expect(seen[0]?.timeoutMs).toBeLessThanOrEqual(1234);
  });

  it("stops waiting for a runner that ignores its deadline", async () => {
    const started = performance.now();
    const hung: CommandRunner = () => new Promise(() => {});
    const score = await new TestPassMetric({ runner: hung, timeoutMs: 100 }).evaluate(NO_INPUT, NO_OUTPUT);
    expect(performance.now() - started).toBeLessThan(100 + 10_000);
    expect(score.details).toBe("Tests failed (timed out after 100ms): No output");
  });

  it("a runner that throws makes evaluate reject (the evaluation broke)", async () => {
    const broken: CommandRunner = async () => {
      throw new Error("runner exploded");
    };
    await expect(new SandboxMetric({ runner: broken }).evaluate(NO_INPUT, NO_OUTPUT)).rejects.toThrow("runner exploded");
  });
});

describe("module boundaries", () => {
  it("only the Node runner and the Node grammar locator import node:* modules", () => {
    const root = new URL("../../src/dsrs/", import.meta.url);
    const offenders: string[] = [];
    const walk = (dir: URL, prefix: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
        else if (/from "node:|import\("node:|require\("node:/.test(readFileSync(new URL(entry.name, dir), "utf8"))) {
          offenders.push(`${prefix}${entry.name}`);
        }
      }
    };
    walk(root, "");
    expect(offenders.sort()).toEqual(["process/bubblewrap.ts", "process/limits.ts", "process/node-runner.ts", "syntax/node-grammars.ts"]);
  });
});
