import { type Command, Option } from "commander";
import { metricsHelp } from "../metric-registry.js";
import { QUEUE_URL_ENV, resolveQueueUrl } from "../queue-url.js";
import { type CommandContext, collect, collectList, nonNegativeInt, positiveInt, queueFlags } from "./command.js";
import type { ScoreCommandOptions, ShardArgument } from "./score.js";

/** `evalkern score`: rule metrics over a JSONL/CSV/TSV file or plain-text files, locally or on a queue cluster. */
export function registerScore(program: Command, ctx: CommandContext): void {
  const command = program
    .command("score")
    .summary("score a JSONL/CSV file with rule metrics (BLEU, chrF, ROUGE, F1, EM, ...)")
    .description(
      "Score every row of a JSONL or CSV file with rule metrics on all cores. Writes the input rows with one object per metric " +
        "(JSONL) or one column per score (CSV), a summary table with corpus scores, 95% bootstrap CIs and signatures, " +
        "and keeps checkpoints so that --resume continues a killed run.",
    )
    .argument("[input]", "JSONL (one object per line) or CSV/TSV (header row) file; or plain-text files with --hyp/--ref")
    .option("--hyp <file>", "plain-text hypotheses, one segment per line (- reads stdin), instead of an input file")
    .option("--ref <file>", "plain-text references line-aligned with --hyp, one file per reference (repeat for several)", collect)
    .option("-b, --score-only", "print the corpus scores only: write no output rows and no sidecar (as sacreBLEU)")
    .option("-w, --width <n>", "decimals of 0–100 scores in the table (0–1 scores get two more; default 2)", nonNegativeInt("--width"))
    .addOption(
      new Option("--format <format>", "summary on stdout: text (table) or json (as --json)").choices(["text", "json"]).default("text"),
    )
    .option("-o, --output <file>", "per-row output, .jsonl or .csv (default: <input name>.scored.<ext> here)")
    .option(
      "-m, --metric <name[:key=value...]>",
      "metric with options, repeatable (e.g. bleu, chrf:wordOrder=2, rouge:useStemmer=true)",
      collect,
    )
    .option(
      "--hyp-field <path>",
      "field holding the hypothesis (dotted paths allowed; name#n: the n-th of CSV columns sharing a name)",
      "hyp",
    )
    .option(
      "--refs-field <path>",
      "field(s) holding the reference(s): a string or a list; repeat or comma-separate for several CSV columns",
      collectList,
    )
    .option("--id-field <path>", "field copied as the row id into the scorer's records")
    .option("-j, --workers <n>", "worker threads (default and maximum: all cores)", positiveInt("--workers"))
    .option(
      "--resume",
      "continue from the last checkpoint of the same job (same input, metrics, fields, shard, row limits); damaged or edited files are " +
        "refused",
    )
    .option("--shard <i/n>", "score only shard i of n (1-based); merge shard outputs with `evalkern merge`")
    .option("--no-ci", "skip the bootstrap confidence intervals")
    .option("--resamples <n>", "bootstrap resamples", positiveInt("--resamples"), 1000)
    .option("--seed <n>", "bootstrap seed", nonNegativeInt("--seed"), 12345)
    .option("--report <file>", "also write the HTML report of this run")
    .option("--allow-bad-rows", "exit 0 even when some rows could not be scored (they carry _error in the output)")
    .option("--json", "print the summary as JSON instead of a table")
    .option("--fail-under <floors>", "exit 1 when a corpus score is below its floor, as printed (e.g. bleu=30,chrf=50,rougeL=0.4)")
    .addOption(
      new Option(
        "--signatures <form>",
        "signatures in the table: short (metric options and a hash of the full form) or full; files and the report always keep the full " +
          "form",
      )
        .choices(["short", "full"])
        .default("short"),
    )
    .option("--no-progress", "no progress bar / progress lines on stderr")
    .addOption(
      new Option("--progress-interval <ms>", "interval of the plain progress lines when stderr is not a terminal")
        .argParser(positiveInt("--progress-interval"))
        .default(5000),
    )
    .option("--tsv-quotes", 'read .tsv input (and write .tsv output) with CSV quoting; by default a " in TSV is text, as paste writes it')
    .option(
      "--no-csv-escape",
      "CSV output: write text cells starting with = + - @ as they are (by default they get a leading ' so spreadsheets do not run them " +
        "as formulas)",
    )
    .option("--strict-utf8", "rows with bytes that are not UTF-8 are bad rows (default: scored with U+FFFD in their place, and reported)")
    .option(
      "--max-row-bytes <n>",
      "rows longer than this are bad rows (row_too_large), never read into memory (default 16 MiB)",
      positiveInt("--max-row-bytes"),
    )
    .option(
      "--row-timeout <ms>",
      "time budget per row; rows over it are bad rows (row_timeout) and the run goes on (default 60000, 0: none)",
      nonNegativeInt("--row-timeout"),
    )
    .addOption(
      new Option("--checkpoint-interval <ms>", "checkpoint interval").argParser(nonNegativeInt("--checkpoint-interval")).hideHelp(),
    );
  withQueueFlags(command)
    .addHelpText(
      "after",
      `\n${metricsHelp()}\n\nExamples:\n  evalkern score examples/pairs.jsonl\n` +
        "  evalkern score --hyp hyp.txt --ref ref1.txt --ref ref2.txt --metric bleu --metric chrf --score-only\n" +
        "  evalkern score pairs.jsonl --metric bleu --metric chrf:wordOrder=2 --metric rouge:useStemmer=true -o out.jsonl\n" +
        "  evalkern score data.csv --hyp-field output --refs-field ref1,ref2 -o out.csv --shard 1/4\n\n" +
        "On a cluster (one Redis 7, `evalkern worker` on each machine; see `evalkern worker --help`):\n" +
        `  ${QUEUE_URL_ENV}=redis://:PASSWORD@10.0.0.5:6379/0 evalkern score big.jsonl -o out.jsonl --queue --job nightly-1\n` +
        `  The chunks' bytes travel through Redis (no shared disk needed); rows, corpus scores and CIs are those of a local run.\n` +
        `  Killed, the same command (same --job) resumes; a chunk that crashes workers repeatedly stops the run naming its lines.\n`,
    )
    .action(async (input: string | undefined, o: Record<string, unknown>) => {
      const { scoreCommand, parseShard } = await import("./score.js");
      ctx.setExitCode(await scoreCommand(scoreOptions(input, o, parseShard), ctx.sink));
    });
}

