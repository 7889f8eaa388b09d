// What guards a command that writes an output: one run per output (a lock file holding the pid; a
// second run fails at once, a dead run's lock is taken over) and SIGINT/SIGTERM/SIGHUP handling (say
// what was kept and how to resume, remove temporary files, release the lock, exit 128 + signal
// number: 130 for Ctrl-C, 143 for SIGTERM).
import { acquireLock } from "@evalkern/harness/bulk";
import { AtomicWriter } from "./writer.js";

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type Handled = keyof typeof SIGNALS;

/** 128 + the signal's number, the shells' convention. */
export function signalExitCode(signal: Handled): number {
  return 128 + SIGNALS[signal];
}

export interface RunGuardOptions {
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** What was kept and how to continue, at the moment of the signal. */
  readonly note: () => string;
  /** How long a cooperative stop (`abortable` phase) may take before the process exits anyway. */
  readonly graceMs?: number;
}

/**
 * Signal handling and the output lock of one command run. In the `abortable` phase a signal aborts
 * `signal` (the running scorer checkpoints and returns) and `interrupted` tells the command to stop;
 * otherwise, or if the stop takes longer than the grace period, the process exits at once. A second
 * signal always exits at once.
 */
export class RunGuard {
  private readonly controller = new AbortController();
  private readonly options: RunGuardOptions;
  private readonly handlers = new Map<Handled, () => void>();
  private release: (() => void) | undefined;
  private abortable = false;
  private timer: NodeJS.Timeout | undefined;
  /** The signal received, if any. */
  interrupted: Handled | undefined;

  constructor(options: RunGuardOptions) {
    this.options = options;
    for (const name of Object.keys(SIGNALS) as Handled[]) {
      const h = () => this.onSignal(name);
      this.handlers.set(name, h);
      process.on(name, h);
    }
  }

  /** Aborted on the first signal of the `abortable` phase. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Hold `<output>.lock` until `close` (throws `OutputLockedError` when a live run holds it). */
  lock(output: string): void {
    this.release = acquireLock(output);
  }

  /** Enter or leave the phase in which a signal stops the work cooperatively. */
  setAbortable(on: boolean): void {
    this.abortable = on;
  }

  /** The message and exit code of an interrupted run (call when the work stopped after a signal). */
  stopped(): number {
    const signal = this.interrupted!;
    if (this.timer) clearTimeout(this.timer);
    this.options.stderr.write(this.message(signal));
    return signalExitCode(signal);
  }

  /** Remove the handlers and release the lock. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const [name, h] of this.handlers) process.off(name, h);
    this.handlers.clear();
    this.release?.();
    this.release = undefined;
  }

  private message(signal: Handled): string {
    const note = this.options.note();
    return `${this.options.stderr.isTTY ? "\n" : ""}evalkern: interrupted by ${signal}; ${note || "nothing was kept"}\n`;
  }

  private onSignal(signal: Handled): void {
    if (this.interrupted === undefined && this.abortable) {
      this.interrupted = signal;
      this.controller.abort(signal);
      this.timer = setTimeout(() => this.exitNow(signal), this.options.graceMs ?? 10_000);
      return;
    }
    this.interrupted ??= signal;
    this.exitNow(signal);
  }

  private exitNow(signal: Handled): never {
    this.options.stderr.write(this.message(signal));
    AtomicWriter.abortAll();
    this.close();
    process.exit(signalExitCode(signal));
  }
}
