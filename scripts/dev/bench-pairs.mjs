// The benchmark input every package's benchmark uses: `make-pairs.mjs --seed 9 --count N --no-edge`
// from testdata/corpus, generated once into the OS temp folder, or the file given with --pairs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const makePairs = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "testdata", "corpus", "make-pairs.mjs");

/** Command-line options of the benchmark scripts: `--count N`, `--pairs file`, `--quick`. */
export function benchArgs(argv = process.argv.slice(2)) {
  const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
  return { count: Number(opt("count", "100000")), pairs: opt("pairs", undefined), quick: argv.includes("--quick") };
}

/** The benchmark input's file: `pairs` when given, else the generated corpus of `count` pairs (made once). */
export function benchPairsFile({ count, pairs }) {
  if (pairs) return pairs;
  const file = join(tmpdir(), `evalkern-bench-seed9-${count}.jsonl`);
  if (!existsSync(file)) {
    const text = execFileSync(process.execPath, [makePairs, "--seed", "9", "--count", String(count), "--no-edge"], {
      maxBuffer: 1 << 30,
      encoding: "utf8",
    });
    writeFileSync(`${file}.${process.pid}.part`, text);
    renameSync(`${file}.${process.pid}.part`, file); // a cached corpus is always a whole one
  }
  return file;
}

/** The rows `{ id, lang, hyp, refs }` of the benchmark input, and the file they came from. */
export function loadBenchPairs({ count, pairs }) {
  const file = benchPairsFile({ count, pairs });
  const rows = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return { file, rows };
}
