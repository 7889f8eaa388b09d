// The runtime-neutral contract between the sandbox metrics and whatever runs processes. The Node
// implementation lives in ./node-runner.ts and is imported only on first use.
import { CommandRunnerUnavailableError } from "../errors.js";

/** One command to run: an argument vector, never a shell string. */
export interface CommandRequest {
  /**
   * `argv[0]` is the program: a path, or a name looked up on `env.PATH` when the request sets it, else on a
   * fixed PATH (the system directories and the running Node's), never on the parent's; the rest are passed literally.
   */
  readonly argv: readonly string[];
  /** Working directory. Default: the current one. */
  readonly cwd?: string | undefined;
  /** Extra environment variables (these win over inherited ones). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Names of parent environment variables to pass through; nothing else is inherited. */
  readonly inheritEnv: readonly string[];
  /** Hard deadline in ms: the process tree is killed then and the run ends shortly after. */
  readonly timeoutMs: number;
  /** At most this many bytes of each of stdout and stderr are kept (the tail). */
  readonly maxOutputBytes: number;
  /** Text written to the child's stdin (then closed). Default: stdin is closed at once. */
  readonly stdin?: string | undefined;
  /** Resource limits, enforced with what the OS gives; the run reports which were (`enforced`, `notEnforced`). */
  readonly limits?: ResourceLimits | undefined;
  /**
   * Run in a fresh temporary directory (a copy of `cwd` when given), removed afterwards. On Linux with
   * bubblewrap (`bwrap`) the command's files are confined too: it sees the system's programs and
   * libraries read-only, the scratch directory writable, a private /tmp, and nothing else of the host
   * (reported as `files` in `enforced`, else in `notEnforced`).
   */
  readonly scratch?: boolean | undefined;
  /** Absolute host paths a command confined to its scratch directory may also read (e.g. a toolchain). */
  readonly readOnlyPaths?: readonly string[] | undefined;
}

/** Limits a runner applies to a command's whole run. Every field is optional; absent means no limit. */
export interface ResourceLimits {
  /** Memory: for the whole process tree (a cgroup) where the OS allows, else per process (RLIMIT_DATA). */
  readonly memoryBytes?: number | undefined;
  /** CPU seconds per process (RLIMIT_CPU). */
  readonly cpuSeconds?: number | undefined;
  /** Open files per process (RLIMIT_NOFILE). */
  readonly openFiles?: number | undefined;
  /** Largest file a process may write (RLIMIT_FSIZE). */
  readonly fileSizeBytes?: number | undefined;
  /** `false`: no network at all (a network namespace with nothing in it). */
  readonly network?: boolean | undefined;
}

/** What a run really enforced, and how. A limit that is absent here was not enforced. */
export interface EnforcedLimits {
  /** How the whole process tree is killed at the deadline and after the command exits. */
  readonly processTree: "cgroup" | "pid-namespace" | "process-group" | "taskkill";
  /** The program that ran (argv[0] resolved against a fixed PATH, or the request's `env.PATH`). */
  readonly program: string;
  readonly memoryBytes?: "cgroup" | "rlimit-per-process";
  readonly cpuSeconds?: "rlimit";
  readonly openFiles?: "rlimit";
  readonly fileSizeBytes?: "rlimit";
  readonly network?: "none";
  /** With `scratch`: the command saw only a read-only view of the system and its scratch directory. */
  readonly files?: "bubblewrap";
  /** The scratch directory the command ran in. */
  readonly scratch?: string;
}

/** The outcome of one command. A run that failed to start is a value (`error`), not an exception. */
export interface CommandRun {
  readonly argv: readonly string[];
  /** The exit code, or null when the process was killed by a signal, timed out or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process, if any. */
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** Why the process could not be started (e.g. `spawn nope ENOENT`). */
  readonly error?: string | undefined;
  /** Wall-clock milliseconds, rounded. */
  readonly durationMs: number;
  /** The last `maxOutputBytes` bytes of stdout, decoded as UTF-8. */
  readonly stdout: string;
  readonly stderr: string;
  /** Total bytes the process wrote to stdout / stderr. */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** True when some output was dropped by the cap. */
  readonly truncated: boolean;
  /** The child's process id (undefined if it never started). */
  readonly pid?: number | undefined;
  /** The limits this run enforced (the built-in Node runner reports them; a custom runner may not). */
  readonly enforced?: EnforcedLimits | undefined;
  /** Requested limits that could not be enforced here (names of {@link ResourceLimits} fields, and `files`). */
  readonly notEnforced?: readonly string[] | undefined;
  /** True when the process tree was killed for going over `limits.memoryBytes`. */
  readonly memoryExceeded?: boolean | undefined;
}

/** Runs one command. Must never reject for a failing or unstartable command, and must honour `timeoutMs`. */
export type CommandRunner = (request: CommandRequest) => Promise<CommandRun>;

/**
 * True when a run counts as passed: it started, did not time out and exited with the expected code (0 unless
 * the seed expects another, `SandboxMetric`'s `expectedExitCode`).
 */
export function runSucceeded(run: CommandRun, expectedExitCode = 0): boolean {
  return run.error === undefined && !run.timedOut && run.exitCode === expectedExitCode;
}

/**
 * A short status for details: `exit 1`, `timed out after 500ms`, `signal SIGSEGV`, `error: …`. With an expected
 * exit code other than 0 an exit reads `exit 0, expected 3`, so a clean exit is not mistaken for the failure.
 */
export function runStatus(run: CommandRun, timeoutMs: number, expectedExitCode = 0): string {
  if (run.error !== undefined) return `error: ${run.error}`;
  if (run.timedOut) return `timed out after ${timeoutMs}ms`;
  if (run.memoryExceeded) return "memory limit exceeded";
  if (run.exitCode !== null) return expectedExitCode === 0 ? `exit ${run.exitCode}` : `exit ${run.exitCode}, expected ${expectedExitCode}`;
  return `signal ${run.signal ?? "unknown"}`;
}

const PLAIN_ARG = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** An argument vector for display: plain arguments as is, others JSON-quoted. */
export function formatCommand(argv: readonly string[]): string {
  return argv.map((arg) => (PLAIN_ARG.test(arg) ? arg : JSON.stringify(arg))).join(" ");
}

let nodeRunner: Promise<CommandRunner> | undefined;

/**
 * The default runner: Node's `child_process` (also under Deno and Bun), loaded on first use so that
 * importing `@evalkern/metrics/dsrs` never touches `node:*`. Elsewhere, pass `runner` explicitly.
 */
export function defaultCommandRunner(): Promise<CommandRunner> {
  nodeRunner ??= (async () => {
    const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
    if (typeof proc?.versions?.node !== "string") {
      throw new CommandRunnerUnavailableError(
        "no default command runner outside Node-compatible runtimes: pass options.runner to SandboxMetric/TestPassMetric",
      );
    }
    const module = await import("./node-runner.js");
    return module.runCommand;
  })().catch((error: unknown) => {
    nodeRunner = undefined;
    if (CommandRunnerUnavailableError.isInstance(error)) throw error;
    throw new CommandRunnerUnavailableError(`could not load the Node command runner: ${String(error)}`, { cause: error });
  });
  return nodeRunner;
}
