// The `evalkern` command line (commander). Every command has --help; parse errors, bad option values,
// missing files and malformed input end with a one-line message on stderr and a non-zero exit code
// (2 usage, 3 input, 1 anything else).
import { Command, CommanderError } from "commander";
import type { CommandContext, ProgramIo } from "./commands/command.js";
import { registerCompare } from "./commands/compare.command.js";
import { registerJudge } from "./commands/judge.command.js";
import { registerMerge } from "./commands/merge.command.js";
import { registerMetrics } from "./commands/metrics.command.js";
import { registerReport } from "./commands/report.command.js";
import { registerRun } from "./commands/run.command.js";
import { registerSacrebleu } from "./commands/sacrebleu.command.js";
import { registerScore } from "./commands/score.command.js";
import { registerTest } from "./commands/test.command.js";
import { registerWorker } from "./commands/worker.command.js";
import { CliError, EXIT, messageOf } from "./errors.js";
import { log } from "./log.js";
import { expandSacrebleuFlags } from "./sacrebleu-flags.js";
import { CLI_VERSION } from "./results.js";

export type { ProgramIo } from "./commands/command.js";

/** The commands in the order `evalkern --help` lists them; each declares its own flags beside its handler. */
const COMMANDS: readonly ((program: Command, ctx: CommandContext) => void)[] = [
  registerScore,
  registerSacrebleu,
  registerWorker,
  registerCompare,
  registerRun,
  registerJudge,
  registerTest,
  registerReport,
  registerMerge,
  registerMetrics,
];

/** Build the program; `run` resolves with the exit code. */
export function createProgram(io: ProgramIo): { program: Command; exitCode: () => number } {
  let code: number = EXIT.ok;
  const program = new Command("evalkern");
  program
    .description("Score LLM outputs with the exact numbers of sacreBLEU, rouge-score, DSPy, NeMo BYOB and DeepEval — at native speed.")
    .version(CLI_VERSION, "-V, --version")
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith("error:") ? `evalkern: ${s.slice(7)}` : s),
    })
    .option("-q, --quiet", "print nothing on stderr but errors (no progress, notes or warnings); results still go to stdout")
    .option("--verbose", "more detail on stderr (phases and their timings); DEBUG=evalkern adds debug lines")
    .exitOverride();
  program.hook("preAction", (root) => {
    const g = root.opts() as { quiet?: boolean; verbose?: boolean };
    log.configure(io.stderr, { quiet: g.quiet === true, verbose: g.verbose === true });
    log.debug(`evalkern ${CLI_VERSION}, node ${process.version}, ${process.platform}/${process.arch}`);
  });

  const ctx: CommandContext = {
    io,
    sink: { stdout: io.stdout, stderr: io.stderr },
    setExitCode: (exit) => {
      code = exit;
    },
  };
  for (const register of COMMANDS) register(program, ctx);

  return { program, exitCode: () => code };
}

/**
 * Run the command line with `argv` (without node and the script); resolves with the exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
 */
export async function main(argv: readonly string[], io: ProgramIo): Promise<number> {
  const { program, exitCode } = createProgram(io);
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.usage;
  }
  try {
    // sacreBLEU's -tok, -lc, ... (several letters after one dash) are spelled long for commander
    await program.parseAsync(expandSacrebleuFlags(argv), { from: "user" });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT.ok;
      return EXIT.usage;
    }
    if (CliError.isInstance(error)) {
      io.stderr.write(`evalkern: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`evalkern: ${messageOf(error)}\n`);
    if (process.env.EVALKERN_DEBUG || log.debugging) io.stderr.write(`${(error as Error)?.stack ?? ""}\n`);
    return EXIT.failure;
  }
}
