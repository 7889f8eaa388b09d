// dsrs `SandboxMetric` and `TestPassMetric` (truth.rs:120-255, 419-555; docs/spec/dsrs.md §3.3-3.4). dsrs only
// dispatches to a remote provider (offline: a mock where everything passes); here the commands really run,
// through a `CommandRunner` (default: Node's child_process, loaded on first use). dsrs's score shape is kept.
import { checkMsats, evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { InvalidArgumentError } from "../../errors.js";
import { stringField } from "../fields.js";
import { checkOptionsObject, checkString, checkStringList, optionalPositive, optionalString, optionalUnsigned } from "../options.js";
import {
  defaultCommandRunner,
  formatCommand,
  runStatus,
  runSucceeded,
  type CommandRun,
  type CommandRunner,
  type ResourceLimits,
} from "../process/command.js";

/**
 * dsrs's sandbox profiles (pylon_sandbox.rs:29-63). The timeout and the memory limit are enforced (the memory
 * for the whole process tree where the OS gives a cgroup, else per process); `cpus` and `diskGb` are not, and
 * each run says so in `CommandRun.notEnforced`.
 */
export type SandboxProfile = "Small" | "Medium" | "Large";

export const SANDBOX_PROFILES: Readonly<
  Record<SandboxProfile, { readonly memoryMb: number; readonly cpus: number; readonly timeoutMs: number; readonly diskGb: number }>
> = Object.freeze({
  Small: { memoryMb: 1024, cpus: 1, timeoutMs: 60_000, diskGb: 5 },
  Medium: { memoryMb: 4096, cpus: 2, timeoutMs: 120_000, diskGb: 8 },
  Large: { memoryMb: 8192, cpus: 4, timeoutMs: 300_000, diskGb: 10 },
});

/**
 * The parent environment variables a command sees by default: enough to find programs and a home or
 * temp directory, nothing that usually carries secrets. Everything else is scrubbed.
 */
export const DEFAULT_INHERITED_ENV: readonly string[] = Object.freeze([
  "PATH",
  "HOME",
  "TMPDIR",
  "TEMP",
  "TMP",
  "LANG",
  "LC_ALL",
  "SYSTEMROOT",
  "PATHEXT",
  "COMSPEC",
  "USERPROFILE",
]);

/** Default cap on the bytes kept of each of stdout and stderr. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Characters (code points) of output shown in details, as dsrs's 200-character preview. */
export const OUTPUT_PREVIEW_CHARS = 200;

/** dsrs's `cost_msats` default for both metrics. */
export const SANDBOX_COST_MSATS = 500;

export interface ProcessMetricOptions {
  /** Working directory. Default: the current one. */
  readonly cwd?: string;
  /** Deadline for the whole evaluation, in ms. Default: the profile's timeout (Medium: 120 s). */
  readonly timeoutMs?: number;
  /** dsrs profile; sets the default timeout. Default `"Medium"`. */
  readonly profile?: SandboxProfile;
  /** Bytes kept of each of stdout and stderr (the tail). Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Parent environment variables passed through. Default {@link DEFAULT_INHERITED_ENV}; `[]` for none. */
  readonly inheritEnv?: readonly string[];
  /** Write this output field's string to each command's stdin. Default: stdin closed (dsrs ignores the output). */
  readonly stdinField?: string;
  /** Cost in msats. Default 500. */
  readonly costMsats?: number;
  /** Metric name. */
  readonly name?: string;
  /** How commands run. Default: Node's child_process (Node, Deno, Bun). */
  readonly runner?: CommandRunner;
  /**
   * Resource limits. Default: the profile's memory (`memoryMb`); give `memoryBytes`, `cpuSeconds`, `openFiles`,
   * `fileSizeBytes` or `network: false` to set more. What was enforced is reported in each run (see `run()`).
   */
  readonly limits?: ResourceLimits;
  /**
   * Run each evaluation in a fresh temporary copy of `cwd` (or an empty one), removed afterwards. On Linux
   * with bubblewrap (`bwrap`) the command then sees only a read-only view of the system (programs and
   * libraries), the running Node, the program, `readOnlyPaths`, and its scratch copy writable; each run
   * reports `files` in `enforced`, or in `notEnforced` where bwrap is missing or cannot run.
   */
  readonly scratch?: boolean;
  /** With `scratch`: absolute host paths the command may also read (e.g. `~/.cargo`, `~/.rustup`). */
  readonly readOnlyPaths?: readonly string[];
}

/** Every key of `ProcessMetricOptions` (checked against the type). */
const PROCESS_OPTION_KEYS = {
  cwd: true,
  timeoutMs: true,
  profile: true,
  maxOutputBytes: true,
  env: true,
  inheritEnv: true,
  stdinField: true,
  costMsats: true,
  name: true,
  runner: true,
  limits: true,
  scratch: true,
  readOnlyPaths: true,
} as const satisfies Record<keyof ProcessMetricOptions, true>;

export interface SandboxMetricOptions extends ProcessMetricOptions {
  /** Argument vectors run in order; the first failure stops the rest. Default `[["cargo", "test"]]`. */
  readonly commands?: ReadonlyArray<readonly string[]>;
  /**
   * The exit code every command must return to pass (the seed's expected exit code: a command that must fail
   * in a known way). Default 0.
   */
  readonly expectedExitCode?: number;
}

function checkExitCode(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > 255) {
    throw new InvalidArgumentError("options.expectedExitCode must be an integer from 0 to 255 (a process exit status)", {
      argument: "options.expectedExitCode",
      expected: "an integer 0-255",
      actual: String(value),
    });
  }
  return value;
}

