// What every command's registration (`commands/<name>.command.ts`) shares: the program's streams, the place its
// exit code goes, and commander's value parsers. A registration declares the command's flags and help and
// imports its handler only when the command runs, so `evalkern --help` loads none of the scoring code.
import { InvalidArgumentError } from "commander";

export interface ProgramIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** What `-` reads (default: the process's stdin). */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
}

/** Handed to each command's `register…` function. */
export interface CommandContext {
  readonly io: ProgramIo;
  /** stdout and stderr, as the handlers take them. */
  readonly sink: { readonly stdout: ProgramIo["stdout"]; readonly stderr: ProgramIo["stderr"] };
  /** Record the exit code the command's handler ended with (`main` returns it). */
  setExitCode(code: number): void;
}

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
      throw new InvalidArgumentError(`${name} must be a positive integer.`);
    }
    return n;
  };
}

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a non-negative integer.`);
    return n;
  };
}

export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative number.`);
    return n;
  };
}

/** The --queue / --queue-url-file flags as parsed. */
export const queueFlags = (o: Record<string, unknown>) => ({
  queue: o.queue as string | boolean | undefined,
  queueUrlFile: o.queueUrlFile as string | undefined,
});

/** Repeatable: `--ref a.txt --ref b.txt`. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
/** Repeatable and comma-separated: `--refs-field ref1,ref2` or `--refs-field ref1 --refs-field ref2`. */
export const collectList = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== ""),
];
