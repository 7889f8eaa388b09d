import type { Command } from "commander";
import { judgeMetricsHelp } from "../judge-metrics.js";
import { metricsHelp } from "../metric-registry.js";
import type { CommandContext } from "./command.js";

/** `evalkern metrics`: the rule and judge metrics with their options. */
export function registerMetrics(program: Command, ctx: CommandContext): void {
  program
    .command("metrics")
    .summary("list the metrics and their options")
    .action(() => {
      ctx.io.stdout.write(`${metricsHelp()}\n\n${judgeMetricsHelp()}\n`);
    });
}
