// Small durable-file helpers: atomic replace (write temp, fsync, rename, fsync the directory) so a
// SIGKILL at any instant leaves either the old or the new version of a checkpoint or summary.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // some platforms cannot fsync a directory; the rename is still atomic there
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * Write all of `data` at byte `position` of `fd`. Positions are explicit: a resumed file is opened
 * "r+", whose implicit position would be 0.
 */
export function writeAt(fd: number, data: Uint8Array, position: number): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off, position + off);
}
