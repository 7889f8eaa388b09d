// Reads files from ../shared (golden values and the corpus), which CI keeps beside the checkout. The
// metrics suites run in Node, so this uses node:fs directly.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SHARED = new URL("../../../../shared/", import.meta.url);

/** Path of a file under shared/, e.g. `golden/dspy.jsonl`. */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(relative, SHARED));
}

export function readSharedText(relative: string): string {
  return readFileSync(sharedPath(relative), "utf8");
}

/** The raw lines of a JSONL file under shared/ (non-empty ones). */
export function readSharedLines(relative: string): string[] {
  return readSharedText(relative)
    .split("\n")
    .filter((line) => line.trim() !== "");
}

export function readJsonl<T = Record<string, unknown>>(relative: string): T[] {
  return readSharedLines(relative).map((line) => JSON.parse(line) as T);
}

/** A golden line: `out` is the original's return value, or `{ error: "TypeName" }` where it raised. */
export interface GoldenLine<Args = Record<string, unknown>> {
  readonly id: string;
  readonly fn: string;
  readonly args: Args;
  readonly out: unknown;
}

export function isGoldenError(out: unknown): out is { error: string } {
  return typeof out === "object" && out !== null && !Array.isArray(out) && typeof (out as { error?: unknown }).error === "string";
}
