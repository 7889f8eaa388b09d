// What bundlers load for ./node-runner.js when they build for the browser (the `browser` field of
// package.json): the same exports, with no `node:` import. A browser has no processes: pass `runner`
// to SandboxMetric/TestPassMetric (defaultCommandRunner() already refuses outside Node before this).
import { CommandRunnerUnavailableError } from "../errors.js";
import type { CommandRequest, CommandRun } from "./command.js";

const unavailable = (): CommandRunnerUnavailableError =>
  new CommandRunnerUnavailableError(
    "the Node command runner is not available in a browser build (no child processes): pass options.runner to SandboxMetric/TestPassMetric",
  );

export function buildEnvironment(_request: Pick<CommandRequest, "env" | "inheritEnv">): Record<string, string> {
  throw unavailable();
}

export function runCommand(_request: CommandRequest): Promise<CommandRun> {
  return Promise.reject(unavailable());
}
