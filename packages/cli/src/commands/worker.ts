// `evalkern worker`: a queue worker of distributed scoring (`evalkern score --queue`). Takes chunks from
// the BullMQ queue on Redis and scores them on this machine's cores with the same per-chunk code as a
// local `evalkern score`, until stopped with Ctrl-C/SIGTERM (it finishes the chunks it holds, then exits
// 0; when Redis stays unreachable meanwhile it stops anyway after 10 s and exits 1, since the chunks it
// held were not delivered). Runs only the built-in metrics a job names; nothing is read from or written
// to local files.
import { log } from "../log.js";
import { mapHarnessError } from "../harness-errors.js";
import { EXIT } from "../errors.js";

export interface WorkerCommandOptions {
  readonly queue: string;
  readonly queueName?: string | undefined;
  readonly concurrency?: number | undefined;
  readonly lockDuration?: number | undefined;
  readonly stalledInterval?: number | undefined;
  readonly maxStalled?: number | undefined;
  /** Directories whose files the worker may read for --shared-input chunks. */
  readonly sharedDirs?: readonly string[] | undefined;
}

export interface WorkerIo {
  readonly stderr: { write(text: string): unknown };
}

/** Run the worker until SIGINT/SIGTERM/SIGHUP; resolves with the exit code. */
export async function workerCommand(options: WorkerCommandOptions, io: WorkerIo): Promise<number> {
  const { runWorker } = await import("@evalkern/harness/queue");
  let worker: Awaited<ReturnType<typeof runWorker>>;
  try {
    worker = await runWorker({
      queue: options.queue,
      ...(options.queueName ? { queueName: options.queueName } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.lockDuration !== undefined ? { lockDurationMs: options.lockDuration } : {}),
      ...(options.stalledInterval !== undefined ? { stalledIntervalMs: options.stalledInterval } : {}),
      ...(options.maxStalled !== undefined ? { maxStalledCount: options.maxStalled } : {}),
      ...(options.sharedDirs && options.sharedDirs.length ? { sharedInputDirs: options.sharedDirs } : {}),
      log: (line) => (log.quiet ? undefined : io.stderr.write(`evalkern worker: ${line}\n`)),
    });
  } catch (e) {
    throw mapHarnessError(e);
  }
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (name: string) => {
      if (stopping) process.exit(128 + (name === "SIGINT" ? 2 : name === "SIGTERM" ? 15 : 1)); // a second signal: now
      stopping = true;
      if (!log.quiet)
        io.stderr.write(`evalkern worker: ${name}: finishing the chunks being scored, then stopping (${worker.scored()} scored)\n`);
      resolve();
    };
    for (const s of signals) process.on(s, () => stop(s));
  });
  try {
    await worker.close();
  } catch (e) {
    // Redis gone while stopping: stop anyway, and say what was not delivered
    io.stderr.write(`evalkern worker: ${(e as Error).message}\n`);
    return EXIT.failure;
  }
  return EXIT.ok;
}