export interface TestPassMetricOptions extends ProcessMetricOptions {
  /** The test command's argument vector. Default `["cargo", "test"]`. */
  readonly command?: readonly string[];
}

function checkArgv(value: unknown, argument: string): readonly string[] {
  if (typeof value === "string") {
    throw new InvalidArgumentError(
      `${argument} must be an argument vector such as ["cargo", "test"], not a shell string: commands never go through a shell`,
      { argument, expected: "string[]", actual: JSON.stringify(value) },
    );
  }
  const argv = checkStringList(value, argument);
  if (argv.length === 0 || argv[0] === "") {
    throw new InvalidArgumentError(`${argument} must name a program`, { argument, actual: "empty" });
  }
  argv.forEach((arg, index) => {
    if (arg.includes("\0")) throw new InvalidArgumentError(`${argument}[${index}] contains a NUL character`, { argument, index });
  });
  return argv;
}

interface ResolvedProcessOptions {
  readonly cwd: string | undefined;
  readonly timeoutMs: number;
  readonly profile: SandboxProfile;
  readonly maxOutputBytes: number;
  readonly env: Readonly<Record<string, string>> | undefined;
  readonly inheritEnv: readonly string[];
  readonly stdinField: string | undefined;
  readonly costMsats: number;
  readonly runner: CommandRunner | undefined;
  readonly limits: ResourceLimits;
  readonly scratch: boolean;
  readonly readOnlyPaths: readonly string[] | undefined;
}

