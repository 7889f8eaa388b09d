// The sandbox's limits (issue: "Sandbox/TestPass is not a sandbox"): the whole process tree dies at the
// deadline even when a child calls setsid; memory, CPU seconds, open files and network are limited with
// what the OS gives; each run reports what it enforced and never claims what it did not; the program is
// looked up on a fixed PATH, not the parent's.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_INHERITED_ENV, SandboxMetric, TestPassMetric, type CommandRequest } from "../../src/dsrs/index.js";
import { runCommand } from "../../src/dsrs/process/node-runner.js";
import { InvalidArgumentError } from "../../src/errors.js";

const NODE = process.execPath;
const node = (script: string, ...args: string[]): string[] => [NODE, "-e", script, ...args];
const IS_LINUX = process.platform === "linux";
const scratch = mkdtempSync(join(tmpdir(), "evalkern-limits-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function request(argv: string[], extra: Partial<CommandRequest> = {}): CommandRequest {
  return { argv, inheritEnv: DEFAULT_INHERITED_ENV, timeoutMs: 30_000, maxOutputBytes: 1024 * 1024, ...extra };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function diesWithin(pid: number, ms = 10_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (alive(pid)) {
    if (performance.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe.runIf(IS_LINUX)("limits on Linux", () => {
  it("a child that calls setsid (its own session and process group) dies at the deadline", async () => {
    // the grandchild leaves the group with setsid and writes its pid to a file, then lives for two minutes
    const pidFile = join(scratch, "escaped.pid");
    const script =
      "const { spawn } = require('child_process');" +
      `const c = spawn('setsid', [${JSON.stringify(NODE)}, '-e', ` +
      `'require(\\"fs\\").writeFileSync(${JSON.stringify(pidFile).replace(/"/g, '\\"')},` +
      ` String(process.pid)); setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });` +
      "c.unref(); setInterval(() => {}, 1000);";
    // 15 s: time enough on a busy machine for the grandchild to start and write its pid before the deadline
    const result = await runCommand(request(node(script), { timeoutMs: 15_000 }));
    expect(result.timedOut).toBe(true);
    expect(["cgroup", "pid-namespace"]).toContain(result.enforced?.processTree);
    expect(existsSync(pidFile)).toBe(true);
    const escaped = Number(readFileSync(pidFile, "utf8"));
    expect(escaped).toBeGreaterThan(0);
    expect(await diesWithin(escaped)).toBe(true);
  });

  it("a command over its memory limit fails, and the run says the limit was enforced", async () => {
    // 1.5 GB under a 1024 MB profile: dsrs's Small profile
    const hog = node("const a = []; for (let i = 0; i < 150; i++) a.push(Buffer.alloc(10 * 1024 * 1024, 1)); console.log('allocated');");
    const metric = new TestPassMetric({ command: hog, profile: "Small", timeoutMs: 60_000 });
    const { score, runs } = await metric.run({}, {});
    expect(score.value).toBe(0);
    expect(runs[0]?.enforced?.memoryBytes).toMatch(/^(cgroup|rlimit-per-process)$/);
    expect(runs[0]?.stdout).not.toContain("allocated");
    // within the limit the same program passes
    const small = node("const a = []; for (let i = 0; i < 10; i++) a.push(Buffer.alloc(10 * 1024 * 1024, 1)); console.log('allocated');");
    const ok = await new TestPassMetric({ command: small, profile: "Small", timeoutMs: 60_000 }).run({}, {});
    expect(ok.score.value).toBe(1);
  });

  it("CPU seconds, open files and no network, each reported", async () => {
    const spin = await runCommand(request(node("for (;;) {}"), { limits: { cpuSeconds: 1 } }));
    expect(spin.enforced?.cpuSeconds).toBe("rlimit");
    expect(spin.timedOut).toBe(false);
    expect(spin.signal === "SIGXCPU" || spin.signal === "SIGKILL").toBe(true);

    const files = await runCommand(
      request(
        node(
          "const fs = require('fs'); const fds = []; " +
            "try { for (let i = 0; i < 200; i++) fds.push(fs.openSync(process.execPath, 'r')); console.log('opened all'); " +
            "} catch (e) { console.log(e.code); }",
        ),
        {
          limits: { openFiles: 64 },
        },
      ),
    );
    expect(files.enforced?.openFiles).toBe("rlimit");
    expect(files.stdout.trim()).toBe("EMFILE");

    const net = await runCommand(
      request(
        node(
          "require('net').connect(9, '127.0.0.1').on('error', (e) => { console.log(e.code); })" +
            ".on('connect', () => console.log('connected'))",
        ),
        {
          limits: { network: false },
        },
      ),
    );
    if (net.enforced?.network === "none") expect(["ENETUNREACH", "EADDRNOTAVAIL"]).toContain(net.stdout.trim());
    else expect(net.notEnforced).toContain("network");
  });

  it("a scratch directory is a fresh copy of cwd, removed afterwards; the original is untouched", async () => {
    const project = join(scratch, "project");
    rmSync(project, { recursive: true, force: true });
    writeFileSync(join(scratch, "marker"), "x");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(project);
    writeFileSync(join(project, "input.txt"), "hello");
    const run = await runCommand(
      request(
        node(
          "const fs = require('fs'); console.log(fs.readFileSync('input.txt', 'utf8')); " +
            "fs.writeFileSync('input.txt', 'changed'); console.log(process.cwd())",
        ),
        {
          cwd: project,
          scratch: true,
        },
      ),
    );
    const [text, where] = run.stdout.trim().split("\n");
    expect(text).toBe("hello");
    expect(where).toBe(run.enforced?.scratch);
    expect(readFileSync(join(project, "input.txt"), "utf8")).toBe("hello");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 10_000;
    while (existsSync(where!) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(existsSync(where!)).toBe(false);
  });
});

describe("program lookup and reporting", () => {
  it("a bare program name is looked up on a fixed PATH, not the parent's; env.PATH overrides", async () => {
    const bin = join(scratch, "bin");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(bin, { recursive: true });
    const tool = join(bin, "evalkern-only-here");
    writeFileSync(tool, "#!/bin/sh\necho found-it\n");
    chmodSync(tool, 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      const hidden = await runCommand(request(["evalkern-only-here"]));
      expect(hidden.error).toBe("spawn evalkern-only-here ENOENT");
    } finally {
      process.env.PATH = saved;
    }
    const given = await runCommand(request(["evalkern-only-here"], { env: { PATH: `${bin}:/usr/bin:/bin` } }));
    expect(given.stdout.trim()).toBe("found-it");
    expect(given.enforced?.program).toBe(tool);
  });

  it("asks for nothing it cannot do: no limits requested, none claimed; bad limits are typed errors", async () => {
    const run = await runCommand(request(node("console.log('ok')")));
    expect(run.enforced).toBeDefined();
    expect(run.enforced?.memoryBytes).toBeUndefined();
    expect(run.enforced?.cpuSeconds).toBeUndefined();
    expect(run.notEnforced).toEqual([]);
    await expect(runCommand(request(node(""), { limits: { memoryBytes: -1 } }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(runCommand(request(node(""), { limits: { cpu: 1 } as never }))).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => new SandboxMetric({ limits: { memory: 1 } as never })).toThrow(/options.limits has no option "memory"/);
  });
});
