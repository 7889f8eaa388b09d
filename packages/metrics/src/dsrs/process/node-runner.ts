// Node-only command runner for SandboxMetric/TestPassMetric: `child_process.spawn` with an argument
// vector (no shell), a working directory, a scrubbed environment, a hard timeout that kills the whole
// process tree, and a cap on the output kept in memory. Loaded lazily by ./command.ts; importing it
// touches `node:child_process`, which is why it sits apart from the runtime-neutral modules.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { InvalidArgumentError } from "../../errors.js";
import { WorkingDirectoryNotFoundError } from "../errors.js";
import type { CommandRequest, CommandRun } from "./command.js";
import { FIXED_PATH, planLaunch, removeScratch, resolveProgram, type LaunchPlan } from "./limits.js";

/** After SIGKILL, how long to wait for the exit event before giving up on the process. */
const KILL_GRACE_MS = 250;
/** After the process exits, how long to wait for its pipes to drain (a leftover may hold them open). */
const DRAIN_MS = 250;

const IS_WINDOWS = process.platform === "win32";

/** Keeps the last `capacity` bytes written, and counts all of them. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly capacity: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.capacity === 0) return;
    if (chunk.length >= this.capacity) {
      this.chunks = [chunk.subarray(chunk.length - this.capacity)];
      this.kept = this.capacity;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.kept > this.capacity) {
      const first = this.chunks[0] as Buffer;
      const excess = this.kept - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
      }
    }
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (this.truncated) {
      // The cut may fall inside a UTF-8 sequence: skip continuation bytes instead of decoding them as U+FFFD.
      let start = 0;
      while (start < bytes.length && start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    }
    return new TextDecoder().decode(bytes);
  }
}

function checkRequest(request: CommandRequest): void {
  const argv = request.argv as unknown;
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((arg) => typeof arg !== "string" || arg.includes("\0"))) {
    throw new InvalidArgumentError("argv must be a non-empty array of strings without NUL characters", {
      argument: "argv",
      actual: Array.isArray(argv) ? `array(${argv.length})` : typeof argv,
    });
  }
  if (argv[0] === "") throw new InvalidArgumentError("argv[0] (the program) must not be empty", { argument: "argv" });
  const limits = request.limits as Record<string, unknown> | undefined;
  if (limits !== undefined) {
    if (typeof limits !== "object" || limits === null || Array.isArray(limits)) {
      throw new InvalidArgumentError("limits must be an object", { argument: "limits", actual: typeof limits });
    }
    for (const [key, value] of Object.entries(limits)) {
      if (value === undefined) continue;
      if (key === "network") {
        if (typeof value !== "boolean")
          throw new InvalidArgumentError("limits.network must be a boolean", { argument: "limits.network", actual: typeof value });
      } else if (key === "memoryBytes" || key === "cpuSeconds" || key === "openFiles" || key === "fileSizeBytes") {
        if (typeof value !== "number" || !Number.isFinite(value) || value < 1) {
          throw new InvalidArgumentError(`limits.${key} must be a positive number`, { argument: `limits.${key}`, actual: String(value) });
        }
      } else {
        throw new InvalidArgumentError(
          `limits has no option ${JSON.stringify(key)} (memoryBytes, cpuSeconds, openFiles, fileSizeBytes, network)`,
          { argument: `limits.${key}` },
        );
      }
    }
  }
}

/** The working directory and the read-only paths must exist: a typed error names the one that does not. */
function checkPaths(request: CommandRequest): void {
  const cwd = request.cwd as unknown;
  if (cwd !== undefined) {
    if (typeof cwd !== "string" || cwd === "" || cwd.includes("\0")) {
      throw new InvalidArgumentError("cwd must be a non-empty path", { argument: "cwd", actual: typeof cwd });
    }
    let directory: boolean;
    try {
      directory = statSync(cwd).isDirectory();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw new WorkingDirectoryNotFoundError(cwd, "missing");
      throw error;
    }
    if (!directory) throw new WorkingDirectoryNotFoundError(cwd, "not-a-directory");
  }
  const paths = request.readOnlyPaths as unknown;
  if (paths === undefined) return;
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== "string" || !isAbsolute(path) || path.includes("\0"))) {
    throw new InvalidArgumentError("readOnlyPaths must be an array of absolute paths", { argument: "readOnlyPaths" });
  }
  paths.forEach((path: string, index) => {
    if (!existsSync(path)) {
      throw new InvalidArgumentError(`readOnlyPaths[${index}] ${JSON.stringify(path)} does not exist`, {
        argument: "readOnlyPaths",
        actual: path,
      });
    }
  });
}

/** The child's environment: only the allowed parent variables, then the explicit ones. */
export function buildEnvironment(request: Pick<CommandRequest, "env" | "inheritEnv">): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of request.inheritEnv) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (request.env !== undefined) Object.assign(env, request.env);
  return env;
}