function resolveProcessOptions(o: ProcessMetricOptions): ResolvedProcessOptions {
  const profile = o.profile ?? "Medium";
  if (!Object.prototype.hasOwnProperty.call(SANDBOX_PROFILES, profile)) {
    throw new InvalidArgumentError('options.profile must be "Small", "Medium" or "Large"', {
      argument: "options.profile",
      actual: String(profile),
    });
  }
  if (o.env !== undefined) {
    if (typeof o.env !== "object" || o.env === null || Array.isArray(o.env)) {
      throw new InvalidArgumentError("options.env must be an object of strings", { argument: "options.env" });
    }
    for (const [key, value] of Object.entries(o.env)) {
      if (typeof value !== "string") {
        throw new InvalidArgumentError(`options.env.${key} must be a string`, { argument: "options.env", actual: typeof value });
      }
    }
  }
  if (o.runner !== undefined && typeof o.runner !== "function") {
    throw new InvalidArgumentError("options.runner must be a function", { argument: "options.runner" });
  }
  return {
    cwd: optionalString(o.cwd, "options.cwd"),
    timeoutMs: optionalPositive(o.timeoutMs, "options.timeoutMs") ?? SANDBOX_PROFILES[profile].timeoutMs,
    profile,
    maxOutputBytes: optionalUnsigned(o.maxOutputBytes, "options.maxOutputBytes") ?? DEFAULT_MAX_OUTPUT_BYTES,
    env: o.env === undefined ? undefined : Object.freeze({ ...o.env }),
    inheritEnv: o.inheritEnv === undefined ? DEFAULT_INHERITED_ENV : checkStringList(o.inheritEnv, "options.inheritEnv"),
    stdinField: optionalString(o.stdinField, "options.stdinField"),
    costMsats: o.costMsats === undefined ? SANDBOX_COST_MSATS : checkMsats(o.costMsats, "options.costMsats"),
    runner: o.runner,
    limits: resolveLimits(o.limits, profile),
    scratch: o.scratch === undefined ? false : checkBoolean(o.scratch, "options.scratch"),
    readOnlyPaths: o.readOnlyPaths === undefined ? undefined : frozenList(o.readOnlyPaths, "options.readOnlyPaths"),
  };
}

function frozenList(value: unknown, argument: string): readonly string[] {
  return Object.freeze([...checkStringList(value, argument)]);
}

function checkBoolean(value: unknown, argument: string): boolean {
  if (typeof value !== "boolean") throw new InvalidArgumentError(`${argument} must be a boolean`, { argument, actual: typeof value });
  return value;
}

const LIMIT_KEYS = ["memoryBytes", "cpuSeconds", "openFiles", "fileSizeBytes", "network"];

function resolveLimits(value: ResourceLimits | undefined, profile: SandboxProfile): ResourceLimits {
  const memoryBytes = SANDBOX_PROFILES[profile].memoryMb * 1024 * 1024;
  if (value === undefined) return Object.freeze({ memoryBytes });
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError("options.limits must be an object", { argument: "options.limits", actual: typeof value });
  }
  const out: Record<string, number | boolean> = { memoryBytes };
  for (const [key, v] of Object.entries(value)) {
    if (!LIMIT_KEYS.includes(key)) {
      throw new InvalidArgumentError(`options.limits has no option ${JSON.stringify(key)}; its options are ${LIMIT_KEYS.join(", ")}`, {
        argument: `options.limits.${key}`,
      });
    }
    if (v === undefined) continue;
    out[key] = key === "network" ? checkBoolean(v, "options.limits.network") : (optionalPositive(v, `options.limits.${key}`) as number);
  }
  return Object.freeze(out);
}

/** Extra time a custom runner gets past the deadline before the metric stops waiting for it. */
const RUNNER_GRACE_MS = 1000;

function timedOutRun(argv: readonly string[]): CommandRun {
  return {
    argv,
    exitCode: null,
    signal: null,
    timedOut: true,
    durationMs: 0,
    stdout: "",
    stderr: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    truncated: false,
  };
}

/** Run `commands` in order against one deadline; stop at the first failure (dsrs's `continue_on_fail: false`). */
async function runAll(
  commands: ReadonlyArray<readonly string[]>,
  options: ResolvedProcessOptions,
  output: MetricInput,
  expectedExitCode = 0,
): Promise<CommandRun[]> {
  const runner = options.runner ?? (await defaultCommandRunner());
  const stdin = options.stdinField === undefined ? undefined : stringField(output, options.stdinField);
  const deadline = performance.now() + options.timeoutMs;
  const runs: CommandRun[] = [];
  for (const argv of commands) {
    const remaining = Math.floor(deadline - performance.now());
    if (remaining <= 0) {
      runs.push(timedOutRun(argv));
      break;
    }
    const request = {
      argv,
      cwd: options.cwd,
      env: options.env,
      inheritEnv: options.inheritEnv,
      timeoutMs: remaining,
      maxOutputBytes: options.maxOutputBytes,
      stdin,
      limits: options.limits,
      scratch: options.scratch,
      readOnlyPaths: options.readOnlyPaths,
    };
    let guard: ReturnType<typeof setTimeout> | undefined;
    // The built-in runner always settles in time; this bounds a custom runner that does not.
    const run = await Promise.race([
      runner(request),
      new Promise<CommandRun>((resolve) => {
        guard = setTimeout(() => resolve(timedOutRun(argv)), remaining + RUNNER_GRACE_MS);
      }),
    ]).finally(() => clearTimeout(guard));
    runs.push(run);
    if (!runSucceeded(run, expectedExitCode)) break;
  }
  return runs;
}

