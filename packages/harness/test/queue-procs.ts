// Worker and producer processes of the queue tests (test/fixtures/queue-worker.mjs, queue-producer.mjs):
// their stdout lines, awaited by pattern, and their exits. Every process started here is in `procs`, for
// the tests' clean-up.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const WORKER = fileURLToPath(new URL("./fixtures/queue-worker.mjs", import.meta.url));
export const PRODUCER = fileURLToPath(new URL("./fixtures/queue-producer.mjs", import.meta.url));

export class Proc {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  stderr = "";
  constructor(readonly proc: ChildProcess) {
    let buf = "";
    proc.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split("\n");
      buf = parts.pop()!;
      for (const l of parts) {
        this.lines.push(l);
        for (const w of this.waiters.filter((x) => x.re.test(l))) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    });
    proc.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  }
  /** The first stdout line matching `re` (already printed or to come). */
  waitFor(re: RegExp, ms = 60_000): Promise<string> {
    const seen = this.lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`no line ${re} within ${ms} ms; stdout: ${this.lines.join(" | ")}; stderr: ${this.stderr.slice(-2000)}`)),
        ms,
      );
      this.waiters.push({
        re,
        resolve: (l) => {
          clearTimeout(t);
          resolve(l);
        },
      });
    });
  }
  kill(signal: NodeJS.Signals = "SIGKILL"): Promise<unknown> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(signal);
    return this.exited;
  }
  /** First lines of the chunks this process started. */
  chunks(): number[] {
    return this.lines.filter((l) => l.startsWith("CHUNK ")).map((l) => Number(l.split(" ")[1]));
  }
}

export const procs: Proc[] = [];
export function start(script: string, options: object): Proc {
  const p = new Proc(spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ["ignore", "pipe", "pipe"] }));
  procs.push(p);
  return p;
}
