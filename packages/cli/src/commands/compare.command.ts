import { type Command, Option } from "commander";
import { type CommandContext, collect, collectList, nonNegativeInt, positiveInt } from "./command.js";

/** `evalkern compare`: paired bootstrap test of systems against a baseline, per metric and per slice. */
export function registerCompare(program: Command, ctx: CommandContext): void {
  program
    .command("compare")
    .summary("paired significance of systems against a baseline on the same references")
    .description(
      "Compare systems scored on the same references, row by row: sacreBLEU's paired bootstrap test per metric " +
        "(and per slice with --by). <a> is the baseline; each system after it is tested against the baseline alone, " +
        "as `sacrebleu -i base sys1 sys2 --paired-bs` does. Each is an output of `evalkern score`, or a raw input file " +
        "that is scored first.",
    )
    .argument("<a>", "baseline: a scored output (evalkern score -o) or an input file")
    .argument("<b>", "system: same")
    .argument("[more...]", "more systems, each compared with the baseline")
    .option("--by <field>", "also compare per value of this field (repeatable)", collectList)
    .option("-m, --metric <name[:key=value...]>", "metrics for raw input files (default: those of `evalkern score`)", collect)
    .option("--hyp-field <path>", "hypothesis field of raw input files", "hyp")
    .option("--refs-field <path>", "reference field(s) of raw input files", collectList)
    .option("--resamples <n>", "bootstrap resamples", positiveInt("--resamples"), 1000)
    .option("--seed <n>", "bootstrap seed", nonNegativeInt("--seed"), 12345)
    .option("-j, --workers <n>", "worker threads", positiveInt("--workers"))
    .option("--json", "print the results as JSON")
    .option("--no-progress", "no progress on stderr while raw input files are scored")
    .addOption(
      new Option("--progress-interval <ms>", "interval of the plain progress lines when stderr is not a terminal")
        .argParser(positiveInt("--progress-interval"))
        .default(5000),
    )
    .addHelpText(
      "after",
      "\nExamples:\n  evalkern compare base.scored.jsonl new.scored.jsonl --by lang\n" +
        "  evalkern compare base.jsonl new.jsonl --metric bleu --metric chrf\n" +
        "  evalkern compare base.scored.jsonl sys1.scored.jsonl sys2.scored.jsonl\n",
    )
    .action(async (a: string, b: string, more: string[], o: Record<string, unknown>) => {
      const { compareCommand } = await import("./compare.js");
      const exit = await compareCommand(
        {
          a,
          b,
          more,
          by: (o.by as string[] | undefined) ?? [],
          metrics: (o.metric as string[] | undefined) ?? [],
          hypField: o.hypField as string,
          refsField: (o.refsField as string[] | undefined) ?? ["refs"],
          resamples: o.resamples as number,
          seed: o.seed as number,
          workers: o.workers as number | undefined,
          json: o.json === true,
          progress: o.progress !== false,
          progressInterval: o.progressInterval as number,
        },
        ctx.sink,
      );
      ctx.setExitCode(exit);
    });
}