function lastCodePoints(text: string, count: number): string {
  const points = [...text];
  return points.length > count ? points.slice(points.length - count).join("") : text;
}

/** The tail shown in details: stderr if it has any output, else stdout; trailing whitespace dropped. */
export function outputPreview(run: CommandRun): string {
  const stderr = run.stderr.trimEnd();
  const text = stderr !== "" ? stderr : run.stdout.trimEnd();
  return lastCodePoints(text, OUTPUT_PREVIEW_CHARS);
}

abstract class ProcessMetricBase {
  readonly tier = "truth" as const;
  readonly cwd: string | undefined;
  readonly timeoutMs: number;
  readonly profile: SandboxProfile;
  readonly maxOutputBytes: number;
  readonly env: Readonly<Record<string, string>> | undefined;
  readonly inheritEnv: readonly string[];
  readonly stdinField: string | undefined;
  readonly costMsats: number;
  readonly runner: CommandRunner | undefined;
  readonly limits: ResourceLimits;
  readonly scratch: boolean;
  readonly readOnlyPaths: readonly string[] | undefined;
  private readonly explicitTimeout: number | undefined;
  private readonly explicitLimits: ResourceLimits | undefined;

  constructor(o: ProcessMetricOptions) {
    const r = resolveProcessOptions(o);
    this.cwd = r.cwd;
    this.timeoutMs = r.timeoutMs;
    this.profile = r.profile;
    this.maxOutputBytes = r.maxOutputBytes;
    this.env = r.env;
    this.inheritEnv = r.inheritEnv;
    this.stdinField = r.stdinField;
    this.costMsats = r.costMsats;
    this.runner = r.runner;
    this.limits = r.limits;
    this.scratch = r.scratch;
    this.readOnlyPaths = r.readOnlyPaths;
    this.explicitTimeout = o.timeoutMs;
    this.explicitLimits = o.limits;
  }

  /** dsrs `cost_estimate()` = `cost_msats`. */
  get costEstimate(): number {
    return this.costMsats;
  }

  protected processOptions(): ProcessMetricOptions {
    return {
      cwd: this.cwd,
      timeoutMs: this.explicitTimeout,
      profile: this.profile,
      maxOutputBytes: this.maxOutputBytes,
      env: this.env,
      inheritEnv: this.inheritEnv,
      stdinField: this.stdinField,
      costMsats: this.costMsats,
      runner: this.runner,
      limits: this.explicitLimits,
      scratch: this.scratch,
      readOnlyPaths: this.readOnlyPaths,
    };
  }

  protected resolved(): ResolvedProcessOptions {
    return resolveProcessOptions(this.processOptions());
  }
}

