import type { Command } from "commander";
import { CliError, EXIT } from "../errors.js";
import { type CommandContext, collectList, nonNegativeInt, positiveInt } from "./command.js";

/** `evalkern report`: the self-contained HTML report of one run, or of two runs compared. */
export function registerReport(program: Command, ctx: CommandContext): void {
  program
    .command("report")
    .summary("write a self-contained HTML report of a run")
    .description(
      "One HTML file with no external resources: score distributions per metric (SVG), per-slice tables, the " +
        "worst-scoring rows with hypothesis and references side by side, and the run's signatures.",
    )
    .argument(
      "<results...>",
      "per-row output of `evalkern score -o` or `evalkern judge -o`; two score outputs (baseline, then system) for a two-system report " +
        "with paired deltas and significance",
    )
    .option("-o, --output <file>", "HTML file", "report.html")
    .option("--by <field>", "slice field(s) (default: detected: fields with 2–50 distinct short values)", collectList)
    .option("--worst <n>", "worst rows shown per metric", positiveInt("--worst"), 15)
    .option("--title <text>", "page title")
    .option("--id-field <path>", "field shown as each row's id (default: the run's --id-field, else `id` when rows have one)")
    .option("--no-ci", "no bootstrap CIs per slice")
    .option("--resamples <n>", "bootstrap resamples of the per-slice CIs and the paired test", positiveInt("--resamples"), 1000)
    .option("--seed <n>", "bootstrap seed", nonNegativeInt("--seed"), 12345)
    .addHelpText(
      "after",
      "\nExamples:\n  evalkern report out.jsonl -o report.html --by lang\n  evalkern report base.scored.jsonl new.scored.jsonl -o " +
        "ab.html --by lang   # paired Δ and p per metric and slice\n",
    )
    .action(async (results: string[], o: Record<string, unknown>) => {
      if (results.length > 2) {
        throw new CliError(`report takes one results file, or two (baseline, then system); got ${results.length}`, EXIT.usage);
      }
      const { writeReport } = await import("./report.js");
      const r = await writeReport({
        results: results[results.length - 1]!,
        ...(results.length === 2 ? { baseline: results[0]! } : {}),
        paired: { resamples: o.resamples as number, seed: o.seed as number },
        output: o.output as string,
        by: o.by as string[] | undefined,
        worst: o.worst as number,
        title: o.title as string | undefined,
        idField: o.idField as string | undefined,
        sliceCi: o.ci === false ? false : { resamples: o.resamples as number, seed: o.seed as number },
      });
      ctx.io.stdout.write(`wrote ${r.path} (${(r.bytes / 1024).toFixed(1)} KiB)\n`);
    });
}