/** Kill the child and everything it started (its cgroup, or its process group on POSIX, `taskkill /T` on Windows). */
function killTree(child: ChildProcess, plan: LaunchPlan | undefined): void {
  plan?.cgroup?.killAll();
  const pid = child.pid;
  if (pid === undefined) return;
  if (IS_WINDOWS) {
    try {
      spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on("error", () => {});
    } catch {
      // taskkill missing: fall through to killing the child alone.
    }
    child.kill("SIGKILL");
    return;
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/**
 * Run one command. Never rejects for a failing, hanging or unstartable command (those are values); only
 * a malformed request rejects, with `InvalidArgumentError`, or `WorkingDirectoryNotFoundError` for a `cwd`
 * that does not exist. Always settles within
 * `timeoutMs + 250 ms` (the kill grace).
 *
 * Gotchas: on POSIX the child leads its own process group, so when the deadline passes, or when the
 * child exits, every process still in that group is killed. Windows cannot spawn `.cmd`/`.bat` files
 * without a shell; run `cmd.exe /d /s /c …` explicitly if you must.
 */
export function runCommand(request: CommandRequest): Promise<CommandRun> {
  try {
    checkRequest(request);
    checkPaths(request);
  } catch (error) {
    return Promise.reject(error);
  }
  const argv = [...request.argv];
  const start = performance.now();
  // argv[0] on a fixed PATH unless the request names one: never the parent's PATH
  const program = resolveProgram(argv[0] as string, request.env?.PATH ?? FIXED_PATH);
  return new Promise<CommandRun>((resolve) => new CommandSupervisor(request, argv, start, resolve).run(program));
}

/** One command from spawn to its settled `CommandRun`: the launch, the pipes, the exit and the deadline. */
class CommandSupervisor {
  private child: ChildProcess | undefined;
  private settled = false;
  private timedOut = false;
  private exited = false;
  private exitCode: number | null = null;
  private signal: string | null = null;
  private spawnError: string | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private after: ReturnType<typeof setTimeout> | undefined;
  private plan: LaunchPlan | undefined;
  private readonly stdout: TailBuffer;
  private readonly stderr: TailBuffer;

  constructor(
    private readonly request: CommandRequest,
    private readonly argv: string[],
    private readonly start: number,
    private readonly resolve: (run: CommandRun) => void,
  ) {
    this.stdout = new TailBuffer(request.maxOutputBytes);
    this.stderr = new TailBuffer(request.maxOutputBytes);
  }

  run(program: string | undefined): void {
    if (program === undefined) {
      // the same shape as Node's own spawn failure
      this.spawnError = `spawn ${this.argv[0]} ENOENT`;
      this.finish();
      return;
    }
    const child = this.launch(program);
    if (child === undefined) return;
    this.pipe(child);
    this.watch(child);
  }

  /** Settles the run once: stops the timers and pipes, then reports (the cgroup and scratch are cleaned up after). */
  private readonly finish = (): void => {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    clearTimeout(this.after);
    const { child, plan, stdout, stderr } = this;
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    child?.stdin?.destroy();
    const memoryExceeded = plan?.cgroup?.oomKilled() ?? false;
    const cleanup = plan?.cgroup ? plan.cgroup.dispose() : Promise.resolve();
    void cleanup.finally(() => removeScratch(plan?.scratch));
    this.resolve({
      argv: this.argv,
      exitCode: this.exitCode,
      signal: this.signal,
      timedOut: this.timedOut,
      error: this.spawnError,
      durationMs: Math.round(performance.now() - this.start),
      stdout: stdout.text(),
      stderr: stderr.text(),
      stdoutBytes: stdout.total,
      stderrBytes: stderr.total,
      truncated: stdout.truncated || stderr.truncated,
      pid: child?.pid,
      ...(plan ? { enforced: plan.enforced, notEnforced: plan.notEnforced } : {}),
      ...(memoryExceeded ? { memoryExceeded } : {}),
    });
  };

  /** Plans the sandbox and spawns; a launch that throws settles the run and gives undefined. */
  private launch(program: string): ChildProcess | undefined {
    const request = this.request;
    try {
      const env = buildEnvironment(request);
      const plan = (this.plan = planLaunch(program, request, env));
      this.child = spawn(plan.argv[0] as string, plan.argv.slice(1), {
        cwd: plan.cwd,
        env,
        shell: false,
        windowsHide: true,
        // Its own process group on POSIX, so the whole tree can be killed with one signal.
        detached: !IS_WINDOWS,
        stdio: [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
      return this.child;
    } catch (error) {
      this.spawnError = error instanceof Error ? error.message : String(error);
      this.finish();
      return undefined;
    }
  }

  /** Output into the tail buffers, the request's stdin in. */
  private pipe(child: ChildProcess): void {
    child.stdout?.on("data", (chunk: Buffer) => this.stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.stderr.push(chunk));
    child.stdout?.on("error", () => {});
    child.stderr?.on("error", () => {});
    if (this.request.stdin !== undefined && child.stdin) {
      // The child may exit without reading: EPIPE is expected, not a failure of the run.
      child.stdin.on("error", () => {});
      child.stdin.end(this.request.stdin);
    }
  }

  /** Start failures, the exit (then the drain), the close, and the deadline with its kill grace. */
  private watch(child: ChildProcess): void {
    child.on("error", (error) => {
      // 'error' without a pid means the process never started (ENOENT, EACCES, bad cwd).
      if (child.pid === undefined) {
        this.spawnError = error.message;
        this.finish();
      }
    });

    child.on("exit", (code, sig) => {
      this.exited = true;
      this.exitCode = code;
      this.signal = sig;
      // Reap whatever the command left behind in its cgroup or group; they would otherwise keep the pipes open.
      this.plan?.cgroup?.killAll();
      if (!IS_WINDOWS && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group is already gone.
        }
      }
      // After a timeout the kill grace timer is already running and bounds the run; keep it.
      if (!this.timedOut) this.after = setTimeout(this.finish, DRAIN_MS);
    });

    child.on("close", this.finish);

    this.deadline = setTimeout(() => {
      if (this.exited) {
        this.finish();
        return;
      }
      this.timedOut = true;
      killTree(child, this.plan);
      this.after = setTimeout(this.finish, KILL_GRACE_MS);
    }, this.request.timeoutMs);
  }
}
