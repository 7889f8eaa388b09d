// Progress on stderr: on a terminal a bar redrawn in place with rows/s and ETA; elsewhere (CI logs,
// pipes, files) one plain line every `intervalMs`, so logs stay readable and small.

export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface RowProgress {
  /** `rows` done so far and the fraction of the work done (0..1), when known. */
  update(rows: number, fraction: number | undefined): void;
  /** Final line. */
  finish(rows: number, note?: string): void;
}

export interface RowProgressOptions {
  readonly sink: ProgressSink;
  /** Label in front ("score"). */
  readonly label: string;
  /** What is counted (default "rows"): "resamples" for the bootstrap. */
  readonly unit?: string;
  /** Force the terminal bar on or off (default: `sink.isTTY`). */
  readonly tty?: boolean;
  /** Plain-line interval (default 5000 ms); the bar redraws at most every 100 ms. */
  readonly intervalMs?: number;
  readonly now?: () => number;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/**
 * The one way a run's duration is printed: `1.5 s` under a minute, then `2:05` / `1:02:05`.
 */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  return ms < 59_950 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms);
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function rate(rows: number, ms: number): string {
  const r = ms > 0 ? (rows * 1000) / ms : 0;
  return r >= 100 ? formatCount(r) : r.toFixed(1);
}

/**
 * A progress display for a row-oriented job.
 *
 * @example
 * const p = createRowProgress({ sink: process.stderr, label: "score" });
 * p.update(5000, 0.25);
 * p.finish(20000);
 */
export function createRowProgress(options: RowProgressOptions): RowProgress {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const tty = options.tty ?? options.sink.isTTY === true;
  const every = tty ? 100 : (options.intervalMs ?? 5000);
  let last = start;
  let drawn = false;
  const unit = options.unit ?? "rows";

  const text = (rows: number, fraction: number | undefined, elapsed: number): string => {
    const eta = fraction !== undefined && fraction > 0 && fraction < 1 ? formatDuration((elapsed * (1 - fraction)) / fraction) : undefined;
    const pct = fraction !== undefined ? `${(100 * Math.min(1, fraction)).toFixed(1)}%` : undefined;
    if (!tty) {
      return (
        `${options.label}: ${formatCount(rows)} ${unit}${pct ? ` (${pct})` : ""}, ${rate(rows, elapsed)} ${unit}/s, elapsed ` +
        `${formatDuration(elapsed)}${eta ? `, ETA ${eta}` : ""}\n`
      );
    }
    const cols = Math.max(50, options.sink.columns ?? 80);
    const tail = ` ${formatCount(rows)} ${unit} · ${rate(rows, elapsed)} ${unit}/s · ${eta ? `ETA ${eta}` : formatDuration(elapsed)}`;
    const head = `${options.label} ${(pct ?? "").padStart(6)} `;
    const width = Math.max(10, cols - head.length - tail.length - 3);
    const f = Math.min(1, fraction ?? 0);
    const full = Math.floor(f * width);
    const partial = full < width ? " ▏▎▍▌▋▊▉"[Math.floor((f * width - full) * 8)]! : "";
    const bar = `${"█".repeat(full)}${partial}`.padEnd(width, " ");
    return `\r${head}|${bar}|${tail}`.slice(0, cols + 1);
  };

  return {
    update(rows, fraction) {
      const t = now();
      if (t - last < every) return;
      last = t;
      drawn = true;
      options.sink.write(text(rows, fraction, t - start));
    },
    finish(rows, note) {
      const elapsed = now() - start;
      // no duration here: the run's one duration is in its summary (the whole command, measured once)
      const line = `${options.label}: ${formatCount(rows)} ${unit} done (${rate(rows, elapsed)} ${unit}/s)${note ? `, ${note}` : ""}\n`;
      options.sink.write(tty && drawn ? `\r\x1b[2K${line}` : line);
    },
  };
}
