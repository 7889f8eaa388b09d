// What bulk scoring does when things go wrong: file-system failures end with a typed error (never a
// hang), resume is bound to the content it covers, stale files and locks of dead runs are cleaned up,
// oversized and never-ending rows become bad rows, odd bytes follow one rule.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { FileSystemError, makeDirectory, scoreFile } from "../src/index.js";
import { tempDir } from "./helpers.js";

let dir: string;
let small: string;

beforeAll(async () => {
  await ready();
  dir = tempDir();
  small = join(dir, "small.jsonl");
  writeFileSync(small, `${JSON.stringify({ hyp: "the cat sat", refs: ["the cat sat"] })}\n`);
});

describe("file-system failures end the run with a typed error", () => {
  it("an output under /proc fails at once with FileSystemError (no endless mkdir)", async () => {
    const started = Date.now();
    const err = await scoreFile({ input: small, output: "/proc/evalkern-x.jsonl", metrics: ["tokenF1"], workers: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileSystemError);
    expect(err).toMatchObject({ code: "ENOENT", path: "/proc/evalkern-x.jsonl" });
    expect((err as Error).message).toMatch(/cannot open for writing \/proc\/evalkern-x\.jsonl: no such file or directory \(ENOENT\)/);
    expect(Date.now() - started).toBeLessThan(20_000); // generous: it takes milliseconds
  });

  it("makeDirectory: bounded under /proc, ENOTDIR through a file, creates missing parents", () => {
    expect(() => makeDirectory("/proc/evalkern-a/b/c")).toThrow(FileSystemError);
    expect(() => makeDirectory("/proc/evalkern-a/b/c")).toThrow(/cannot create directory \/proc\/evalkern-a: .*ENOENT.*does not accept new entries/);
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    let err: unknown;
    try {
      makeDirectory(join(file, "sub", "dir"));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ name: "FileSystemError", code: "ENOTDIR" });
    makeDirectory(join(dir, "x", "y", "z"));
    makeDirectory(join(dir, "x", "y", "z")); // exists: fine
  });
});
