// The one reader of testdata/ for the packages' tests, benchmarks and examples (Node and Deno).
// Golden .jsonl files are stored gzipped (testdata/golden/<name>.jsonl.gz) to keep a checkout small;
// callers name them without the .gz and get the text back, so no test has to know how they are stored.
// See testdata/README-reference.md for how each file was made.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

/** Absolute path of testdata/. */
export const TESTDATA_DIR = fileURLToPath(new URL(".", import.meta.url)).replace(/[/\\]$/, "");
/** Absolute path of testdata/golden/. */
export const GOLDEN_DIR = join(TESTDATA_DIR, "golden");
/** The deterministic pair generator (`node make-pairs.mjs --seed S --count N [--no-edge]`). */
export const MAKE_PAIRS = join(TESTDATA_DIR, "corpus", "make-pairs.mjs");

/** Where a golden file is stored: `<name>.gz` for .jsonl files, `<name>` otherwise. */
export function goldenStoredPath(name) {
  return join(GOLDEN_DIR, name.endsWith(".jsonl") ? `${name}.gz` : name);
}

/** The text of a golden file, e.g. `dspy.jsonl` or `corpus.json`. */
export function readGoldenText(name) {
  const path = goldenStoredPath(name);
  if (!existsSync(path)) throw new Error(`no golden file ${name} (expected ${path})`);
  const bytes = readFileSync(path);
  return (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

/** The non-empty lines of a golden JSONL file, as written. */
export function readGoldenLines(name) {
  return readGoldenText(name)
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** The lines of a golden JSONL file, each through JSON.parse. */
export function readGoldenJsonl(name) {
  return readGoldenLines(name).map((line) => JSON.parse(line));
}

/** A plain copy of a golden file in `dir` (for code that reads a path, such as scoreFile); returns its path. */
export function goldenFileIn(dir, name) {
  const path = join(dir, name);
  writeFileSync(path, readGoldenText(name));
  return path;
}
