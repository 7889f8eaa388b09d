// Small durable-file helpers: atomic replace (write temp, fsync, rename, fsync the directory) so a
// SIGKILL at any instant leaves either the old or the new version of a checkpoint or summary.
//
// Every failure of the file system comes out as a `FileSystemError` naming the path, the operation
// and the OS code (ENOSPC, EACCES, EROFS, ENOENT, ...), never as a bare Node error or a hang:
// `makeDirectory` walks the path itself instead of `mkdir -p` (Node's recursive mkdir loops forever
// on /proc, where mkdir answers ENOENT although the parent exists).
import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { EvalkernError, FileSystemError, InvalidArgumentError, OutputLockedError } from "../errors.js";

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
  if (EvalkernError.isInstance(e)) return undefined; // ours already (their `code` is a class code)
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** `e` as a `FileSystemError` when it is an OS error (anything else is returned unchanged). */
export function fileSystemError(e: unknown, operation: string, path: string, hint = ""): unknown {
  if (e instanceof FileSystemError) return e;
  const code = errnoCode(e);
  if (!code) return e;
  const reason = REASONS[code] ?? ((e as Error).message || code).replace(/^E[A-Z0-9]+: /, "").replace(/,.*$/, "");
  return new FileSystemError(`cannot ${operation} ${path}: ${reason} (${code})${hint}`, { osCode: code, path, operation });
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
    if (isDir === false)
      throw new FileSystemError(`cannot create directory ${resolve(dir)}: ${cur} is a file, not a directory (ENOTDIR)`, {
        osCode: "ENOTDIR",
        path: cur,
        operation: "create directory",
      });
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

/** What a file that is not a regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a named pipe (FIFO)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/**
 * Check that the input of a bulk run is a regular file, without opening it (opening a FIFO would block
 * until a writer comes). A pipe or a device is refused, not read as a stream: a run reads its input at
 * chosen offsets (the CSV header, shard boundaries, a chunk re-read after a time-out, the prefix a resume
 * re-hashes), which only a regular file allows.
 */
export function checkInputFile(path: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") throw new InvalidArgumentError(`input file not found: ${path}`, { argument: "input" });
    throw fileSystemError(e, "read", path);
  }
  if (st.isFile()) return;
  const kind = kindOf(st);
  const hint = st.isDirectory()
    ? "name a file in it"
    : "write it to a regular file first (a run reads its input at chosen offsets, which a pipe or device cannot give)";
  throw new InvalidArgumentError(`input must be a regular file: ${path} is ${kind}; ${hint}`, {
    argument: "input",
    expected: "a regular file",
    actual: kind,
  });
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

// ------------------------------------------------------------------------------ processes and locks

/** Whether a process with this id is alive (EPERM: alive, owned by someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === "EPERM";
  }
}

/** The lock file of an output. */
export function lockPath(path: string): string {
  return `${path}.lock`;
}

function readLockPid(lock: string): number | undefined {
  try {
    const text = readFileSync(lock, "utf8");
    return /^\d+\n?$/.test(text) ? Number(text.trim()) : 0;
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw fileSystemError(e, "read the lock file", lock);
  }
}

/**
 * Take `<path>.lock` (it holds this process's id) so that two runs never write one output. A lock of
 * a live process fails at once with `OutputLockedError`; a lock left by a dead process is taken over.
 * Returns the function that releases it.
 */
export function acquireLock(path: string): () => void {
  const lock = lockPath(path);
  const mine = `${process.pid}\n`;
  // the lock is created complete (written aside, then hard-linked into place: atomic, fails if it
  // exists), so a reader never sees an empty lock; without hard links, exclusive create
  const aside = `${lock}.${process.pid}`;
  for (let attempt = 0; attempt < 8; attempt++) {
    let created = false;
    try {
      writeFileSync(aside, mine);
      try {
        linkSync(aside, lock);
        created = true;
      } catch (e) {
        const code = errnoCode(e);
        if (code === "EEXIST") {
          // held: look at the holder below
        } else if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS" || code === "EMLINK") {
          try {
            writeFileSync(lock, mine, { flag: "wx" });
            created = true;
          } catch (e2) {
            if (errnoCode(e2) !== "EEXIST") throw fileSystemError(e2, "create the lock file", lock);
          }
        } else throw fileSystemError(e, "create the lock file", lock);
      }
    } catch (e) {
      throw fileSystemError(e, "create the lock file", lock);
    } finally {
      rmSync(aside, { force: true });
    }
    if (created) {
      return () => {
        if (readLockPid(lock) === process.pid) rmSync(lock, { force: true });
      };
    }
    const pid = readLockPid(lock);
    if (pid === undefined) continue; // released meanwhile: try again
    if (pid !== 0 && pidAlive(pid)) {
      const who = pid === process.pid ? `another run in this process (pid ${pid})` : `another run (pid ${pid})`;
      throw new OutputLockedError(`${who} holds ${path}: wait for it to finish or stop it (lock file ${lock})`, { path, pid });
    }
    // stale (its process is gone): move it aside; of two runs taking it over, one moves it
    const stale = `${lock}.stale-${process.pid}`;
    try {
      renameSync(lock, stale);
    } catch (e) {
      if (errnoCode(e) === "ENOENT") continue;
      throw fileSystemError(e, "take over the stale lock file", lock);
    }
    const moved = readLockPid(stale);
    if (moved !== pid) {
      // a live run's fresh lock was moved by mistake: put it back unless the place is taken
      try {
        linkSync(stale, lock);
      } catch {
        // someone holds the lock again; the next attempt reports them
      }
    }
    rmSync(stale, { force: true });
  }
  const pid = readLockPid(lock) ?? 0;
  throw new OutputLockedError(`another run${pid ? ` (pid ${pid})` : ""} holds ${path} (lock file ${lock})`, { path, pid });
}

/**
 * Remove `<path>.tmp-<pid>` files beside `path` whose process is gone (left by a run killed during
 * its final write). Returns the removed paths.
 */
export function removeStaleTemporaries(path: string): string[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    if (!/^\d+$/.test(rest)) continue;
    const pid = Number(rest);
    if (pid === process.pid || pidAlive(pid)) continue;
    const p = join(dir, name);
    try {
      rmSync(p, { force: true });
      removed.push(p);
    } catch (e) {
      throw fileSystemError(e, "remove the stale temporary file", p);
    }
  }
  return removed;
}
