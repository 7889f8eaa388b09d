// Running the built `evalkern` command as a child process, and temp dirs for its files.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const packageRoot = fileURLToPath(new URL("../..", import.meta.url));
export const repoRoot = join(packageRoot, "../..");
export const bin = join(packageRoot, "dist/bin.js");
export const examplePairs = join(repoRoot, "examples/pairs.jsonl");

export function tempDir(prefix = "evalkern-cli-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
  /** Text written to the command's stdin (default: no stdin). */
  readonly stdin?: string;
}

/** Start `node dist/bin.js ...args` (stdout/stderr are pipes, so not a TTY). */
export function spawnCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...options.env })) if (v !== undefined) env[k] = v;
  // the judge/run endpoints of the tests are on loopback; never inherit a real one
  for (const k of [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "EVALKERN_BASE_URL",
    "EVALKERN_MODEL",
    "EVALKERN_JUDGE_BASE_URL",
    "EVALKERN_JUDGE_MODEL",
    "EVALKERN_JUDGE_API_KEY",
  ]) {
    if (!options.env || !(k in options.env)) delete env[k];
  }
  return spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? packageRoot,
    env,
    stdio: [options.stdin !== undefined ? "pipe" : "ignore", "pipe", "pipe"],
  });
}

/** Run the command to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 110_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
