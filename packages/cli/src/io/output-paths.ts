// The one check every command runs on the files it is about to write, before any work: an output must
// not be one of the command's inputs, another of its outputs, a directory, or inside a run's sidecar
// (`<file>.evalkern/`, where `report`, `compare` and `merge` find a run's manifest and statistics).
// Paths are compared as the file system sees them: `./x` and `x`, symlinks (dangling ones too, since a
// write follows them) and, where both files exist, hard links (same device and inode).
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { usageError } from "../errors.js";

/** A file a command reads or writes, with how the user named it (`-o`, `--report`, `the input`, ...). */
export interface NamedPath {
  /** Shown before the path in messages: a flag (`-o`) or a role (`the input`). */
  readonly role: string;
  readonly path: string;
  /** The output gets a sidecar `<path>.evalkern/` (score, judge and merge outputs). */
  readonly sidecar?: boolean;
}

const SIDECAR = ".evalkern";
const MAX_LINKS = 40;

/** Where a write to `path` would land: the real path of its nearest existing ancestor plus the rest. */
export function realTarget(path: string, hops = 0): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    // missing (or a dangling symlink, which a write follows to create its target)
  }
  try {
    if (hops < MAX_LINKS && lstatSync(abs).isSymbolicLink()) return realTarget(resolve(dirname(abs), readlinkSync(abs)), hops + 1);
  } catch {
    // nothing at all at `abs`
  }
  const parent = dirname(abs);
  return parent === abs ? abs : join(realTarget(parent, hops), basename(abs));
}

interface Resolved extends NamedPath {
  readonly real: string;
  /** Device and inode of an existing file (hard links share them). */
  readonly id: string | undefined;
  readonly directory: boolean;
}

function resolved(p: NamedPath): Resolved {
  const real = realTarget(p.path);
  let id: string | undefined;
  let directory = false;
  try {
    const s = statSync(real, { bigint: true });
    id = `${s.dev}:${s.ino}`;
    directory = s.isDirectory();
  } catch {
    // does not exist yet
  }
  return { ...p, real, id, directory };
}

const same = (a: Resolved, b: Resolved): boolean => a.real === b.real || (a.id !== undefined && a.id === b.id);

/** The innermost directory named `<file>.evalkern` holding `real`, if any. */
function enclosingSidecar(real: string): string | undefined {
  for (let d = dirname(real); d !== dirname(d); d = dirname(d)) {
    const name = basename(d);
    if (name.endsWith(SIDECAR) && name.length > SIDECAR.length) return d;
  }
  return undefined;
}

const shown = (p: NamedPath): string => `${p.role} ${p.path}`;

function showDir(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return `${rel && !rel.startsWith("..") ? rel : dir}${sep}`;
}

/** A command's `-o` (with a sidecar), named as the user gave it, or as the default it resolved to. */
export function mainOutput(given: string | undefined, output: string): NamedPath {
  return given === undefined
    ? { role: "the default output", path: relative(process.cwd(), output) || output, sidecar: true }
    : { role: "-o", path: given, sidecar: true };
}

/** An output flag that may not have been given. */
export type OptionalOutput = NamedPath | { readonly role: string; readonly path: undefined };

function checkOne(o: Resolved, ins: readonly Resolved[]): void {
  if (o.directory) throw usageError(`${shown(o)} is a directory: give a file path`);
  for (const i of ins) {
    if (same(o, i)) {
      throw usageError(`${shown(o)} is the same file as ${shown(i)}: writing it would destroy the input; choose another path`);
    }
  }
  const sidecar = enclosingSidecar(o.real);
  if (sidecar !== undefined) {
    const owner = basename(sidecar.slice(0, -SIDECAR.length));
    throw usageError(
      `${shown(o)} is inside ${showDir(sidecar)}, the sidecar where evalkern keeps the run of ${owner} ` +
        "(its manifest and statistics): choose a path outside it",
    );
  }
}

/** The run rewrites its own sidecar: no other output, and no input, may live there. */
function checkSidecar(a: Resolved, outs: readonly Resolved[], ins: readonly Resolved[]): void {
  const dir = `${a.real}${SIDECAR}`;
  for (const b of outs) {
    if (b !== a && b.real === dir) throw usageError(`${shown(b)} is the sidecar directory of ${shown(a)}: choose another path`);
  }
  for (const i of ins) {
    if (i.real.startsWith(`${dir}${sep}`)) {
      throw usageError(`${shown(i)} is inside ${showDir(dir)}, the sidecar ${shown(a)} rewrites: choose another output path`);
    }
  }
}

/**
 * Refuse (usage error, exit 2) outputs that would destroy an input or each other, before any work.
 * Outputs whose flag was not given (`path: undefined`) are skipped.
 *
 * @example
 * checkOutputPaths([{ role: "the input", path: "in.jsonl" }], [mainOutput("out.jsonl", out), { role: "--report", path: report }]);
 */
export function checkOutputPaths(inputs: readonly NamedPath[], outputs: readonly OptionalOutput[]): void {
  const ins = inputs.map(resolved);
  const outs = outputs.filter((o): o is NamedPath => o.path !== undefined).map(resolved);
  for (const o of outs) checkOne(o, ins);
  for (const [k, a] of outs.entries()) {
    for (const b of outs.slice(k + 1)) {
      if (same(a, b)) throw usageError(`${shown(a)} and ${shown(b)} are the same file: each output needs its own path`);
    }
    if (a.sidecar) checkSidecar(a, outs, ins);
  }
}
