// The queue engine, loaded on first use: `bullmq` and `ioredis` are optional peer dependencies of the
// harness, so a user who never runs on a cluster does not install them (about 13 MB). A missing one is a
// `QueueEngineNotInstalledError` naming what to install, thrown by `scoreFileDistributed` / `runWorker`
// before anything else happens.
import { createRequire } from "node:module";
import { formatWithOptions, type InspectOptions } from "node:util";
import type * as BullMQ from "bullmq";
import type * as IORedis from "ioredis";
import { QueueEngineNotInstalledError } from "../../errors.js";

export interface QueueEngine {
  readonly bullmq: typeof BullMQ;
  readonly ioredis: typeof IORedis;
}

let loading: Promise<QueueEngine> | undefined;

function isModuleNotFound(error: unknown, name: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    (e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "MODULE_NOT_FOUND") &&
    typeof e.message === "string" &&
    e.message.includes(`'${name}'`)
  );
}

async function load(name: "bullmq" | "ioredis", importer: () => Promise<unknown>): Promise<unknown> {
  try {
    return await importer();
  } catch (error) {
    if (isModuleNotFound(error, name)) return { missing: name, error };
    throw error;
  }
}

/** How the two packages are imported (a parameter for tests: what a missing package looks like). */
export interface EngineImporters {
  readonly bullmq: () => Promise<unknown>;
  readonly ioredis: () => Promise<unknown>;
}

const DEFAULT_IMPORTERS: EngineImporters = { bullmq: () => import("bullmq"), ioredis: () => import("ioredis") };

async function importEngine(importers: EngineImporters): Promise<QueueEngine> {
  const [bullmq, ioredis] = await Promise.all([load("bullmq", importers.bullmq), load("ioredis", importers.ioredis)]);
  const missing = [bullmq, ioredis].filter(
    (m): m is { missing: string; error: unknown } => typeof (m as { missing?: unknown }).missing === "string",
  );
  if (missing.length > 0)
    throw new QueueEngineNotInstalledError(
      missing.map((m) => m.missing),
      { cause: missing[0]!.error },
    );
  return { bullmq: bullmq as typeof BullMQ, ioredis: ioredis as typeof IORedis };
}

/** `bullmq` and `ioredis`, imported once (with `importers`: every time, for tests). */
export function loadQueueEngine(importers?: EngineImporters): Promise<QueueEngine> {
  if (importers) return importEngine(importers);
  if (!loading) {
    loading = importEngine(DEFAULT_IMPORTERS);
    loading.catch(() => {
      loading = undefined; // installed later in the same process: try again
    });
  }
  return loading;
}

// ------------------------------------------------------------------ the Redis client's debug output

/** The password removers of the queue connections open in this process. */
const redactors = new Set<(text: string) => string>();
let debugGuarded = false;

/** The `debug` module instance ioredis writes its `DEBUG=ioredis:*` lines through (undefined when not found). */
function ioredisDebug(): { log?: unknown; inspectOpts?: InspectOptions } | undefined {
  try {
    const fromHere = createRequire(import.meta.url);
    return createRequire(fromHere.resolve("ioredis"))("debug") as { log?: unknown; inspectOpts?: InspectOptions };
  } catch {
    return undefined;
  }
}

/**
 * Keep a queue password out of the Redis client's debug output: with `DEBUG=ioredis:*` ioredis prints
 * every command it sends, `AUTH` and its password included. Its lines then go through `redact` (of every
 * connection this process opened: a late line of a closed connection must not show its password either)
 * before reaching stderr.
 */
export function redactClientDebug(redact: (text: string) => string): void {
  redactors.add(redact);
  if (!debugGuarded) {
    debugGuarded = true;
    const debug = ioredisDebug();
    if (debug) {
      // the same shape as debug's own Node logger, with the passwords removed from the finished line
      debug.log = (...args: unknown[]) => {
        let line = formatWithOptions(debug.inspectOpts ?? {}, ...args);
        for (const r of redactors) line = r(line);
        process.stderr.write(`${line}\n`);
      };
    }
  }
}
