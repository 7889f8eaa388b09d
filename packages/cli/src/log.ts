// What the command line says on stderr besides results and errors: warnings and notes (off with
// --quiet), extra detail (--verbose), debug lines (DEBUG=evalkern: phases, timings, worker counts), and
// whether a stream gets colour (NO_COLOR / FORCE_COLOR, else only terminals).

export interface LogSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface LogSettings {
  readonly quiet?: boolean;
  readonly verbose?: boolean;
  /** Debug lines on (default: the DEBUG environment variable names `evalkern` or `evalkern:*` or `*`). */
  readonly debug?: boolean;
}

/** DEBUG=evalkern (also `evalkern:*`, `*`, or a comma/space separated list holding one of them). */
export function debugFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const d = env.DEBUG;
  if (!d) return false;
  return d.split(/[\s,]+/).some((p) => p === "*" || p === "evalkern" || p === "evalkern:*" || p === "evalkern*");
}

/**
 * Colour for a stream: NO_COLOR (any non-empty value) turns it off, FORCE_COLOR turns it on (except
 * FORCE_COLOR=0/false), else only on a terminal; https://no-color.org and https://force-color.org.
 */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return !(env.FORCE_COLOR === "0" || env.FORCE_COLOR.toLowerCase() === "false");
  return stream.isTTY === true && env.TERM !== "dumb";
}

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
}

export function style(enabled: boolean): Style {
  const wrap = (open: string, close: string) => (s: string) => (enabled && s ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { bold: wrap("1", "22"), dim: wrap("2", "22") };
}

export class Log {
  #sink: LogSink = process.stderr;
  #quiet = false;
  #verbose = false;
  #debug = debugFromEnv();
  #started = performance.now();

  configure(sink: LogSink, settings: LogSettings = {}): void {
    this.#sink = sink;
    this.#quiet = settings.quiet === true;
    this.#verbose = settings.verbose === true && !this.#quiet;
    this.#debug = settings.debug ?? debugFromEnv();
    this.#started = performance.now();
  }

  get quiet(): boolean {
    return this.#quiet;
  }
  get verbose(): boolean {
    return this.#verbose;
  }
  get debugging(): boolean {
    return this.#debug;
  }
  /** Milliseconds since the command started (the one duration a run reports). */
  elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** A warning or note: not under --quiet. */
  warn(message: string): void {
    if (!this.#quiet) this.#sink.write(`evalkern: ${message}\n`);
  }
  /** A note for people: not under --quiet. */
  info(message: string): void {
    if (!this.#quiet) this.#sink.write(`${message}\n`);
  }
  /** Only with --verbose (or DEBUG=evalkern). */
  detail(message: string): void {
    if ((this.#verbose || this.#debug) && !this.#quiet) this.#sink.write(`${message}\n`);
  }
  /** DEBUG=evalkern: `evalkern:debug +1234ms message`. */
  debug(message: string): void {
    if (this.#debug) this.#sink.write(`evalkern:debug +${Math.round(this.elapsedMs())}ms ${message}\n`);
  }
}

/** The process's log (configured by `main` from --quiet, --verbose and DEBUG). */
export const log = new Log();
