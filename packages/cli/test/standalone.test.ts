// The repository stands on its own: a clone holds everything its tests, benchmarks and comments use.
// The golden values and the pair generator live in testdata/, the behaviour specs in docs/spec/; no
// tracked file may point at a folder beside the checkout (the old home of that data), and every
// `docs/spec/<file>.md §N` a file cites names a section that exists.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url)).replace(/[/\\]$/, "");
const self = relative(root, fileURLToPath(import.meta.url))
  .split("\\")
  .join("/");

// Ways a path out of the checkout was written: "../shared", "/work/shared", path.join pieces
// ("..", "shared") and the old data folders ("shared/golden", "shared/spec", "shared/corpus"). Built from
// parts so that this file does not match itself.
const OUTSIDE = "sha" + "red";
const OUTSIDE_REFERENCE = new RegExp(
  [
    String.raw`\.\./${OUTSIDE}\b`,
    String.raw`/work/${OUTSIDE}\b`,
    String.raw`["']\.\.["'],\s*["']${OUTSIDE}["']`,
    String.raw`\b${OUTSIDE}/(?:golden|spec|corpus)\b`,
  ].join("|"),
);
const BINARY = /\.(gz|wasm|png|jpg|ico|woff2?)$/;
const SKIPPED_DIRS = new Set([".git", "node_modules", "dist", "build", ".turbo", ".test-results"]);

/** Tracked files (git ls-files); a checkout without git (an unpacked archive) is walked instead. */
function trackedFiles(): string[] {
  try {
    return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 })
      .split("\0")
      .filter((f) => f !== "");
  } catch {
    const out: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) walk(path);
        } else if (entry.isFile()) out.push(path);
      }
    };
    walk("");
    return out;
  }
}

/** The text files among them, with their contents. */
function textFiles(): { path: string; text: string }[] {
  return trackedFiles()
    .filter((path) => path !== self && !BINARY.test(path))
    .flatMap((path) => {
      try {
        return [{ path, text: readFileSync(join(root, path), "utf8") }];
      } catch {
        return []; // listed by git but deleted in the working tree
      }
    });
}

/** Section numbers of a spec: "2" for "## 2. …", "2.10" for "### 2.10 …". */
function sections(spec: string): Set<string> {
  const text = readFileSync(join(root, "docs/spec", spec), "utf8");
  return new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)[. ]/gm)].map((m) => m[1]!));
}

describe("the repository stands on its own", () => {
  const files = textFiles();

  it("lists the repository's files (testdata and docs/spec among them)", () => {
    const paths = new Set(files.map((f) => f.path));
    expect(paths.has("testdata/index.mjs")).toBe(true);
    expect(paths.has("testdata/README-reference.md")).toBe(true);
    expect(paths.has("docs/spec/judges.md")).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it("no tracked file points at a folder beside the checkout", () => {
    const offenders = files.flatMap(({ path, text }) =>
      text.split("\n").flatMap((line, i) => (OUTSIDE_REFERENCE.test(line) ? [`${path}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("the check catches each way such a path was written", () => {
    const written = [
      `"../../../${OUTSIDE}/golden"`,
      `/work/${OUTSIDE}/corpus/make-pairs.mjs`,
      `join(dir, "..", "${OUTSIDE}", "golden")`,
      `every line of ${OUTSIDE}/golden/dspy.jsonl`,
    ];
    for (const line of written) {
      expect(OUTSIDE_REFERENCE.test(line), line).toBe(true);
    }
    expect(OUTSIDE_REFERENCE.test("sharedInput: a file the workers can read")).toBe(false);
  });

  it("every docs/spec section a file cites exists", () => {
    const specs = new Map(["judges.md", "rule-metrics.md", "dsrs.md"].map((spec) => [spec, sections(spec)]));
    const cited: string[] = [];
    const missing: string[] = [];
    for (const { path, text } of files) {
      for (const m of text.matchAll(/docs\/spec\/(judges|rule-metrics|dsrs)\.md`?\)?,? §(\d+(?:\.\d+)*)/g)) {
        cited.push(m[0]);
        if (!specs.get(`${m[1]}.md`)!.has(m[2]!)) missing.push(`${path}: ${m[0]}`);
      }
    }
    expect(cited.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
