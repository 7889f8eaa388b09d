// Parallel plain-text input, the way sacreBLEU users keep their data: one hypothesis file and one file
// per reference, one segment per line, read in lockstep into `{ hyp, refs }` rows for `scoreStream`.
// Files are streamed (memory holds one read block per file, not the file). Lines are read as sacreBLEU's
// CLI reads them: split at "\n" only (a lone "\r" is text), trailing whitespace removed with Python's
// `str.rstrip()`, empty lines kept as empty segments, a final line without "\n" counted, and a UTF-8 BOM
// kept as a character (sacreBLEU opens files as plain "utf-8"). Bytes that are not UTF-8 fail the read,
// naming the file and line, as sacreBLEU fails on them.
import { createReadStream } from "node:fs";
import { pyRstrip } from "@evalkern/metrics/python";
import { InvalidArgumentError, LineCountMismatchError } from "../errors.js";

/** A text file by path, or any byte stream (stdin) with the name to use in messages. */
export type TextSource = string | { readonly name: string; readonly stream: AsyncIterable<Uint8Array | string> };

export interface TextPairSources {
  readonly hypothesis: TextSource;
  /** One file per reference; line i of each is a reference of hypothesis line i. */
  readonly references: readonly TextSource[];
}

/** One row: the hypothesis and its references (every reference file's line, empty ones included). */
export interface TextPair {
  readonly hyp: string;
  readonly refs: string[];
}

const READ_BLOCK = 1 << 20;

/** The lines of one source, pulled one at a time; `count` is the number handed out so far. */
class LineSource {
  readonly name: string;
  count = 0;
  private readonly chunks: AsyncIterator<Uint8Array | string>;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  private lines: string[] = [];
  private next = 0;
  private carry = "";
  private done = false;

  constructor(source: TextSource) {
    if (typeof source === "string") {
      this.name = source;
      this.chunks = createReadStream(source, { highWaterMark: READ_BLOCK })[Symbol.asyncIterator]();
    } else {
      this.name = source.name;
      this.chunks = source.stream[Symbol.asyncIterator]();
    }
  }

  /** The next line (rstripped), or undefined at the end of the source. */
  async line(): Promise<string | undefined> {
    while (this.next >= this.lines.length) {
      if (this.done) return undefined;
      await this.fill();
    }
    this.count++;
    return this.lines[this.next++];
  }

  private decode(chunk: Uint8Array | string | undefined): string {
    if (typeof chunk === "string") return chunk;
    try {
      return this.decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      const line = this.count + this.lines.length - this.next + 1 + (this.carry.match(/\n/g)?.length ?? 0);
      throw new InvalidArgumentError(`${this.name}: bytes that are not UTF-8 near line ${line}`, { argument: "input" });
    }
  }

  private async fill(): Promise<void> {
    let r: IteratorResult<Uint8Array | string>;
    try {
      r = await this.chunks.next();
    } catch (e) {
      const code = (e as { code?: string }).code;
      const why = code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a directory" : (e as Error).message;
      throw new InvalidArgumentError(`${this.name}: ${why}`, { argument: "input" });
    }
    const text = this.carry + this.decode(r.done ? undefined : r.value);
    const parts = text.split("\n");
    if (r.done) {
      this.done = true;
      // "a\nb" and "a\nb\n" are both two lines, as Python iterates a file
      this.carry = "";
      if (parts[parts.length - 1] === "") parts.pop();
    } else this.carry = parts.pop()!;
    this.lines = parts.map(pyRstrip);
    this.next = 0;
  }

  /** Count the lines left without keeping them (for the message of a line-count mismatch). */
  async rest(): Promise<number> {
    while ((await this.line()) !== undefined);
    return this.count;
  }
}

/**
 * Read parallel plain-text files in lockstep: one `{ hyp, refs }` row per line. When the files do not
 * have the same number of lines, the iteration ends with `LineCountMismatchError` naming every count.
 *
 * @example
 * const stream = scoreStream(readTextPairs({ hypothesis: "hyp.txt", references: ["ref.txt"] }), { metrics: ["bleu"] });
 */
export async function* readTextPairs(sources: TextPairSources): AsyncGenerator<TextPair> {
  if (sources.references.length === 0) throw new InvalidArgumentError("at least one reference file is needed", { argument: "references" });
  const all = [new LineSource(sources.hypothesis), ...sources.references.map((r) => new LineSource(r))];
  for (;;) {
    const lines = await Promise.all(all.map((s) => s.line()));
    const ended = lines.filter((l) => l === undefined).length;
    if (ended === all.length) return;
    if (ended > 0) {
      const counts = [];
      for (const s of all) counts.push({ name: s.name, lines: await s.rest() });
      const list = counts.map((c) => `${c.name} has ${c.lines} line${c.lines === 1 ? "" : "s"}`).join(", ");
      throw new LineCountMismatchError(`the hypothesis and reference files must have the same number of lines: ${list}`, counts);
    }
    yield { hyp: lines[0]!, refs: lines.slice(1) as string[] };
  }
}
