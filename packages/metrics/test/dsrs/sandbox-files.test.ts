// The sandbox keeps files in too (issue 19.16): a command run with `scratch: true` sees a read-only view
// of the system (the interpreter, /usr, /lib), writes only in its scratch folder, and reads no other host
// file (/etc/hostname, the project, a file the test made). bubblewrap (`bwrap`, installed by
// scripts/ensure-bwrap.sh) does it where it can make namespaces; elsewhere the run says `files` was not
// enforced. A working directory that does not exist is a typed error naming it.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_INHERITED_ENV,
  SandboxMetric,
  TestPassMetric,
  WorkingDirectoryNotFoundError,
  type CommandRequest,
} from "../../src/dsrs/index.js";
import { runCommand } from "../../src/dsrs/process/node-runner.js";

const IS_LINUX = process.platform === "linux";
const host = mkdtempSync(join(tmpdir(), "evalkern-files-"));
afterAll(() => rmSync(host, { recursive: true, force: true }));

/** Whether bwrap can make its namespaces on this machine (checked here independently of the runner). */
function bwrapWorks(): boolean {
  if (!IS_LINUX || !existsSync("/usr/bin/bwrap")) return false;
  const r = spawnSync(
    "/usr/bin/bwrap",
    ["--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--dev", "/dev", "--", "/bin/sh", "-c", "exit 0"],
    { stdio: "ignore" },
  );
  return r.status === 0;
}

// Each probe prints "<what> <outcome>": the error code, or ok / the text read.
const PROBE =
  `
const fs = require("fs");
const out = [];
const tryTo = (what, f) => { try { out.push(what + " " + (f() ?? "ok")); } catch (e) { out.push(what + " " + e.code); } };
const [secret, escape] = process.argv.slice(1);
tryTo("read-hostname", () => fs.readFileSync("/etc/hostname", "utf8").length > 0 ? "read" : "empty");
tryTo("read-secret", () => fs.readFileSync(secret, "utf8"));
tryTo("write-escape", () => fs.writeFileSync(escape, "escaped"));
tryTo("write-usr", () => fs.writeFileSync("/usr/evalkern-escape", "x"));
tryTo("read-interpreter", () => fs.statSync(process.execPath).isFile() ? "ok" : "not a file");
tryTo("read-lib", () => fs.readdirSync("/usr/lib").length > 0 ? "ok" : "empty");
tryTo("write-scratch", () => { fs.writeFileSync("made.txt", "in scratch"); ` +
  `return fs.readFileSync("made.txt", "utf8") === "in scratch" ? "ok" : "lost"; });
tryTo("read-copied", () => fs.readFileSync("input.txt", "utf8"));
console.log(out.join("\\n"));
`;

function outcomes(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" ") as [string, string]),
  );
}

