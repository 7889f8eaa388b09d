import type { Command } from "commander";
import { judgeMetricsHelp } from "../judge-metrics.js";
import { type CommandContext, collect, nonNegativeNumber, positiveInt } from "./command.js";

/** `evalkern judge`: LLM-as-judge metrics with CIs, pass rates, cost and a replayable cache. */
export function registerJudge(program: Command, ctx: CommandContext): void {
  program
    .command("judge")
    .summary("LLM-as-judge metrics (DeepEval, DSPy) with cost summary and a replayable cache")
    .description(
      "Score rows with judge metrics (faithfulness, answer-relevancy, g-eval, semantic-f1, ...) using the configured " +
        "OpenAI-compatible model. Prints mean scores with 95% CIs, pass rates and the cost; --cache records every judge " +
        "call, --replay answers only from the cache (no request is sent; a miss is an error).",
    )
    .argument("<input>", "JSONL/CSV rows with input, actual_output, expected_output, context, retrieval_context")
    .option("-m, --metric <name[:key=value...]>", "judge metric, repeatable", collect)
    .option("-o, --output <file>", "per-row output (.jsonl or .csv)")
    .option("--model <name>", "judge model (default $EVALKERN_JUDGE_MODEL)")
    .option("--base-url <url>", "OpenAI-compatible base URL (default $EVALKERN_JUDGE_BASE_URL)")
    .option("--api-key <key>", "API key (default $EVALKERN_JUDGE_API_KEY)")
    .option("--cache <file>", "judge-call cache (JSONL): hits cost nothing, misses are recorded")
    .option("--replay", "answer every call from --cache only; a miss fails the row and nothing is sent")
    .option("--concurrency <n>", "judge calls in flight", positiveInt("--concurrency"), 4)
    .option("--price-input <usd>", "USD per million input tokens (for the cost summary)", nonNegativeNumber("--price-input"))
    .option("--price-output <usd>", "USD per million output tokens", nonNegativeNumber("--price-output"))
    .option("--timeout <ms>", "per-request timeout", positiveInt("--timeout"))
    .option("--input-field <path>", "input/question field", "input")
    .option("--output-field <path>", "actual output field", "actual_output")
    .option("--expected-field <path>", "expected output field", "expected_output")
    .option("--context-field <path>", "context field (list of strings)", "context")
    .option("--retrieval-context-field <path>", "retrieval context field (list)", "retrieval_context")
    .option("--limit <n>", "only the first n rows", positiveInt("--limit"))
    .option("--report <file>", "also write the HTML report")
    .option("--allow-failures", "exit 0 even when some judge calls failed")
    .option("--fail-under <floors>", "exit 1 when a judge metric's pass rate (0–1) is below its floor (e.g. faithfulness=0.8)")
    .option("--json", "print the summary as JSON")
    .option("--no-progress", "no progress on stderr")
    .addHelpText(
      "after",
      `\n${judgeMetricsHelp()}\nRename a metric's output key with name=NAME, as in \`evalkern score\` ` +
        "(as=NAME still works but is deprecated; for g-eval, name= is also G-Eval's name).\n\nExamples:\n" +
        "  evalkern judge rag.jsonl --metric faithfulness --metric answer-relevancy --model gpt-4o-mini --cache judge-cache.jsonl\n" +
        "  evalkern judge rag.jsonl --metric faithfulness --model gpt-4o-mini --cache judge-cache.jsonl --replay   # CI: no network\n",
    )
    .action(async (input: string, o: Record<string, unknown>) => {
      const { judgeCommand } = await import("./judge.js");
      const exit = await judgeCommand({ input, ...o } as never, ctx.sink);
      ctx.setExitCode(exit);
    });
}
