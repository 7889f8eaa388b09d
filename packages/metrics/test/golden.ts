// Reads the repository's golden values (testdata/golden at the workspace root, .jsonl files gzipped)
// through testdata/index.mjs. Paths are relative to testdata/, e.g. `golden/dspy.jsonl`. The metrics
// suites run in Node only.
import { readGoldenText } from "../../../testdata/index.mjs";

export function readSharedText(relative: string): string {
  if (!relative.startsWith("golden/")) throw new Error(`not a golden file: ${relative}`);
  return readGoldenText(relative.slice("golden/".length));
}

/** The raw lines of a golden JSONL file (non-empty ones). */
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
