// Small durable-file helpers: atomic replace (write temp, fsync, rename, fsync the directory) so a
// SIGKILL at any instant leaves either the old or the new version of a checkpoint or summary.
//
// Every failure of the file system comes out as a `FileSystemError` naming the path, the operation
// and the OS code (ENOSPC, EACCES, EROFS, ENOENT, ...), never as a bare Node error or a hang:
// `makeDirectory` walks the path itself instead of `mkdir -p` (Node's recursive mkdir loops forever
// on /proc, where mkdir answers ENOENT although the parent exists).
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { FileSystemError } from "../errors.js";

const REASONS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  EEXIST: "it already exists",
  EMFILE: "too many open files",
  ENFILE: "too many open files in the system",
  EIO: "input/output error",
  EFBIG: "the file is too large",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
  EBUSY: "the resource is busy",
  EXDEV: "it is on another device",
  EINVAL: "the file system does not support this operation here",
};

function errnoCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** `e` as a `FileSystemError` when it is an OS error (anything else is returned unchanged). */
export function fileSystemError(e: unknown, operation: string, path: string, hint = ""): unknown {
  if (e instanceof FileSystemError) return e;
  const code = errnoCode(e);
  if (!code) return e;
  const reason = REASONS[code] ?? ((e as Error).message || code).replace(/^E[A-Z0-9]+: /, "").replace(/,.*$/, "");
  return new FileSystemError(`cannot ${operation} ${path}: ${reason} (${code})${hint}`, { code, path, operation });
}

/** Run `fn`; an OS error becomes a `FileSystemError` about `path`. */
export function fsCall<T>(operation: string, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw fileSystemError(e, operation, path);
  }
}

/**
 * Create `dir` and its missing parents (as `mkdir -p`), in a bounded number of steps: one per
 * missing path component. Fails with a `FileSystemError` when a component cannot be created.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let cur = resolve(dir);
  for (;;) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(cur).isDirectory();
    } catch (e) {
      const code = errnoCode(e);
      if (code !== "ENOENT") throw fileSystemError(e, "create directory", cur);
    }
    if (isDir === true) break;
    if (isDir === false) throw new FileSystemError(`cannot create directory ${resolve(dir)}: ${cur} is a file, not a directory (ENOTDIR)`, { code: "ENOTDIR", path: cur, operation: "create directory" });
    const parent = dirname(cur);
    if (parent === cur) break;
    missing.push(cur);
    cur = parent;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const d = missing[i]!;
    try {
      mkdirSync(d);
    } catch (e) {
      if (errnoCode(e) === "EEXIST") {
        let ok = false;
        try {
          ok = statSync(d).isDirectory();
        } catch {
          // raced away: fall through to the error
        }
        if (ok) continue;
      }
      // ENOENT although the parent exists: a file system that refuses new entries (/proc, /sys)
      const hint = errnoCode(e) === "ENOENT" ? ` (${dirname(d)} exists but does not accept new entries)` : "";
      throw fileSystemError(e, "create directory", d, hint);
    }
  }
}

/** `openSync` with a `FileSystemError` on failure. */
export function openFile(path: string, flags: string): number {
  return fsCall(flags === "r" ? "open" : "open for writing", path, () => openSync(path, flags));
}

/** `fsyncSync` with a `FileSystemError` on failure. */
export function syncFile(fd: number, path: string): void {
  fsCall("sync", path, () => fsyncSync(fd));
}

/** `ftruncateSync` with a `FileSystemError` on failure. */
export function truncateFile(fd: number, length: number, path: string): void {
  fsCall("truncate", path, () => ftruncateSync(fd, length));
}

export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = fsCall("open for writing", tmp, () => openSync(tmp, "w"));
  try {
    fsCall("write", tmp, () => {
      writeSync(fd, text);
      fsyncSync(fd);
    });
  } finally {
    closeSync(fd);
  }
  fsCall("rename into place", path, () => renameSync(tmp, path));
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
    throw fileSystemError(e, "read", path);
  }
}

/**
 * Write all of `data` at byte `position` of `fd`. Positions are explicit: a resumed file is opened
 * "r+", whose implicit position would be 0. `path` names the file in a `FileSystemError`.
 */
export function writeAt(fd: number, data: Uint8Array, position: number, path = "(file)"): void {
  let off = 0;
  try {
    while (off < data.length) off += writeSync(fd, data, off, data.length - off, position + off);
  } catch (e) {
    throw fileSystemError(e, "write", path);
  }
}
