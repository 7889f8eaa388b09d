// Confining a command's files with bubblewrap (`bwrap`, what Flatpak uses): the command sees a read-only
// view of the system's programs and libraries, its scratch folder writable, a private /tmp, /proc and
// /dev, and nothing else of the host (no /etc/hostname, no home, no project). bwrap needs no daemon: it
// makes mount, PID (and, when asked, network) namespaces itself, as root or through user namespaces.
// Node-only (imported by ./limits.ts).
import { spawnSync } from "node:child_process";
import { accessSync, constants, lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/** Host directories a confined command may read: the programs, the libraries and the dynamic loader. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** The few files of /etc programs need to start (the loader's cache, alternatives, the time zone). */
const SYSTEM_ETC = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"];

/** The bwrap program: `EVALKERN_BWRAP` when set (a path), else `bwrap` in the system directories. */
function bwrapProgram(): string | undefined {
  const given = process.env.EVALKERN_BWRAP;
  const candidates = given !== undefined && given !== "" ? [given] : ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
  for (const path of candidates) {
    try {
      if (statSync(path).isFile()) {
        accessSync(path, constants.X_OK);
        return path;
      }
    } catch {
      // not there
    }
  }
  return undefined;
}

const works = new Map<string, boolean>();

/** The namespace flags of every confined run (`--unshare-net` added when the network is off). */
function namespaceFlags(network: boolean): string[] {
  const flags = ["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox"];
  if (!network) flags.push("--unshare-net");
  // as root bwrap keeps the capabilities unless told: without them root inside cannot remount the view
  if (process.getuid?.() === 0) flags.push("--cap-drop", "ALL");
  return flags;
}

/**
 * True when `bwrap` can make these namespaces here (once per flag set and process). It cannot where user
 * namespaces are off for this user, or inside a container that forbids mounts: the run then goes on
 * without it and reports `files` as not enforced.
 */
function bwrapWorks(bwrap: string, flags: readonly string[]): boolean {
  const key = [bwrap, ...flags].join("\0");
  let ok = works.get(key);
  if (ok === undefined) {
    const args = [...flags, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--", "/bin/sh", "-c", "exit 0"];
    const r = spawnSync(bwrap, args, { stdio: "ignore", timeout: 10_000 });
    ok = r.status === 0;
    works.set(key, ok);
  }
  return ok;
}

function isUnder(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The view: system directories bound read-only (or recreated as the symlinks they are, as /lib -> usr/lib). */
function systemView(): { args: string[]; roots: string[] } {
  const args: string[] = [];
  const roots: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
    else continue;
    roots.push(dir);
  }
  for (const file of SYSTEM_ETC) args.push("--ro-bind-try", file, file);
  return { args, roots };
}

/** What a confined run needs: the bwrap argv prefix (ending in `--`). */
export interface FileConfinement {
  readonly prefix: readonly string[];
}

/**
 * The bwrap prefix that confines a command to `scratch` (writable, its working directory) and a read-only
 * view of the system, the running Node's installation, the program itself and `readOnlyPaths`; or
 * undefined when bwrap is missing or cannot make namespaces here.
 */
export function confineFiles(options: {
  readonly scratch: string;
  readonly program: string;
  readonly readOnlyPaths: readonly string[];
  readonly network: boolean;
}): FileConfinement | undefined {
  if (process.platform !== "linux") return undefined;
  const bwrap = bwrapProgram();
  if (bwrap === undefined) return undefined;
  const flags = namespaceFlags(options.network);
  if (!bwrapWorks(bwrap, flags)) return undefined;
  const { args, roots } = systemView();
  const prefix = [bwrap, ...flags, ...args, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"];
  // the running Node's installation (e.g. ~/.nvm/versions/node/v20), so `node` runs where it lives
  const nodeBin = dirname(process.execPath);
  const nodeHome = dirname(nodeBin) === "/" ? nodeBin : dirname(nodeBin);
  const extra: string[] = [];
  if (!roots.some((root) => isUnder(nodeHome, root))) extra.push(nodeHome);
  const program = resolve(options.scratch, options.program);
  const inView = isUnder(program, options.scratch) || roots.some((root) => isUnder(program, root));
  if (isAbsolute(options.program) && !inView) extra.push(program);
  for (const path of options.readOnlyPaths) extra.push(resolve(path));
  // after /tmp's tmpfs, so a path under /tmp is bound over it; the scratch folder last, writable
  for (const path of extra) prefix.push("--ro-bind", path, path);
  prefix.push("--bind", options.scratch, options.scratch, "--chdir", options.scratch, "--");
  return { prefix };
}