describe.runIf(IS_LINUX)("files of a scratch run", () => {
  const project = join(host, "project");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "input.txt"), "copied");
  const secret = join(host, "secret.txt");
  writeFileSync(secret, "host secret");
  const escape = join(host, "escape.txt");
  const confined = bwrapWorks();

  it(
    `${confined ? "bubblewrap confines" : "without a working bwrap, the run reports"} ` + `the command's files (scratch, no network)`,
    async () => {
      const metric = new SandboxMetric({
        commands: [[process.execPath, "-e", PROBE, secret, escape]],
        cwd: project,
        scratch: true,
        limits: { network: false },
        timeoutMs: 60_000,
      });
      const { score, runs } = await metric.run({}, {});
      const run = runs[0]!;
      expect(run.stderr).toBe("");
      expect(score.value).toBe(1);
      const got = outcomes(run.stdout);
      // what it needs, it has: the interpreter, the libraries, its scratch copy of cwd, writable
      expect([got["read-interpreter"], got["read-lib"], got["write-scratch"], got["read-copied"]]).toEqual(["ok", "ok", "ok", "copied"]);
      expect(got["write-usr"]).toMatch(/^(EROFS|EACCES)$/);
      if (confined) {
        expect(run.enforced?.files).toBe("bubblewrap");
        expect(run.notEnforced).not.toContain("files");
        expect(run.enforced?.network).toBe("none");
        // nothing else of the host: not /etc/hostname, not a file beside the project, no write outside scratch
        expect(got["read-hostname"]).toBe("ENOENT");
        expect(got["read-secret"]).toBe("ENOENT");
        expect(got["write-escape"]).toBe("ENOENT");
        expect(existsSync(escape)).toBe(false);
      } else {
        expect(run.enforced?.files).toBeUndefined();
        expect(run.notEnforced).toContain("files");
        rmSync(escape, { force: true });
      }
      expect(readFileSync(join(project, "input.txt"), "utf8")).toBe("copied");
    },
  );

  it.runIf(confined)("readOnlyPaths adds host paths the command may read but not write; /bin/sh and python run", async () => {
    const script =
      `cat ${JSON.stringify(secret)}; echo; ` +
      `echo x > ${JSON.stringify(join(host, "written.txt"))} 2>/dev/null || echo refused; ` +
      `cat /etc/hostname 2>/dev/null || echo no-hostname`;
    const sh = await new TestPassMetric({
      command: ["/bin/sh", "-c", script],
      scratch: true,
      readOnlyPaths: [host],
      timeoutMs: 60_000,
    }).run({}, {});
    expect(sh.runs[0]!.stdout.trim().split("\n")).toEqual(["host secret", "refused", "no-hostname"]);
    expect(existsSync(join(host, "written.txt"))).toBe(false);
    if (existsSync("/usr/bin/python3")) {
      const py = await new TestPassMetric({
        command: ["/usr/bin/python3", "-c", "import json; print(json.dumps([1]))"],
        scratch: true,
        timeoutMs: 60_000,
      }).run({}, {});
      expect(py.runs[0]!.stdout.trim()).toBe("[1]");
      expect(py.runs[0]!.enforced?.files).toBe("bubblewrap");
    }
    await expect(runCommand({ ...request(["true"]), scratch: true, readOnlyPaths: [join(host, "nope")] })).rejects.toThrow(
      /readOnlyPaths\[0\].*does not exist/,
    );
  });

  it("where bwrap cannot make namespaces (no user namespaces), the run goes on unconfined and says so", async () => {
    // a stand-in for bwrap failing as it does without user namespaces
    const fake = join(host, "fake-bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    const saved = process.env.EVALKERN_BWRAP;
    process.env.EVALKERN_BWRAP = fake;
    try {
      const run = await runCommand({ ...request(["/bin/sh", "-c", "echo ran; pwd"]), scratch: true });
      expect(run.exitCode).toBe(0);
      expect(run.stdout.trim().split("\n")).toEqual(["ran", run.enforced?.scratch]);
      expect(run.enforced?.files).toBeUndefined();
      expect(run.notEnforced).toEqual(["files"]);
      // without scratch no confinement is asked for, so none is claimed or missed
      const plain = await runCommand(request(["/bin/sh", "-c", "echo ran"]));
      expect(plain.enforced?.files).toBeUndefined();
      expect(plain.notEnforced).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.EVALKERN_BWRAP;
      else process.env.EVALKERN_BWRAP = saved;
    }
  });
});

function request(argv: string[]): CommandRequest {
  return { argv, inheritEnv: DEFAULT_INHERITED_ENV, timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 };
}

describe("a working directory that does not exist", () => {
  it("is a typed error naming the path (it used to read `spawn /bin/sh ENOENT`)", async () => {
    const missing = join(host, "no-such-dir");
    const error = await runCommand({ ...request([process.execPath, "-e", ""]), cwd: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkingDirectoryNotFoundError);
    expect(error).toMatchObject({ code: "WORKING_DIRECTORY_NOT_FOUND", path: missing });
    expect((error as Error).message).toBe(`the working directory ${JSON.stringify(missing)} does not exist`);
    // the same through the metrics, with or without scratch (a scratch copy of a missing folder)
    for (const scratch of [false, true]) {
      await expect(new SandboxMetric({ commands: [["true"]], cwd: missing, scratch }).evaluate({}, {})).rejects.toMatchObject({
        path: missing,
      });
    }
    const file = join(host, "a-file");
    writeFileSync(file, "");
    await expect(new TestPassMetric({ command: ["true"], cwd: file }).evaluate({}, {})).rejects.toThrow(
      `the working directory ${JSON.stringify(file)} is not a directory`,
    );
  });
});
