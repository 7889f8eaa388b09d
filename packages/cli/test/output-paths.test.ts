import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../src/errors.js";
import { checkOutputPaths, realTarget } from "../src/io/output-paths.js";

const dir = () => realpathSync(mkdtempSync(join(tmpdir(), "evalkern-paths-")));

function refusal(f: () => void): CliError {
  try {
    f();
  } catch (e) {
    if (CliError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("not refused");
}

describe("realTarget: where a write lands", () => {
  it("follows a dangling symlink to the file a write would create, and symlinked parent directories", () => {
    const d = dir();
    symlinkSync(join(d, "target.jsonl"), join(d, "dangling.jsonl"));
    expect(realTarget(join(d, "dangling.jsonl"))).toBe(join(d, "target.jsonl"));
    mkdirSync(join(d, "real"));
    symlinkSync(join(d, "real"), join(d, "alias"));
    expect(realTarget(join(d, "alias", "new.jsonl"))).toBe(join(d, "real", "new.jsonl"));
  });

  it("ends on a symlink loop (the write would fail on it; the check must not hang)", () => {
    const d = dir();
    symlinkSync(join(d, "loop"), join(d, "loop"));
    expect(realTarget(join(d, "loop"))).toBe(join(d, "loop"));
  });
});

describe("checkOutputPaths", () => {
  it("two outputs through a dangling symlink and its target are the same file", () => {
    const d = dir();
    symlinkSync(join(d, "b.html"), join(d, "a.jsonl"));
    const outputs = [
      { role: "-o", path: join(d, "a.jsonl") },
      { role: "--report", path: join(d, "b.html") },
    ];
    const e = refusal(() => checkOutputPaths([], outputs));
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/^-o .*a\.jsonl and --report .*b\.html are the same file/);
  });

  it("an input inside the sidecar the output's run rewrites", () => {
    const d = dir();
    mkdirSync(join(d, "out.jsonl.evalkern"));
    writeFileSync(join(d, "out.jsonl.evalkern", "rows.jsonl"), "{}\n");
    const input = { role: "the input", path: join(d, "out.jsonl.evalkern", "rows.jsonl") };
    const e = refusal(() => checkOutputPaths([input], [{ role: "-o", path: join(d, "out.jsonl"), sidecar: true }]));
    expect(e.message).toMatch(/^the input .*rows\.jsonl is inside .*out\.jsonl\.evalkern\/, the sidecar -o .*out\.jsonl rewrites/);
  });

  it("distinct files, flags not given and a directory merely named like a file pass", () => {
    const d = dir();
    writeFileSync(join(d, "in.jsonl"), "{}\n");
    mkdirSync(join(d, "x.evalkern-notes"));
    expect(() =>
      checkOutputPaths(
        [{ role: "the input", path: join(d, "in.jsonl") }],
        [
          { role: "-o", path: join(d, "out.jsonl"), sidecar: true },
          { role: "--report", path: undefined },
          { role: "--cache", path: join(d, "x.evalkern-notes", "cache.jsonl") },
        ],
      ),
    ).not.toThrow();
  });
});
