// `evalkern score --queue` and `evalkern worker` (issue 13) as child processes, on a real redis-server
// with a password (started by the test on a loopback port; skipped with a message when redis-server is
// not installed, see scripts/ensure-redis.sh): the distributed run writes the same rows as a local run,
// nothing printed holds the password, and workers stop cleanly on SIGTERM.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// the harness's test Redis (one home for starting a throwaway redis-server)
import { freePort, REDIS_SKIP_MESSAGE, RedisServer, redisAvailable } from "../../harness/test/redis.js";
import { examplePairs, runCli, spawnCli, tempDir } from "./support/cli.js";

const available = redisAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);
const SECRET = "pa55-W0rd-xyz";

describe.skipIf(!available)("evalkern score --queue / evalkern worker", () => {
  let dir: string;
  let redis: RedisServer;
  const workers: ReturnType<typeof spawnCli>[] = [];
  const workerErr: string[] = [];

  beforeAll(async () => {
    dir = tempDir("evalkern-cli-queue-");
    redis = new RedisServer(await freePort(), dir, SECRET);
    await redis.start();
    for (let i = 0; i < 2; i++) {
      const w = spawnCli(["worker", "--queue", redis.url, "-c", "1", "--lock-duration", "4000", "--stalled-interval", "1000"]);
      workers.push(w);
      let err = "";
      workerErr.push("");
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`worker did not connect: ${err}`)), 60_000);
        w.stderr!.setEncoding("utf8").on("data", (d: string) => {
          err += d;
          workerErr[i] = err;
          if (err.includes("worker connected")) {
            clearTimeout(t);
            resolve();
          }
        });
      });
    }
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
    await redis?.stop();
  });

  it("writes the rows of a local run; the password never shows", async () => {
    const local = await runCli(["score", examplePairs, "-o", join(dir, "local.jsonl"), "--resamples", "200"], { cwd: dir });
    expect(local.code).toBe(0);
    const dist = await runCli(["score", examplePairs, "-o", join(dir, "dist.jsonl"), "--resamples", "200", "--queue", redis.url, "--job", "cli-e2e", "--progress-interval", "100"], { cwd: dir });
    expect(dist.stderr).not.toContain(SECRET);
    expect(dist.stdout).not.toContain(SECRET);
    expect(dist.code, dist.stderr).toBe(0);
    expect(readFileSync(join(dir, "dist.jsonl")).equals(readFileSync(join(dir, "local.jsonl")))).toBe(true);
    // the same table (corpus scores, CIs, signatures) below the timing line
    const table = (s: string) => s.split("\n").slice(2).join("\n");
    expect(table(dist.stdout)).toBe(table(local.stdout));
  }, 180_000);

  it("a bad queue URL is a usage error that does not echo it", async () => {
    const r = await runCli(["score", examplePairs, "-o", join(dir, "bad.jsonl"), "--queue", `http://:${SECRET}@127.0.0.1:1`], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--queue: queue URL must start with redis:\/\/ or rediss:\/\//);
    expect(r.stderr).not.toContain(SECRET);
  }, 60_000);

  it("workers stop on SIGTERM with exit 0, and their output never holds the password", async () => {
    for (const w of workers) {
      const exited = new Promise<number | null>((resolve) => w.once("exit", (code) => resolve(code)));
      w.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
    for (const e of workerErr) expect(e).not.toContain(SECRET);
  }, 60_000);

  it("--help explains the worker and the queue options", async () => {
    const w = await runCli(["worker", "--help"]);
    expect(w.code).toBe(0);
    expect(w.stdout).toMatch(/--queue <url>/);
    expect(w.stdout).toMatch(/--concurrency <n>/);
    const s = await runCli(["score", "--help"]);
    expect(s.stdout).toMatch(/--queue <url>/);
    expect(s.stdout).toMatch(/--job <name>/);
  }, 60_000);
});

it.skipIf(available)("queue e2e tests need redis-server", () => {
  console.warn(REDIS_SKIP_MESSAGE);
});
