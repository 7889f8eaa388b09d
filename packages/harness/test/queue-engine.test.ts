// bullmq and ioredis are optional peer dependencies: `@evalkern/harness/queue` loads them on first use,
// and a missing one is a QueueEngineNotInstalledError that says what to install (not Node's bare
// ERR_MODULE_NOT_FOUND from deep inside the harness).
import { describe, expect, it } from "vitest";
import { loadQueueEngine } from "../src/node/queue/engine.js";
import { QueueEngineNotInstalledError } from "../src/errors.js";

const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /x/harness/dist/node/queue/engine.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });

describe("the queue engine", () => {
  it("loads bullmq and ioredis when they are installed", async () => {
    const engine = await loadQueueEngine();
    expect(typeof engine.bullmq.Queue).toBe("function");
    expect(typeof engine.bullmq.Worker).toBe("function");
    expect(typeof engine.ioredis.Redis).toBe("function");
  });

  it("names every missing package and how to install them", async () => {
    const error = await loadQueueEngine({
      bullmq: () => Promise.reject(notFound("bullmq")),
      ioredis: () => Promise.reject(notFound("ioredis")),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueEngineNotInstalledError);
    expect((error as QueueEngineNotInstalledError).code).toBe("QUEUE_ENGINE_NOT_INSTALLED");
    expect((error as QueueEngineNotInstalledError).packages).toEqual(["bullmq", "ioredis"]);
    expect((error as Error).message).toContain("npm i bullmq@^6.7.0 ioredis@^6.0.0");
    const one = await loadQueueEngine({ bullmq: () => import("bullmq"), ioredis: () => Promise.reject(notFound("ioredis")) }).catch(
      (e: unknown) => e,
    );
    expect((one as QueueEngineNotInstalledError).packages).toEqual(["ioredis"]);
  });

  it("passes on other failures as they are (a broken install is not a missing one)", async () => {
    const broken = Object.assign(new Error("Cannot find module './dist/esm/classes/index.js' imported from bullmq"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await loadQueueEngine({ bullmq: () => Promise.reject(broken), ioredis: () => import("ioredis") }).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(broken);
  });
});
