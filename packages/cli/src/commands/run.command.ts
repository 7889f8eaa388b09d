import type { Command } from "commander";
import { type CommandContext, nonNegativeInt, nonNegativeNumber, positiveInt } from "./command.js";

/** `evalkern run`: a NeMo-BYOB-style benchmark against an OpenAI-compatible endpoint. */
export function registerRun(program: Command, ctx: CommandContext): void {
  program
    .command("run")
    .summary("run a BYOB benchmark against an OpenAI-compatible endpoint")
    .description(
      "Run a NeMo-BYOB-style benchmark: a JS/TS module (exporting benchmark(...) or a definition with a scorer function) or a " +
        "JSON/YAML definition (scorer by name: exactMatch, contains, f1Token, bleu, rouge, ... or ./file.js#export), against " +
        "any OpenAI-compatible base URL.",
    )
    .argument("<benchmark>", "benchmark file: .js/.mjs/.ts/.mts module or .json/.yaml/.yml definition")
    .option("--base-url <url>", "OpenAI-compatible base URL (default $EVALKERN_BASE_URL or $OPENAI_BASE_URL)")
    .option("--model <name>", "model name (default $EVALKERN_MODEL)")
    .option("--api-key <key>", "API key (default $EVALKERN_API_KEY or $OPENAI_API_KEY)")
    .option("--limit <n>", "only the first n samples", positiveInt("--limit"))
    .option("--parallelism <n>", "samples in flight", positiveInt("--parallelism"), 4)
    .option("--temperature <t>", "sampling temperature", nonNegativeNumber("--temperature"))
    .option("--max-tokens <n>", "generation limit", positiveInt("--max-tokens"))
    .option("--timeout <ms>", "per-request timeout", positiveInt("--timeout"))
    .option("--max-retries <n>", "retries on 429/5xx", nonNegativeInt("--max-retries"))
    .option("-o, --output <file>", "aggregated report (BYOB byob_results.json)")
    .option("--predictions <file>", "every sample as JSONL (BYOB byob_predictions.jsonl)")
    .option("--fail-on-skip", "exit non-zero when any sample was skipped")
    .option("--json", "print the aggregated report as JSON")
    .option("--no-progress", "no progress on stderr")
    .addHelpText(
      "after",
      "\nExamples:\n  evalkern run qa.yaml --base-url http://localhost:8000/v1 --model my-model -o results.json\n  evalkern run " +
        "bench.ts --limit 50 --predictions preds.jsonl\n",
    )
    .action(async (file: string, o: Record<string, unknown>) => {
      const { runCommand } = await import("./run.js");
      const exit = await runCommand({ file, ...o } as never, ctx.sink);
      ctx.setExitCode(exit);
    });
}
