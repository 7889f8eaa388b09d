// Resource limits for the Node command runner, with what the operating system gives and nothing claimed
// that is not enforced. Node-only (imported by ./node-runner.ts).
//
// On Linux, in order of preference:
// - the process tree: a memory cgroup of its own (v2 or v1, where this process may create one), whose
//   member list catches every descendant, also those that call `setsid` or start their own process group;
//   else a PID namespace (`unshare --pid --fork --kill-child`, where permitted), whose processes all die with
//   its first one; else the process group;
// - memory: the cgroup's limit for the whole tree; else RLIMIT_DATA per process (`prlimit`);
// - CPU seconds, open files, file size: RLIMIT_CPU / RLIMIT_NOFILE / RLIMIT_FSIZE per process (`prlimit`);
// - no network: a network namespace of its own with nothing in it (`unshare --net`);
// - files, with a scratch folder: bubblewrap (./bubblewrap.ts) shows the command a read-only view of the
//   system and its scratch folder writable, nothing else of the host; it also makes the PID and network
//   namespaces then. Without a working bwrap the run goes on unconfined and reports `files` not enforced.
// The program is resolved against a fixed PATH (the system directories and the running Node's) unless the
// request's `env.PATH` names one. Elsewhere only the process group (POSIX) or `taskkill /T` (Windows) and
// the program lookup apply, and every other requested limit is reported as not enforced.
import { spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { confineFiles, type FileConfinement } from "./bubblewrap.js";
import type { CommandRequest, EnforcedLimits } from "./command.js";

const IS_LINUX = process.platform === "linux";
const IS_WINDOWS = process.platform === "win32";

/** Where programs are looked up when the request gives no `env.PATH`: system directories and the running Node's. */
export const FIXED_PATH: string = IS_WINDOWS
  ? [dirname(process.execPath), "C:\\Windows\\System32", "C:\\Windows"].join(";")
  : [...new Set([dirname(process.execPath), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"])].join(":");

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program of `argv[0]`: a path (with a separator) as given; a bare name looked up on `searchPath`
 * (POSIX; on Windows the name is left to the system). Undefined when not found.
 */
export function resolveProgram(program: string, searchPath: string): string | undefined {
  if (IS_WINDOWS || program.includes("/")) return program;
  for (const dir of searchPath.split(":")) {
    if (dir === "") continue;
    const candidate = join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function systemTool(name: string): string | undefined {
  return IS_LINUX ? resolveProgram(name, "/usr/bin:/bin:/usr/sbin:/sbin") : undefined;
}

const probes = new Map<string, boolean>();
/** True when `argv` runs and exits 0 (once per process; a few ms). */
function probe(argv: readonly string[]): boolean {
  const key = argv.join("\0");
  let ok = probes.get(key);
  if (ok === undefined) {
    const r = spawnSync(argv[0] as string, argv.slice(1), { stdio: "ignore", timeout: 10_000 });
    ok = r.status === 0;
    probes.set(key, ok);
  }
  return ok;
}

interface CgroupBase {
  readonly version: 1 | 2;
  readonly dir: string;
}

let cgroupBase: CgroupBase | null | undefined;

/** A directory under which this process may create memory cgroups, or null. */
function findCgroupBase(): CgroupBase | null {
  if (cgroupBase !== undefined) return cgroupBase;
  cgroupBase = null;
  if (!IS_LINUX) return null;
  let own: string;
  try {
    own = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return null;
  }
  const candidates: CgroupBase[] = [];
  const v1 = /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m.exec(own);
  if (v1 && existsSync("/sys/fs/cgroup/memory/cgroup.procs")) {
    candidates.push({ version: 1, dir: join("/sys/fs/cgroup/memory", v1[1] ?? "/") }, { version: 1, dir: "/sys/fs/cgroup/memory" });
  }
  const v2 = /^0::(.*)$/m.exec(own);
  if (v2 && existsSync("/sys/fs/cgroup/cgroup.controllers")) candidates.push({ version: 2, dir: join("/sys/fs/cgroup", v2[1] ?? "/") });
  for (const c of candidates) {
    const test = join(c.dir, `evalkern-probe-${process.pid}`);
    try {
      if (c.version === 2 && !readFileSync(join(c.dir, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("memory")) continue;
      mkdirSync(test);
      const limitFile = join(test, c.version === 1 ? "memory.limit_in_bytes" : "memory.max");
      writeFileSync(limitFile, String(64 << 20));
      rmdirSync(test);
      cgroupBase = c;
      return c;
    } catch {
      try {
        rmdirSync(test);
      } catch {
        // not created
      }
    }
  }
  return null;
}

let cgroupSeq = 0;

/** A memory cgroup made for one run: join it at exec, kill what is in it, read whether it hit its limit, remove it. */
export class RunCgroup {
  private constructor(
    readonly dir: string,
    private readonly version: 1 | 2,
  ) {}

  static create(memoryBytes: number | undefined): RunCgroup | undefined {
    const base = findCgroupBase();
    if (!base) return undefined;
    const dir = join(base.dir, `evalkern-${process.pid}-${++cgroupSeq}`);
    try {
      mkdirSync(dir);
      if (memoryBytes !== undefined) {
        const bytes = String(Math.floor(memoryBytes));
        if (base.version === 1) {
          writeFileSync(join(dir, "memory.limit_in_bytes"), bytes);
          try {
            writeFileSync(join(dir, "memory.memsw.limit_in_bytes"), bytes); // no swapping past the limit
          } catch {
            // no swap accounting
          }
        } else {
          writeFileSync(join(dir, "memory.max"), bytes);
          try {
            writeFileSync(join(dir, "memory.swap.max"), "0");
          } catch {
            // no swap controller
          }
        }
      }
      return new RunCgroup(dir, base.version);
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // not created
      }
      return undefined;
    }
  }

  /** The launcher prefix that moves the process into the cgroup before it execs the rest (no shell parsing of user text). */
  launcher(keepPwd: boolean): string[] {
    // sh exports PWD of its own accord: drop it unless the child's environment has it anyway
    return ["/bin/sh", "-c", `${keepPwd ? "" : "unset PWD; "}echo $$ > "$0" && exec "$@"`, join(this.dir, "cgroup.procs")];
  }

  pids(): number[] {
    try {
      return readFileSync(join(this.dir, "cgroup.procs"), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILL every member, including those that left the process group. */
  killAll(): void {
    for (let round = 0; round < 20; round++) {
      const pids = this.pids();
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }
  }

  /** True when the kernel killed a member for exceeding the memory limit. */
  oomKilled(): boolean {
    try {
      const kills = /^oom_kill (\d+)/m.exec(
        readFileSync(join(this.dir, this.version === 2 ? "memory.events" : "memory.oom_control"), "utf8"),
      );
      if (kills) return Number(kills[1]) > 0;
      return Number(readFileSync(join(this.dir, "memory.failcnt"), "utf8").trim()) > 0;
    } catch {
      return false;
    }
  }

  /** Kill what is left and remove the cgroup (retried briefly: removal fails while a member is exiting). */
  async dispose(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      this.killAll();
      try {
        rmdirSync(this.dir);
        return;
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT") return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

/** How one run is launched: the argv to spawn, its cwd, and what will be enforced. */
export interface LaunchPlan {
  readonly argv: readonly string[];
  readonly cwd: string | undefined;
  readonly enforced: EnforcedLimits;
  readonly notEnforced: readonly string[];
  readonly cgroup: RunCgroup | undefined;
  readonly scratch: string | undefined;
}

/** Plan the launch of `program` (already resolved) with the request's limits; `env` is the child's environment. */
export function planLaunch(program: string, request: CommandRequest, env: Readonly<Record<string, string>>): LaunchPlan {
  const limits = request.limits ?? {};
  const notEnforced: string[] = [];
  const enforced: { -readonly [K in keyof EnforcedLimits]: EnforcedLimits[K] } = {
    processTree: IS_WINDOWS ? "taskkill" : "process-group",
    program,
  };
  let argv: string[] = [program, ...request.argv.slice(1)];

  let scratch: string | undefined;
  let cwd = request.cwd;
  if (request.scratch) {
    scratch = mkdtempSync(join(tmpdir(), "evalkern-sandbox-"));
    if (cwd !== undefined) cpSync(cwd, scratch, { recursive: true });
    cwd = scratch;
    enforced.scratch = scratch;
  }

  let files: FileConfinement | undefined;
  if (scratch !== undefined) {
    files = confineFiles({ scratch, program, readOnlyPaths: request.readOnlyPaths ?? [], network: limits.network !== false });
    if (files) enforced.files = "bubblewrap";
    else notEnforced.push("files");
  }

  const prlimit = systemTool("prlimit");
  const cgroup = IS_LINUX ? RunCgroup.create(limits.memoryBytes) : undefined;
  if (cgroup) enforced.processTree = "cgroup";
  // innermost first: the namespaces (bwrap's, or unshare's), then rlimits, then the cgroup join
  if (files) {
    argv = [...files.prefix, ...argv];
    if (limits.network === false) enforced.network = "none";
    if (!cgroup) enforced.processTree = "pid-namespace";
  } else argv = unshareNamespaces(argv, limits.network === false, cgroup === undefined, enforced, notEnforced);

  const rl: string[] = [];
  const rlimit = (
    flag: string,
    value: number | undefined,
    name: keyof EnforcedLimits & ("cpuSeconds" | "openFiles" | "fileSizeBytes"),
  ): void => {
    if (value === undefined) return;
    if (prlimit) {
      rl.push(`--${flag}=${Math.floor(value)}`);
      enforced[name] = "rlimit";
    } else notEnforced.push(name);
  };
  if (limits.memoryBytes !== undefined) {
    if (cgroup) enforced.memoryBytes = "cgroup";
    else if (prlimit) {
      rl.push(`--data=${Math.floor(limits.memoryBytes)}`);
      enforced.memoryBytes = "rlimit-per-process";
    } else notEnforced.push("memoryBytes");
  }
  rlimit("cpu", limits.cpuSeconds, "cpuSeconds");
  rlimit("nofile", limits.openFiles, "openFiles");
  rlimit("fsize", limits.fileSizeBytes, "fileSizeBytes");
  if (rl.length > 0) argv = [prlimit as string, ...rl, "--", ...argv];
  if (cgroup) argv = [...cgroup.launcher(Object.prototype.hasOwnProperty.call(env, "PWD")), ...argv];
  return { argv, cwd, enforced, notEnforced, cgroup, scratch };
}

/** Wraps `argv` in `unshare` for no network and (without a cgroup) a PID namespace, where permitted. */
function unshareNamespaces(
  argv: string[],
  noNetwork: boolean,
  needPid: boolean,
  enforced: { network?: "none"; processTree: EnforcedLimits["processTree"] },
  notEnforced: string[],
): string[] {
  const unshare = systemTool("unshare");
  const nsFlags: string[] = [];
  if (noNetwork) {
    if (unshare && probe([unshare, "--net", "true"])) {
      nsFlags.push("--net");
      enforced.network = "none";
    } else notEnforced.push("network");
  }
  if (needPid && IS_LINUX && unshare && probe([unshare, "--pid", "--fork", "--kill-child", "true"])) {
    nsFlags.push("--pid", "--fork", "--kill-child");
    enforced.processTree = "pid-namespace";
  }
  return nsFlags.length > 0 ? [unshare as string, ...nsFlags, "--", ...argv] : argv;
}

/** Remove a scratch directory made by {@link planLaunch}. */
export function removeScratch(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
