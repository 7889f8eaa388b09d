// A real redis-server for the queue tests: started on a free loopback port in its own temporary
// directory, without persistence (`--save "" --appendonly no`), stopped (and restartable on the same
// port) by the test. `redisAvailable()` tells whether the binary exists (scripts/ensure-redis.sh
// installs Debian's redis-server when run as root); the queue tests skip with a message when not.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, Socket } from "node:net";

const BIN = process.env.EVALKERN_REDIS_SERVER ?? "redis-server";

export function redisAvailable(): boolean {
  const r = spawnSync(BIN, ["--version"], { encoding: "utf8" });
  return r.status === 0 && /Redis server/.test(r.stdout);
}

export const REDIS_SKIP_MESSAGE =
  `queue tests skipped: ${BIN} is not installed (run scripts/ensure-redis.sh as root, or set ` + `EVALKERN_REDIS_SERVER)`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** One PING (with AUTH when given) over a raw socket: true when Redis answers. */
function ping(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = new Socket();
    let buf = "";
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(2000, () => done(false));
    sock.once("error", () => done(false));
    sock.on("data", (d) => {
      buf += d.toString();
      if (buf.includes("+PONG")) done(true);
      else if (buf.includes("-")) done(false);
    });
    sock.connect(port, "127.0.0.1", () => sock.write(`${password ? `AUTH ${password}\r\n` : ""}PING\r\n`));
  });
}

export class RedisServer {
  private proc: ChildProcess | undefined;
  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly password?: string,
  ) {}

  get url(): string {
    return `redis://${this.password ? `:${this.password}@` : ""}127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      this.dir,
      ...(this.password ? ["--requirepass", this.password] : []),
    ];
    const proc = spawn(BIN, args, { stdio: ["ignore", "ignore", "pipe"] });
    this.proc = proc;
    let exited = false;
    proc.once("exit", () => (exited = true));
    const t0 = Date.now();
    while (!(await ping(this.port, this.password))) {
      if (exited) throw new Error(`redis-server exited at start (port ${this.port})`);
      if (Date.now() - t0 > 20_000) throw new Error("redis-server did not answer within 20 s");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stop it (SIGKILL: no clean shutdown) and wait for the exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  }
}
