// The `evalkern` command line (commander). Every command has --help; parse errors, bad option values,
// missing files and malformed input end with a one-line message on stderr and a non-zero exit code
// (2 usage, 3 input, 1 anything else).
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { CliError, EXIT, messageOf } from "./errors.js";
import { judgeMetricsHelp } from "./judge-metrics.js";
import { log } from "./log.js";
import { metricsHelp } from "./metric-registry.js";
import { QUEUE_URL_ENV, resolveQueueUrl } from "./queue-url.js";
import { expandSacrebleuFlags } from "./sacrebleu-flags.js";
import { CLI_VERSION } from "./results.js";

export interface ProgramIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** What `-` reads (default: the process's stdin). */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
}

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer.`);
    return n;
  };
}

function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a non-negative integer.`);
    return n;
  };
}

function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative number.`);
    return n;
  };
}

/** The --queue / --queue-url-file flags as parsed. */
const queueFlags = (o: Record<string, unknown>) => ({
  queue: o.queue as string | boolean | undefined,
  queueUrlFile: o.queueUrlFile as string | undefined,
});

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
/** Repeatable and comma-separated: `--refs-field ref1,ref2` or `--refs-field ref1 --refs-field ref2`. */
const collectList = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== ""),
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

  const sink = { stdout: io.stdout, stderr: io.stderr };

  program
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
    .addOption(new Option("--format <format>", "summary on stdout: text (table) or json (as --json)").choices(["text", "json"]).default("text"))
    .option("-o, --output <file>", "per-row output, .jsonl or .csv (default: <input name>.scored.<ext> here)")
    .option("-m, --metric <name[:key=value...]>", "metric with options, repeatable (e.g. bleu, chrf:wordOrder=2, rouge:useStemmer=true)", collect)
    .option("--hyp-field <path>", "field holding the hypothesis (dotted paths allowed; name#n: the n-th of CSV columns sharing a name)", "hyp")
    .option("--refs-field <path>", "field(s) holding the reference(s): a string or a list; repeat or comma-separate for several CSV columns", collectList)
    .option("--id-field <path>", "field copied as the row id into the scorer's records")
    .option("-j, --workers <n>", "worker threads (default and maximum: all cores)", positiveInt("--workers"))
    .option("--resume", "continue from the last checkpoint of the same job (same input, metrics, fields, shard, row limits); damaged or edited files are refused")
    .option("--shard <i/n>", "score only shard i of n (1-based); merge shard outputs with `evalkern merge`")
    .option("--no-ci", "skip the bootstrap confidence intervals")
    .option("--resamples <n>", "bootstrap resamples", positiveInt("--resamples"), 1000)
    .option("--seed <n>", "bootstrap seed", nonNegativeInt("--seed"), 12345)
    .option("--report <file>", "also write the HTML report of this run")
    .option("--allow-bad-rows", "exit 0 even when some rows could not be scored (they carry _error in the output)")
    .option("--json", "print the summary as JSON instead of a table")
    .option("--fail-under <floors>", "exit 1 when a corpus score is below its floor, as printed (e.g. bleu=30,chrf=50,rougeL=0.4)")
    .addOption(new Option("--signatures <form>", "signatures in the table: short (metric options and a hash of the full form) or full; files and the report always keep the full form").choices(["short", "full"]).default("short"))
    .option("--no-progress", "no progress bar / progress lines on stderr")
    .addOption(new Option("--progress-interval <ms>", "interval of the plain progress lines when stderr is not a terminal").argParser(positiveInt("--progress-interval")).default(5000))
    .option("--tsv-quotes", "read .tsv input (and write .tsv output) with CSV quoting; by default a \" in TSV is text, as paste writes it")
    .option("--no-csv-escape", "CSV output: write text cells starting with = + - @ as they are (by default they get a leading ' so spreadsheets do not run them as formulas)")
    .option("--strict-utf8", "rows with bytes that are not UTF-8 are bad rows (default: scored with U+FFFD in their place, and reported)")
    .option("--max-row-bytes <n>", "rows longer than this are bad rows (row_too_large), never read into memory (default 16 MiB)", positiveInt("--max-row-bytes"))
    .option("--row-timeout <ms>", "time budget per row; rows over it are bad rows (row_timeout) and the run goes on (default 60000, 0: none)", nonNegativeInt("--row-timeout"))
    .addOption(new Option("--checkpoint-interval <ms>", "checkpoint interval").argParser(nonNegativeInt("--checkpoint-interval")).hideHelp())
    .option(
      "--queue [url]",
      "score on a cluster: send the chunks to `evalkern worker`s through this BullMQ queue on Redis " +
        "(redis://[:password@]host:port/db or rediss:// for TLS); the files written are those of a local run. " +
        `Without a URL it is read from ${QUEUE_URL_ENV}: a password in the arguments is visible to every user of the machine (ps)`,
    )
    .option("--queue-url-file <path>", "like --queue, with the URL read from the first line of this file (keeps the password out of ps)")
    .option("--job <name>", "with --queue: the run's name (letters, digits, . _ -); rerunning with the same name resumes, reusing the chunks workers already scored")
    .addOption(new Option("--queue-name <name>", "with --queue: BullMQ queue name shared with the workers").default("evalkern"))
    .addOption(new Option("--attempts <n>", "with --queue: attempts of a chunk that fails or exceeds its time budget before the run stops naming its lines").argParser(positiveInt("--attempts")).default(3))
    .option("--shared-input <path>", "with --queue: the input's path as the workers see it (shared storage); chunks then travel as byte ranges + sha256 instead of bytes (workers need --shared-dir)")
    .addHelpText(
      "after",
      `\n${metricsHelp()}\n\nExamples:\n  evalkern score examples/pairs.jsonl\n  evalkern score --hyp hyp.txt --ref ref1.txt --ref ref2.txt --metric bleu --metric chrf --score-only\n  evalkern score pairs.jsonl --metric bleu --metric chrf:wordOrder=2 --metric rouge:useStemmer=true -o out.jsonl\n  evalkern score data.csv --hyp-field output --refs-field ref1,ref2 -o out.csv --shard 1/4\n\n` +
        "On a cluster (one Redis 7, `evalkern worker` on each machine; see `evalkern worker --help`):\n" +
        `  ${QUEUE_URL_ENV}=redis://:PASSWORD@10.0.0.5:6379/0 evalkern score big.jsonl -o out.jsonl --queue --job nightly-1\n` +
        `  The chunks' bytes travel through Redis (no shared disk needed); rows, corpus scores and CIs are those of a local run.\n` +
        `  Killed, the same command (same --job) resumes; a chunk that crashes workers repeatedly stops the run naming its lines.\n`,
    )
    .action(async (input: string | undefined, o: Record<string, unknown>) => {
      const { scoreCommand, parseShard } = await import("./commands/score.js");
      code = await scoreCommand(
        {
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
        },
        sink,
      );
    });

  program
    .command("sacrebleu")
    .summary("sacreBLEU's command line on plain-text files: REF... -i HYP -m bleu chrf ter")
    .description(
      "Score one system's plain-text output (one segment per line) against line-aligned reference files with sacreBLEU's flags " +
        "and output: the same corpus scores, signatures and lines as sacreBLEU 2.6.0 (JSON by default, -f text, -b, -w). " +
        "Lines are read as sacreBLEU reads them (split at \\n, trailing whitespace removed, empty lines kept).",
    )
    .argument("[refs...]", "reference files, one per reference, line-aligned with the hypotheses (- reads stdin)")
    .option("-i, --input <file...>", "the hypothesis file (- or none: stdin)")
    .addOption(new Option("-m, --metrics <name...>", "metrics (space-separated)").choices(["bleu", "chrf", "ter"]).default(["bleu"]))
    .option("-b, --score-only", "print only the computed score")
    .option("-w, --width <n>", "decimals of the printed scores", nonNegativeInt("--width"), 1)
    .addOption(new Option("-f, --format <format>", "output format (overridden by $SACREBLEU_FORMAT, as in sacreBLEU)").choices(["json", "text", "latex"]).default("json"))
    .option("--tokenize <name>", "BLEU tokenizer: 13a (default), intl, zh, char, none (sacreBLEU's -tok)")
    .addOption(new Option("-s, --smooth-method <method>", "BLEU smoothing").choices(["exp", "floor", "add-k", "none"]).default("exp"))
    .option("--smooth-value <x>", "BLEU smoothing value for floor (default 0.1) and add-k (default 1) (sacreBLEU's -sv)", nonNegativeNumber("--smooth-value"))
    .option("--lowercase", "case-insensitive BLEU (sacreBLEU's -lc)")
    .option("--chrf-char-order <n>", "chrF character n-gram order (-cc)", positiveInt("--chrf-char-order"), 6)
    .option("--chrf-word-order <n>", "chrF word n-gram order; 2 is chrF++ (-cw)", nonNegativeInt("--chrf-word-order"), 0)
    .option("--chrf-beta <n>", "chrF recall weight", positiveInt("--chrf-beta"), 2)
    .option("--chrf-whitespace", "include whitespace in chrF character n-grams")
    .option("--chrf-lowercase", "case-insensitive chrF")
    .option("--chrf-eps-smoothing", "chrF epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order")
    .option("--ter-case-sensitive", "case-sensitive TER")
    .option("--ter-asian-support", "TER: special treatment of Asian characters")
    .option("--ter-no-punct", "TER: remove punctuation")
    .option("--ter-normalized", "TER: basic normalisation and tokenisation")
    .option("--workers <n>", "worker threads (default and maximum: all cores)", positiveInt("--workers"))
    .option("--no-color", "accepted for sacreBLEU's -nc (evalkern sacrebleu prints no colours)")
    .addOption(new Option("--short").hideHelp())
    .addOption(new Option("--num-refs <n>").hideHelp())
    .addOption(new Option("--sentence-level").hideHelp())
    .addOption(new Option("--confidence").hideHelp())
    .addOption(new Option("--confidence-n <n>").hideHelp())
    .addOption(new Option("-t, --test-set <name>").hideHelp())
    .addHelpText(
      "after",
      "\nsacreBLEU's multi-letter short flags work too: -tok, -lc, -sv, -cc, -cw.\n\nExamples:\n" +
        "  evalkern sacrebleu ref.txt -i hyp.txt -m bleu chrf ter\n  evalkern sacrebleu ref1.txt ref2.txt -i hyp.txt -b -w 2\n" +
        "  cat hyp.txt | evalkern sacrebleu ref.txt -tok intl -f text\n",
    )
    .action(async (refs: string[], o: Record<string, unknown>) => {
      const { sacrebleuCommand, refuseUnavailable } = await import("./commands/sacrebleu.js");
      refuseUnavailable(o);
      code = await sacrebleuCommand(
        {
          refs,
          input: o.input as string[] | undefined,
          metrics: o.metrics as ("bleu" | "chrf" | "ter")[],
          scoreOnly: o.scoreOnly === true,
          width: o.width as number,
          format: o.format as string,
          tokenize: o.tokenize as string | undefined,
          smoothMethod: o.smoothMethod as string,
          smoothValue: o.smoothValue as number | undefined,
          lowercase: o.lowercase === true,
          chrfCharOrder: o.chrfCharOrder as number,
          chrfWordOrder: o.chrfWordOrder as number,
          chrfBeta: o.chrfBeta as number,
          chrfWhitespace: o.chrfWhitespace === true,
          chrfLowercase: o.chrfLowercase === true,
          chrfEpsSmoothing: o.chrfEpsSmoothing === true,
          terCaseSensitive: o.terCaseSensitive === true,
          terAsianSupport: o.terAsianSupport === true,
          terNoPunct: o.terNoPunct === true,
          terNormalized: o.terNormalized === true,
          workers: o.workers as number | undefined,
          formatFromEnv: process.env.SACREBLEU_FORMAT,
        },
        { stdout: io.stdout, ...(io.stdin ? { stdin: io.stdin } : {}) },
      );
    });

  program
    .command("worker")
    .summary("score chunks of `evalkern score --queue` runs on this machine (BullMQ/Redis worker)")
    .description(
      "Run a queue worker for distributed scoring: take chunks of `evalkern score --queue` runs from the BullMQ queue on Redis " +
        "and score them on this machine's cores with the same code as a local run. Needs no shared file system (the chunks " +
        "travel through Redis) and runs only the built-in metrics a job names. A worker that dies loses its chunks' locks; " +
        "another worker takes them over. Ctrl-C/SIGTERM: finish the chunks being scored, then exit 0 (exit 1 when Redis " +
        "stays unreachable for 10 s meanwhile: the chunks held are not delivered, and other workers take them over).",
    )
    .option(
      "--queue [url]",
      "the queue: redis://[:password@]host:port/db or rediss:// (TLS); " +
        `default (and without a URL): ${QUEUE_URL_ENV}, which keeps the password out of ps`,
    )
    .option("--queue-url-file <path>", "read the queue URL from the first line of this file instead")
    .option("-c, --concurrency <n>", "chunks scored at once, one worker thread each (default: all cores)", positiveInt("--concurrency"))
    .addOption(new Option("--queue-name <name>", "BullMQ queue name shared with the producers").default("evalkern"))
    .addOption(new Option("--lock-duration <ms>", "lock of a chunk being scored, renewed at half of it; a dead worker's chunks go to others after it").argParser(positiveInt("--lock-duration")).default(30000))
    .addOption(new Option("--stalled-interval <ms>", "how often to look for chunks of dead workers").argParser(positiveInt("--stalled-interval")).default(30000))
    .addOption(new Option("--max-stalled <n>", "times a chunk may lose its worker before it fails as a poison chunk").argParser(nonNegativeInt("--max-stalled")).default(1))
    .option("--shared-dir <dir>", "let this worker read chunks of inputs under <dir> when a producer passes --shared-input (repeatable; default: none, chunks travel through Redis)", collect)
    .addHelpText(
      "after",
      "\nOne Redis, N machines (no docker-compose needed):\n" +
        "  redis:     redis-server --port 6379 --bind 10.0.0.5 --requirepass PASSWORD --save '' --appendonly no\n" +
        `  machine i: ${QUEUE_URL_ENV}=redis://:PASSWORD@10.0.0.5:6379/0 evalkern worker\n` +
        "  producer:  evalkern score big.jsonl -o out.jsonl --queue-url-file ~/.config/evalkern/queue-url --job nightly-1\n" +
        "Throughput is about N machines × one machine's rows/s while Redis keeps up (see the harness README for the model).\n",
    )
    .action(async (o: Record<string, unknown>) => {
      const { workerCommand } = await import("./commands/worker.js");
      code = await workerCommand(
        {
          queue: resolveQueueUrl(queueFlags(o), true)!,
          queueName: o.queueName as string | undefined,
          concurrency: o.concurrency as number | undefined,
          lockDuration: o.lockDuration as number | undefined,
          stalledInterval: o.stalledInterval as number | undefined,
          maxStalled: o.maxStalled as number | undefined,
          sharedDirs: (o.sharedDir as string[] | undefined) ?? [],
        },
        { stderr: io.stderr },
      );
    });

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
    .addOption(new Option("--progress-interval <ms>", "interval of the plain progress lines when stderr is not a terminal").argParser(positiveInt("--progress-interval")).default(5000))
    .addHelpText(
      "after",
      "\nExamples:\n  evalkern compare base.scored.jsonl new.scored.jsonl --by lang\n" +
        "  evalkern compare base.jsonl new.jsonl --metric bleu --metric chrf\n" +
        "  evalkern compare base.scored.jsonl sys1.scored.jsonl sys2.scored.jsonl\n",
    )
    .action(async (a: string, b: string, more: string[], o: Record<string, unknown>) => {
      const { compareCommand } = await import("./commands/compare.js");
      code = await compareCommand(
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
        sink,
      );
    });

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
    .addHelpText("after", "\nExamples:\n  evalkern run qa.yaml --base-url http://localhost:8000/v1 --model my-model -o results.json\n  evalkern run bench.ts --limit 50 --predictions preds.jsonl\n")
    .action(async (file: string, o: Record<string, unknown>) => {
      const { runCommand } = await import("./commands/run.js");
      code = await runCommand({ file, ...o } as never, sink);
    });

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
      `\n${judgeMetricsHelp()}\nRename a metric's output key with name=NAME, as in \`evalkern score\` (as=NAME still works but is deprecated; for g-eval, name= is also G-Eval's name).\n\nExamples:\n  evalkern judge rag.jsonl --metric faithfulness --metric answer-relevancy --model gpt-4o-mini --cache judge-cache.jsonl\n  evalkern judge rag.jsonl --metric faithfulness --model gpt-4o-mini --cache judge-cache.jsonl --replay   # CI: no network\n`,
    )
    .action(async (input: string, o: Record<string, unknown>) => {
      const { judgeCommand } = await import("./commands/judge.js");
      code = await judgeCommand({ input, ...o } as never, sink);
    });

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
      const { testCommand } = await import("./commands/test.js");
      code = await testCommand({ suite, ...o, filter: (o.filter ?? o.filterPattern) as string | undefined } as never, sink);
    });

  program
    .command("report")
    .summary("write a self-contained HTML report of a run")
    .description(
      "One HTML file with no external resources: score distributions per metric (SVG), per-slice tables, the " +
        "worst-scoring rows with hypothesis and references side by side, and the run's signatures.",
    )
    .argument("<results...>", "per-row output of `evalkern score -o` or `evalkern judge -o`; two score outputs (baseline, then system) for a two-system report with paired deltas and significance")
    .option("-o, --output <file>", "HTML file", "report.html")
    .option("--by <field>", "slice field(s) (default: detected: fields with 2–50 distinct short values)", collectList)
    .option("--worst <n>", "worst rows shown per metric", positiveInt("--worst"), 15)
    .option("--title <text>", "page title")
    .option("--id-field <path>", "field shown as each row's id (default: the run's --id-field, else `id` when rows have one)")
    .option("--no-ci", "no bootstrap CIs per slice")
    .option("--resamples <n>", "bootstrap resamples of the per-slice CIs and the paired test", positiveInt("--resamples"), 1000)
    .option("--seed <n>", "bootstrap seed", nonNegativeInt("--seed"), 12345)
    .addHelpText("after", "\nExamples:\n  evalkern report out.jsonl -o report.html --by lang\n  evalkern report base.scored.jsonl new.scored.jsonl -o ab.html --by lang   # paired Δ and p per metric and slice\n")
    .action(async (results: string[], o: Record<string, unknown>) => {
      if (results.length > 2) throw new CliError(`report takes one results file, or two (baseline, then system); got ${results.length}`, EXIT.usage);
      const { writeReport } = await import("./commands/report.js");
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
      io.stdout.write(`wrote ${r.path} (${(r.bytes / 1024).toFixed(1)} KiB)\n`);
    });

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
      const { mergeCommand } = await import("./commands/merge.js");
      code = await mergeCommand({ outputs, output: o.output as string, ci: o.ci !== false, workers: o.workers as number | undefined, json: o.json === true, signatures: o.signatures as "short" | "full" }, sink);
    });

  program
    .command("metrics")
    .summary("list the metrics and their options")
    .action(() => {
      io.stdout.write(`${metricsHelp()}\n\n${judgeMetricsHelp()}\n`);
    });

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