/**
 * Runs commands and scores their exit status (dsrs `SandboxMetric`, run for real).
 *
 * Details:
 * - Each command is an argument vector run without a shell, in `cwd`, with a scrubbed environment
 *   (`inheritEnv` plus `env`), one deadline (`timeoutMs`, default the profile's) for all commands, the
 *   process tree killed at the deadline, and at most `maxOutputBytes` of each stream kept.
 * - Success (every command exits with `expectedExitCode`, default 0): value 1.0, confidence 1.0,
 *   `"All <n> commands passed in <ms>ms"`.
 * - Failure: value 0.0, confidence 0.8, `"Failed commands: <cmd> (exit <code>)"` (`exit <code>, expected <n>`
 *   when `expectedExitCode` is not 0; or `timed out after <ms>ms`, `signal <name>`, `error: <why>`), then a
 *   newline and the last 200 characters of the failing command's output (stderr if any, else stdout).
 *   Commands after the first failure do not run.
 * - Cost = `costMsats` (500) either way; tier truth. Input and output are ignored unless `stdinField`.
 *
 * Gotchas: needs a command runner — Node's child_process by default (loaded on first use, so importing
 * this module stays runtime-neutral); elsewhere pass `runner`. The profile's memory limit is enforced (see
 * {@link SANDBOX_PROFILES}); `run()` returns what each run enforced.
 *
 * @example
 * const metric = new SandboxMetric({ commands: [["node", "-e", "process.exit(0)"]], timeoutMs: 10_000 });
 * (await metric.evaluate({}, {})).details; // "All 1 commands passed in 41ms"
 */
export class SandboxMetric extends ProcessMetricBase implements Metric {
  readonly name: string;
  readonly commands: ReadonlyArray<readonly string[]>;
  readonly expectedExitCode: number;

  constructor(options?: SandboxMetricOptions) {
    const keys = { ...PROCESS_OPTION_KEYS, commands: true, expectedExitCode: true } as const;
    const o = checkOptionsObject(options, "options", "SandboxMetric", keys);
    super(o);
    this.name = o.name === undefined ? "sandbox" : checkString(o.name, "options.name");
    const commands = o.commands ?? [["cargo", "test"]];
    if (!Array.isArray(commands)) {
      throw new InvalidArgumentError("options.commands must be an array of argument vectors", { argument: "options.commands" });
    }
    this.commands = Object.freeze(commands.map((argv, index) => checkArgv(argv, `options.commands[${index}]`)));
    this.expectedExitCode = checkExitCode(o.expectedExitCode);
  }

  private options(): SandboxMetricOptions {
    return { ...this.processOptions(), name: this.name, commands: this.commands, expectedExitCode: this.expectedExitCode };
  }

  /** The exit code every command must return to pass. */
  withExpectedExitCode(expectedExitCode: number): SandboxMetric {
    return new SandboxMetric({ ...this.options(), expectedExitCode });
  }

  /** dsrs `with_commands(list)`: replaces the commands. */
  withCommands(commands: ReadonlyArray<readonly string[]>): SandboxMetric {
    return new SandboxMetric({ ...this.options(), commands });
  }

  /** dsrs `with_profile(profile)`. */
  withProfile(profile: SandboxProfile): SandboxMetric {
    return new SandboxMetric({ ...this.options(), profile });
  }

  /** dsrs `with_cost(msats)`. */
  withCost(costMsats: number): SandboxMetric {
    return new SandboxMetric({ ...this.options(), costMsats });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): SandboxMetric {
    return new SandboxMetric({ ...this.options(), name });
  }

  /** The working directory. */
  withCwd(cwd: string): SandboxMetric {
    return new SandboxMetric({ ...this.options(), cwd });
  }

  /** The deadline in ms. */
  withTimeout(timeoutMs: number): SandboxMetric {
    return new SandboxMetric({ ...this.options(), timeoutMs });
  }

  async evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore> {
    return (await this.run(input, output)).score;
  }

