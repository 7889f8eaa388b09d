// The benchmark input every package's benchmark uses: `make-pairs.mjs --seed 9 --count N --no-edge`
// from testdata/corpus, generated once into the OS temp folder, or the file given with --pairs.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, renameSync } from "node:fs";
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
    process.stderr.write(`generating ${count} pairs → ${file}\n`);
    const part = `${file}.${process.pid}.part`;
    const fd = openSync(part, "w"); // written by the generator itself: a million pairs never sit in one string
    let r;
    try {
      r = spawnSync(process.execPath, [makePairs, "--seed", "9", "--count", String(count), "--no-edge"], {
        stdio: ["ignore", fd, "inherit"],
      });
    } finally {
      closeSync(fd);
    }
    if (r.status !== 0) throw new Error(`make-pairs.mjs failed (${r.status ?? r.error?.message})`);
    renameSync(part, file); // a cached corpus is always a whole one
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
