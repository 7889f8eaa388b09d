import { type Command, Option } from "commander";
import { type CommandContext, positiveInt } from "./command.js";

/** `evalkern merge`: the outputs of `score --shard i/n` runs merged exactly. */
export function registerMerge(program: Command, ctx: CommandContext): void {
  program
    .command("merge")
    .summary("merge the outputs of `score --shard i/n` runs exactly")
    .description("Concatenate shard outputs in shard order and add their exact statistics: the merged corpus scores equal a single run's.")
    .argument("<outputs...>", "the shards' outputs (any order)")
    .requiredOption("-o, --output <file>", "merged per-row output")
    .option("--no-ci", "skip the bootstrap confidence intervals")
    .option("-j, --workers <n>", "worker threads", positiveInt("--workers"))
    .option("--json", "print the summary as JSON")
    .addOption(new Option("--signatures <form>", "signatures in the table: short or full").choices(["short", "full"]).default("short"))
    .action(async (outputs: string[], o: Record<string, unknown>) => {
      const { mergeCommand } = await import("./merge.js");
      const exit = await mergeCommand(
        {
          outputs,
          output: o.output as string,
          ci: o.ci !== false,
          workers: o.workers as number | undefined,
          json: o.json === true,
          signatures: o.signatures as "short" | "full",
        },
        ctx.sink,
      );
      ctx.setExitCode(exit);
    });
}
