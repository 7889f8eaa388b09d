// A buffered, atomically renamed output file: written to `<path>.tmp-<pid>`, renamed over `path` by
// `commit`, so a crash never leaves half a result file under the final name. Temporary files of runs
// that died (their pid is gone) are removed when the next writer of the same path starts. File-system
// failures are `FileSystemError`s naming the path.
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { fileSystemError, removeStaleTemporaries } from "@evalkern/harness/bulk";

export class AtomicWriter {
  private static readonly live = new Set<AtomicWriter>();

  /** Abort every writer not yet committed (on a signal, before the process exits). */
  static abortAll(): void {
    for (const w of [...AtomicWriter.live]) w.abort();
  }

  readonly path: string;
  private readonly tmp: string;
  private fd: number;
  private buffer: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.path = path;
    this.tmp = `${path}.tmp-${process.pid}`;
    removeStaleTemporaries(path);
    try {
      this.fd = openSync(this.tmp, "w");
    } catch (e) {
      throw fileSystemError(e, "open for writing", this.tmp);
    }
    AtomicWriter.live.add(this);
  }

  write(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    const data = Buffer.from(this.buffer.join(""), "utf8");
    let off = 0;
    try {
      while (off < data.length) off += writeSync(this.fd, data, off, data.length - off);
    } catch (e) {
      throw fileSystemError(e, "write", this.tmp);
    }
    this.buffer = [];
    this.size = 0;
  }

  commit(): void {
    AtomicWriter.live.delete(this);
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
    try {
      renameSync(this.tmp, this.path);
    } catch (e) {
      throw fileSystemError(e, "rename into place", this.path);
    }
  }

  abort(): void {
    AtomicWriter.live.delete(this);
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    rmSync(this.tmp, { force: true });
  }
}