/** The flags of a run on a cluster (`--queue` and what goes with it), listed after the local run's flags. */
function withQueueFlags(command: Command): Command {
  return command
    .option(
      "--queue [url]",
      "score on a cluster: send the chunks to `evalkern worker`s through this BullMQ queue on Redis " +
        "(redis://[:password@]host:port/db or rediss:// for TLS); the files written are those of a local run. " +
        `Without a URL it is read from ${QUEUE_URL_ENV}: a password in the arguments is visible to every user of the machine (ps)`,
    )
    .option("--queue-url-file <path>", "like --queue, with the URL read from the first line of this file (keeps the password out of ps)")
    .option(
      "--job <name>",
      "with --queue: the run's name (letters, digits, . _ -); rerunning with the same name resumes, reusing the chunks workers already " +
        "scored",
    )
    .addOption(new Option("--queue-name <name>", "with --queue: BullMQ queue name shared with the workers").default("evalkern"))
    .addOption(
      new Option(
        "--attempts <n>",
        "with --queue: attempts of a chunk that fails or exceeds its time budget before the run stops naming its lines",
      )
        .argParser(positiveInt("--attempts"))
        .default(3),
    )
    .option(
      "--shared-input <path>",
      "with --queue: the input's path as the workers see it (shared storage); chunks then travel as byte ranges + sha256 instead of " +
        "bytes (workers need --shared-dir)",
    );
}

/** The handler's options from the parsed flags (`parseShard` comes with the handler, loaded when the command runs). */
function scoreOptions(
  input: string | undefined,
  o: Record<string, unknown>,
  parseShard: (text: string) => ShardArgument,
): ScoreCommandOptions {
  return {
    input,
    hyp: o.hyp as string | undefined,
    refs: o.ref as string[] | undefined,
    scoreOnly: o.scoreOnly === true,
    width: o.width as number | undefined,
    output: o.output as string | undefined,
    metrics: (o.metric as string[] | undefined) ?? [],
    hypField: o.hypField as string,
    refsField: (o.refsField as string[] | undefined) ?? ["refs"],
    idField: o.idField as string | undefined,
    workers: o.workers as number | undefined,
    resume: o.resume === true,
    shard: o.shard ? parseShard(o.shard as string) : undefined,
    ci: o.ci !== false,
    resamples: o.resamples as number,
    seed: o.seed as number,
    progress: o.progress !== false,
    progressInterval: o.progressInterval as number,
    checkpointInterval: o.checkpointInterval as number | undefined,
    maxRowBytes: o.maxRowBytes as number | undefined,
    strictUtf8: o.strictUtf8 === true,
    tsvQuotes: o.tsvQuotes === true,
    csvEscapeFormulas: o.csvEscape !== false,
    rowTimeout: o.rowTimeout as number | undefined,
    report: o.report as string | undefined,
    allowBadRows: o.allowBadRows === true,
    json: o.json === true || o.format === "json",
    ...(o.failUnder !== undefined ? { failUnder: o.failUnder as string } : {}),
    signatures: o.signatures as "short" | "full",
    queue: resolveQueueUrl(queueFlags(o), false),
    job: o.job as string | undefined,
    queueName: o.queueName as string | undefined,
    attempts: o.attempts as number | undefined,
    sharedInput: o.sharedInput as string | undefined,
  };
}
