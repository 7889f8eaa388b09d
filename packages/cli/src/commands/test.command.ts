import { type Command, Option } from "commander";
import { type CommandContext, positiveInt } from "./command.js";

/** `evalkern test`: a promptfoo-style suite file; the exit code fails CI on a failing test. */
export function registerTest(program: Command, ctx: CommandContext): void {
  program
    .command("test")
    .summary("run a promptfoo-style eval suite (YAML/JSON) and fail CI on a failing test")
    .description(
      "Run a suite file in promptfoo's shape (prompts, providers, tests with vars, a given output or one generated through " +
        "an OpenAI-compatible endpoint, assert lists with threshold, weight, not- and assert-set, defaultTest, tests from " +
        "file://tests.csv or .jsonl). Assertion types: promptfoo's, any metric of `evalkern metrics`, any judge metric. " +
        "Exit 0 when every test passes, 1 when one fails or cannot be run, 2 usage, 3 a suite that cannot be read.",
    )
    .argument("<suite>", "suite file (.yaml, .yml or .json)")
    .option("-o, --output <file>", "write every result as JSON")
    .option("--junit <file>", "write JUnit XML (what CI systems read)")
    .option("--filter <regex>", "only tests whose description matches (promptfoo's --filter-pattern)")
    .addOption(new Option("--filter-pattern <regex>", "same as --filter").hideHelp())
    .option("--filter-first-n <n>", "only the first n tests", positiveInt("--filter-first-n"))
    .option(
      "--base-url <url>",
      "OpenAI-compatible base URL of providers without config.apiBaseUrl (default $EVALKERN_BASE_URL or $OPENAI_BASE_URL)",
    )
    .option("--api-key <key>", "API key of the providers (default $EVALKERN_API_KEY or $OPENAI_API_KEY)")
    .option("--judge-model <name>", "judge of model-graded assertions and judge metrics (default $EVALKERN_JUDGE_MODEL)")
    .option("--judge-base-url <url>", "the judge's base URL (default $EVALKERN_JUDGE_BASE_URL)")
    .option("--judge-api-key <key>", "the judge's API key (default $EVALKERN_JUDGE_API_KEY)")
    .option("--cache <file>", "cache of generations and judge calls (JSONL): hits cost nothing, misses are recorded")
    .option("--replay", "answer every call from --cache only; nothing is sent")
    .option("--concurrency <n>", "tests in flight", positiveInt("--concurrency"), 4)
    .option("--timeout <ms>", "per-request timeout", positiveInt("--timeout"))
    .option("--json", "print the results as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  evalkern test examples/evals.yaml --junit results.xml\n" +
        "  evalkern test evals.yaml --base-url http://localhost:8000/v1 --cache calls.jsonl --filter capital\n",
    )
    .action(async (suite: string, o: Record<string, unknown>) => {
      const { testCommand } = await import("./test.js");
      const exit = await testCommand({ suite, ...o, filter: (o.filter ?? o.filterPattern) as string | undefined } as never, ctx.sink);
      ctx.setExitCode(exit);
    });
}
