// `evalkern score --queue` and `evalkern worker` (issue 13) as child processes, on a real redis-server
// with a password (started by the test on a loopback port; skipped with a message when redis-server is
// not installed, see scripts/ensure-redis.sh): the distributed run writes the same rows as a local run,
// nothing printed holds the password, and workers stop cleanly on SIGTERM. The URL comes from the
// environment or a file (issue 19, item 13): the password is then neither in the processes' arguments
// (/proc/<pid>/cmdline, what `ps` shows) nor in the Redis client's debug output (DEBUG=ioredis:*).
import { readFileSync, writeFileSync } from "node:fs";
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
    const urlFile = join(dir, "queue-url");
    writeFileSync(urlFile, `${redis.url}\n`, { mode: 0o600 });
    // one worker takes the URL from the environment (with the Redis client's debug output on), one from a file
    const ways = [
      { args: [], env: { EVALKERN_QUEUE_URL: redis.url, DEBUG: "ioredis:*" } },
      { args: ["--queue-url-file", urlFile], env: { EVALKERN_QUEUE_URL: undefined } },
    ];
    for (let i = 0; i < 2; i++) {
      const args = ["worker", ...ways[i]!.args, "-c", "1", "--lock-duration", "4000", "--stalled-interval", "1000"];
      const w = spawnCli(args, { env: ways[i]!.env });
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

  it("workers given the URL by the environment or a file hold no password in their arguments or debug output", () => {
    for (const w of workers) {
      const cmdline = readFileSync(`/proc/${w.pid}/cmdline`, "utf8");
      expect(cmdline).toContain("worker");
      expect(cmdline).not.toContain(SECRET);
    }
    // DEBUG=ioredis:* shows the commands the client sends, AUTH among them, with the password removed
    expect(workerErr[0]).toMatch(/auth/i);
    expect(workerErr[0]).toContain("***");
    expect(workerErr[0]).not.toContain(SECRET);
  });

  it("writes the rows of a local run; the password never shows (URL from a file, then from the environment)", async () => {
    const local = await runCli(["score", examplePairs, "-o", join(dir, "local.jsonl"), "--resamples", "200"], { cwd: dir });
    expect(local.code).toBe(0);
    const args = ["score", examplePairs, "-o", join(dir, "dist.jsonl"), "--resamples", "200", "--queue-url-file", join(dir, "queue-url")];
    args.push("--job", "cli-e2e", "--progress-interval", "100");
    const producer = spawnCli(args, { cwd: dir, env: { DEBUG: "evalkern,ioredis:*" } });
    expect(readFileSync(`/proc/${producer.pid}/cmdline`, "utf8")).not.toContain(SECRET);
    producer.kill("SIGKILL");
    await new Promise((r) => producer.once("close", r));
    const dist = await runCli(args, { cwd: dir, env: { DEBUG: "evalkern,ioredis:*" } });
    expect(dist.stderr).not.toContain(SECRET);
    expect(dist.stdout).not.toContain(SECRET);
    expect(dist.code, dist.stderr).toBe(0);
    expect(readFileSync(join(dir, "dist.jsonl")).equals(readFileSync(join(dir, "local.jsonl")))).toBe(true);
    // the same table (corpus scores, CIs, signatures) below the timing line
    const table = (s: string) => s.split("\n").slice(2).join("\n");
    expect(table(dist.stdout)).toBe(table(local.stdout));
    // a bare --queue reads EVALKERN_QUEUE_URL
    const bareArgs = ["score", examplePairs, "-o", join(dir, "env.jsonl"), "--resamples", "200", "--queue", "--job", "cli-env"];
    const env = await runCli(bareArgs, { cwd: dir, env: { EVALKERN_QUEUE_URL: redis.url } });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stderr).not.toContain(SECRET);
    expect(readFileSync(join(dir, "env.jsonl")).equals(readFileSync(join(dir, "local.jsonl")))).toBe(true);
  }, 180_000);

  it("a password given in --queue is warned about; a missing URL is a usage error", async () => {
    const r = await runCli(["score", examplePairs, "-o", join(dir, "argv.jsonl"), "--queue", redis.url, "--job", "cli-argv"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the queue password given in --queue is visible to every user of this machine .* EVALKERN_QUEUE_URL/);
    expect(r.stderr).not.toContain(SECRET);
    const noEnv = { EVALKERN_QUEUE_URL: undefined };
    const bare = await runCli(["score", examplePairs, "-o", join(dir, "bare.jsonl"), "--queue"], { cwd: dir, env: noEnv });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--queue without a URL reads the queue URL from EVALKERN_QUEUE_URL, which is not set/);
    const none = await runCli(["worker"], { cwd: dir, env: { EVALKERN_QUEUE_URL: undefined } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no queue: set EVALKERN_QUEUE_URL, or give --queue-url-file <path> or --queue <url>/);
  }, 120_000);

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
    expect(w.stdout).toMatch(/--queue \[url\]/);
    expect(w.stdout).toMatch(/--queue-url-file <path>/);
    expect(w.stdout).toMatch(/--concurrency <n>/);
    const s = await runCli(["score", "--help"]);
    expect(s.stdout).toMatch(/--queue \[url\]/);
    expect(s.stdout).toMatch(/--queue-url-file <path>/);
    expect(s.stdout).toMatch(/--job <name>/);
  }, 60_000);
});

describe.skipIf(!available)("evalkern worker when Redis is gone", () => {
  it("SIGTERM stops it within seconds, exit 1, saying the chunks it held were not delivered", async () => {
    const dir = tempDir("evalkern-cli-queue-down-");
    const redis = new RedisServer(await freePort(), dir, SECRET);
    await redis.start();
    const w = spawnCli(["worker", "-c", "1"], { env: { EVALKERN_QUEUE_URL: redis.url } });
    let err = "";
    w.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => w.once("exit", (code) => resolve(code)));
    try {
      for (let i = 0; !err.includes("worker connected"); i++) {
        if (i > 600) throw new Error(`worker did not connect: ${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await redis.stop();
      await new Promise((r) => setTimeout(r, 500));
      w.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running 60 s after SIGTERM"), 60_000))]);
      expect(code, err).toBe(1);
      expect(err).toMatch(
        /stopped without the queue redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0: Redis was unreachable for 10 s \(closeTimeoutMs\)/,
      );
      expect(err).toMatch(/the chunks this worker held were not delivered, and other workers take them over/);
      expect(err).not.toContain(SECRET);
    } finally {
      if (w.exitCode === null) w.kill("SIGKILL");
      await redis.stop();
    }
  }, 120_000);
});

it.skipIf(available)("queue e2e tests need redis-server", () => {
  console.warn(REDIS_SKIP_MESSAGE);
});
