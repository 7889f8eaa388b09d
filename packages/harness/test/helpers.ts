import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAKE_PAIRS } from "../../../testdata/index.mjs";

const created: string[] = [];

/** A fresh temporary directory, removed after the test file (see test/setup.ts). */
export function tempDir(prefix = "evalkern-harness-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Deterministic pairs from the corpus generator (testdata/corpus/make-pairs.mjs) (with edge cases unless noEdge). */
export function makePairs(dir: string, seed: number, count: number, noEdge = false): string {
  const out = execFileSync(
    process.execPath,
    [MAKE_PAIRS, "--seed", String(seed), "--count", String(count), ...(noEdge ? ["--no-edge"] : [])],
    {
      maxBuffer: 1 << 30,
    },
  );
  const path = join(dir, `pairs-${seed}-${count}${noEdge ? "-ne" : ""}.jsonl`);
  writeFileSync(path, out);
  return path;
}

export function readJsonl(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
