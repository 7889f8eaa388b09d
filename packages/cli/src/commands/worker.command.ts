import { type Command, Option } from "commander";
import { QUEUE_URL_ENV, resolveQueueUrl } from "../queue-url.js";
import { type CommandContext, collect, nonNegativeInt, positiveInt, queueFlags } from "./command.js";

/** `evalkern worker`: score the chunks of `score --queue` runs taken from the BullMQ queue on Redis. */
export function registerWorker(program: Command, ctx: CommandContext): void {
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
    .addOption(
      new Option(
        "--lock-duration <ms>",
        "lock of a chunk being scored, renewed at half of it; a dead worker's chunks go to others after it",
      )
        .argParser(positiveInt("--lock-duration"))
        .default(30000),
    )
    .addOption(
      new Option("--stalled-interval <ms>", "how often to look for chunks of dead workers")
        .argParser(positiveInt("--stalled-interval"))
        .default(30000),
    )
    .addOption(
      new Option("--max-stalled <n>", "times a chunk may lose its worker before it fails as a poison chunk")
        .argParser(nonNegativeInt("--max-stalled"))
        .default(1),
    )
    .option(
      "--shared-dir <dir>",
      "let this worker read chunks of inputs under <dir> when a producer passes --shared-input (repeatable; default: none, chunks " +
        "travel through Redis)",
      collect,
    )
    .addHelpText(
      "after",
      "\nOne Redis, N machines (no docker-compose needed):\n" +
        "  redis:     redis-server --port 6379 --bind 10.0.0.5 --requirepass PASSWORD --save '' --appendonly no\n" +
        `  machine i: ${QUEUE_URL_ENV}=redis://:PASSWORD@10.0.0.5:6379/0 evalkern worker\n` +
        "  producer:  evalkern score big.jsonl -o out.jsonl --queue-url-file ~/.config/evalkern/queue-url --job nightly-1\n" +
        "Throughput is about N machines × one machine's rows/s while Redis keeps up (see the harness README for the model).\n",
    )
    .action(async (o: Record<string, unknown>) => {
      const { workerCommand } = await import("./worker.js");
      const exit = await workerCommand(
        {
          queue: resolveQueueUrl(queueFlags(o), true)!,
          queueName: o.queueName as string | undefined,
          concurrency: o.concurrency as number | undefined,
          lockDuration: o.lockDuration as number | undefined,
          stalledInterval: o.stalledInterval as number | undefined,
          maxStalled: o.maxStalled as number | undefined,
          sharedDirs: (o.sharedDir as string[] | undefined) ?? [],
        },
        { stderr: ctx.io.stderr },
      );
      ctx.setExitCode(exit);
    });
}
