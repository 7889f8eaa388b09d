// Progress display: a live bar redrawn in place on an interactive terminal, and plain periodic lines
// otherwise (CI logs, files), both on stderr so results on stdout stay clean.
import { runtime, type TextSink } from "./runtime/runtime.js";

export interface ProgressOptions {
  /** Total units (examples, bytes); undefined when unknown. */
  readonly total?: number;
  /** Unit name in plain lines ("examples", "MB"). */
  readonly unit?: string;
  /** Where to draw (default: the runtime's stderr). */
  readonly sink?: TextSink;
  /** Minimum interval between plain lines (default 5000 ms); the bar redraws at most every 100 ms. */
  readonly intervalMs?: number;
  /** Formats a done count for display (default: integer). */
  readonly format?: (n: number) => string;
}

export interface Progress {
  /** Report `done` units so far, with an optional description ("Average Metric: 3.00 / 4 (75.0%)"). */
  update(done: number, description?: string): void;
  /** Draw the final state and end the line. */
  finish(description?: string): void;
}

function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(2, "0");
  const ss = String(sec).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function createProgress(options: ProgressOptions = {}): Progress {
  const sink = options.sink ?? runtime().stderr;
  const now = () => runtime().now();
  const start = now();
  const total = options.total;
  const fmt = options.format ?? ((n: number) => String(Math.round(n)));
  const unit = options.unit ?? "";
  const tty = sink.isTTY;
  let last = -Infinity;
  let lastDone = 0;
  let lastDesc = "";
  let finished = false;

  const render = (done: number, desc: string, final: boolean): string => {
    const elapsed = now() - start;
    const rate = elapsed > 0 ? (done / elapsed) * 1000 : 0;
    const remaining = total !== undefined && rate > 0 ? ((total - done) / rate) * 1000 : NaN;
    const head = desc ? `${desc} ` : "";
    const counts = total !== undefined ? `${fmt(done)}/${fmt(total)}` : fmt(done);
    const timing =
      `[${duration(elapsed)}${total !== undefined && !final ? `<${duration(remaining)}` : ""}, ` +
      `${rate >= 10 ? Math.round(rate) : rate.toFixed(2)}${unit ? ` ${unit}` : ""}/s]`;
    if (!tty) {
      const pct = total ? ` (${((100 * done) / total).toFixed(1)}%)` : "";
      return `${head}${counts}${unit ? ` ${unit}` : ""}${pct} ${timing}`.trim();
    }
    const cols = Math.max(40, sink.columns || 80); // a pty may report 0 columns
    let bar = "";
    if (total !== undefined && total > 0) {
      const pct = Math.min(1, done / total);
      const text = `${head}${String(Math.floor(pct * 100)).padStart(3)}%|`;
      const tail = `| ${counts} ${timing}`;
      const width = Math.max(10, cols - text.length - tail.length - 1);
      const full = Math.floor(pct * width);
      const frac = Math.floor((pct * width - full) * 8);
      const partial = full < width ? (" ▏▎▍▌▋▊▉"[frac] ?? " ") : "";
      bar = text + "█".repeat(full) + partial + " ".repeat(Math.max(0, width - full - partial.length)) + tail;
    } else bar = `${head}${counts} ${timing}`;
    return bar.length > cols - 1 ? bar.slice(0, cols - 1) : bar;
  };

  return {
    update(done, description = "") {
      if (finished) return;
      lastDone = done;
      lastDesc = description;
      const t = now();
      const every = tty ? 100 : (options.intervalMs ?? 5000);
      if (t - last < every) return;
      last = t;
      sink.write(tty ? `\r${render(done, description, false)}` : `${render(done, description, false)}\n`);
    },
    finish(description) {
      if (finished) return;
      finished = true;
      const line = render(lastDone, description ?? lastDesc, true);
      sink.write(tty ? `\r${line}\n` : `${line}\n`);
    },
  };
}