  /** `evaluate` with the runs behind the score: exit status, output, and which limits each run enforced. */
  async run(_input: MetricInput, output: MetricInput): Promise<{ score: MetricScore; runs: CommandRun[] }> {
    const expected = this.expectedExitCode;
    const runs = await runAll(this.commands, this.resolved(), output, expected);
    if (runs.every((run) => runSucceeded(run, expected))) {
      const total = runs.reduce((sum, run) => sum + run.durationMs, 0);
      return {
        score: MetricScore.perfect().withDetails(`All ${runs.length} commands passed in ${total}ms`).withCost(this.costMsats),
        runs,
      };
    }
    const failed = runs.filter((run) => !runSucceeded(run, expected));
    const list = failed.map((run) => `${formatCommand(run.argv)} (${runStatus(run, this.timeoutMs, expected)})`).join(", ");
    const preview = outputPreview(failed[0] as CommandRun);
    const details = `Failed commands: ${list}${preview === "" ? "" : `\n${preview}`}`;
    return { score: MetricScore.new(0).withConfidence(0.8).withDetails(details).withCost(this.costMsats), runs };
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}

/**
 * Runs one test command and scores its exit status (dsrs `TestPassMetric`, run for real).
 *
 * Details:
 * - Runs exactly like {@link SandboxMetric} with one command.
 * - Pass: value 1.0, confidence 1.0, `"Tests passed in <ms>ms"`.
 * - Fail: value 0.0, confidence 0.9, `"Tests failed (exit <code>): <preview>"` where the preview is the
 *   last 200 characters of stderr, or of stdout when stderr is empty, or `"No output"`. A timeout reads
 *   `"Tests failed (timed out after <ms>ms): …"`.
 * - Cost = `costMsats` (500); tier truth.
 *
 * @example
 * const metric = new TestPassMetric({ command: ["node", "--test"], cwd: "/path/to/project", timeoutMs: 60_000 });
 */
export class TestPassMetric extends ProcessMetricBase implements Metric {
  readonly name: string;
  readonly command: readonly string[];

  constructor(options?: TestPassMetricOptions) {
    const o = checkOptionsObject(options, "options", "TestPassMetric", { ...PROCESS_OPTION_KEYS, command: true });
    super(o);
    this.name = o.name === undefined ? "tests_pass" : checkString(o.name, "options.name");
    this.command = checkArgv(o.command ?? ["cargo", "test"], "options.command");
  }

  private options(): TestPassMetricOptions {
    return { ...this.processOptions(), name: this.name, command: this.command };
  }

  /** dsrs `with_command(cmd)`. */
  withCommand(command: readonly string[]): TestPassMetric {
    return new TestPassMetric({ ...this.options(), command });
  }

  /** dsrs `with_profile(profile)`. */
  withProfile(profile: SandboxProfile): TestPassMetric {
    return new TestPassMetric({ ...this.options(), profile });
  }

  /** dsrs `with_cost(msats)`. */
  withCost(costMsats: number): TestPassMetric {
    return new TestPassMetric({ ...this.options(), costMsats });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): TestPassMetric {
    return new TestPassMetric({ ...this.options(), name });
  }

  /** The working directory. */
  withCwd(cwd: string): TestPassMetric {
    return new TestPassMetric({ ...this.options(), cwd });
  }

  /** The deadline in ms. */
  withTimeout(timeoutMs: number): TestPassMetric {
    return new TestPassMetric({ ...this.options(), timeoutMs });
  }

  async evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore> {
    return (await this.run(input, output)).score;
  }

  /** `evaluate` with the run behind the score: exit status, output, and which limits it enforced. */
  async run(_input: MetricInput, output: MetricInput): Promise<{ score: MetricScore; runs: CommandRun[] }> {
    const runs = await runAll([this.command], this.resolved(), output);
    const [run] = runs;
    if (run === undefined) {
      // Unreachable with one command; kept for dsrs's "No test run results" shape.
      return { score: MetricScore.new(0).withConfidence(0.9).withDetails("No test run results").withCost(this.costMsats), runs };
    }
    if (runSucceeded(run)) {
      return { score: MetricScore.perfect().withDetails(`Tests passed in ${run.durationMs}ms`).withCost(this.costMsats), runs };
    }
    const preview = outputPreview(run);
    const score = MetricScore.new(0)
      .withConfidence(0.9)
      .withDetails(`Tests failed (${runStatus(run, this.timeoutMs)}): ${preview === "" ? "No output" : preview}`)
      .withCost(this.costMsats);
    return { score, runs };
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
