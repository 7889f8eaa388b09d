// Where `evalkern score` and `evalkern worker` get the queue URL. A URL with a password given as
// `--queue <url>` sits in the process's arguments, which every user of the machine can read (`ps`,
// /proc/<pid>/cmdline); the environment (EVALKERN_QUEUE_URL, readable by the same user only) and a file
// (`--queue-url-file`) keep it out of there. The URL is never echoed: it may hold the password.
import { readFileSync } from "node:fs";
import { usageError } from "./errors.js";
import { log } from "./log.js";

/** The environment variable holding the queue URL. */
export const QUEUE_URL_ENV = "EVALKERN_QUEUE_URL";

export interface QueueUrlOptions {
  /** `--queue <url>`, or `true` for a bare `--queue` (the URL is then in EVALKERN_QUEUE_URL). */
  readonly queue?: string | boolean | undefined;
  readonly queueUrlFile?: string | undefined;
}

/** Whether a redis:// URL carries a password (the text is not parsed further here: the harness does that). */
function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== "";
  } catch {
    return false;
  }
}

function fromEnv(env: NodeJS.ProcessEnv, how: string): string {
  const url = env[QUEUE_URL_ENV];
  if (url === undefined || url.trim() === "") throw usageError(`${how} reads the queue URL from ${QUEUE_URL_ENV}, which is not set`);
  return url.trim();
}

function fromFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw usageError(`--queue-url-file: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
  // the first non-empty line; a trailing newline (echo … > file) is not part of the URL
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "");
  if (line === undefined) throw usageError(`--queue-url-file: ${path} holds no URL`);
  return line.trim();
}

/**
 * The queue URL of a command: `--queue-url-file <path>`, `--queue <url>`, a bare `--queue` (from
 * EVALKERN_QUEUE_URL), or, for the worker (`envByDefault`), EVALKERN_QUEUE_URL when neither flag is
 * given. Undefined when no queue is asked for (`evalkern score` then runs locally).
 */
export function resolveQueueUrl(o: QueueUrlOptions, envByDefault: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (o.queueUrlFile !== undefined && o.queue !== undefined && o.queue !== false) {
    throw usageError("give the queue URL once: --queue or --queue-url-file");
  }
  if (o.queueUrlFile !== undefined) return fromFile(o.queueUrlFile);
  if (o.queue === true) return fromEnv(env, "--queue without a URL");
  if (typeof o.queue === "string") {
    if (hasPassword(o.queue)) {
      log.warn(
        "the queue password given in --queue is visible to every user of this machine (ps, /proc/<pid>/cmdline): " +
          `put the URL in ${QUEUE_URL_ENV} or a file (--queue-url-file) instead`,
      );
    }
    return o.queue;
  }
  if (envByDefault) {
    if (env[QUEUE_URL_ENV] === undefined) {
      throw usageError(`no queue: set ${QUEUE_URL_ENV}, or give --queue-url-file <path> or --queue <url>`);
    }
    return fromEnv(env, "the worker");
  }
  return undefined;
}
