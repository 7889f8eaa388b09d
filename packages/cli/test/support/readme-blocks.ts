// Finds every fenced code block of every README of the workspace and says what the README test does
// with it. The rule (documented in the root README, "Code blocks in READMEs"):
//
// - The info string's first word is the block's language. `js`, `mjs`, `javascript`, `ts`, `typescript`
//   blocks run as ES modules, `sh`, `bash`, `shell` blocks run with bash: these are the RUN languages.
// - `text`, `console`, `json`, `jsonc`, `yaml`, `csv`, `html`, `diff`, `ini`, `toml` blocks are output
//   samples or data: they are never run (`json` blocks must parse).
// - A block with no language is an error: every block says what it is.
// - A RUN-language block that cannot run as written (an install command, a placeholder file or endpoint,
//   a recipe for a cluster) is preceded, on the line just before its fence, by
//   `<!-- readme-test: skip (the reason) -->`. The reason is required; the test lists every skipped block.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const RUN_LANGUAGES: Readonly<Record<string, "js" | "ts" | "sh">> = {
  js: "js",
  mjs: "js",
  javascript: "js",
  ts: "ts",
  typescript: "ts",
  sh: "sh",
  bash: "sh",
  shell: "sh",
};
export const DATA_LANGUAGES: ReadonlySet<string> = new Set([
  "text",
  "console",
  "json",
  "jsonc",
  "yaml",
  "yml",
  "csv",
  "html",
  "diff",
  "ini",
  "toml",
]);
const SKIP = /^<!--\s*readme-test:\s*skip\s*\((.+)\)\s*-->$/;

export interface ReadmeBlock {
  /** Path relative to the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  /** The nearest `#` heading above the block (without the hashes). */
  readonly heading: string;
  readonly code: string;
  /** The reason of a `<!-- readme-test: skip (…) -->` marker, if any. */
  readonly skip: string | undefined;
}

/** Every README*.md of the repository (root, packages/*, docs/, .changeset/), node_modules excluded. */
export function readmeFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name === "dist" || name === ".git" || name === ".turbo" || name === "tmp") continue;
      const path = join(dir, name);
      const stats = statSync(path);
      if (stats.isDirectory()) {
        if (depth < 3) visit(path, depth + 1);
      } else if (/^README.*\.md$/i.test(name)) found.push(relative(root, path));
    }
  };
  visit(root, 0);
  return found;
}

export function readmeBlocks(root: string, file: string): ReadmeBlock[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const blocks: ReadmeBlock[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) heading = (h[1] ?? "").trim();
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (!open) continue;
    const indent = open[1] ?? "";
    const fence = open[2] ?? "```";
    const language = (open[3] ?? "").trim().split(/\s+/)[0] ?? "";
    let previous = i - 1;
    while (previous >= 0 && (lines[previous] ?? "").trim() === "") previous--;
    const skip = SKIP.exec((lines[previous] ?? "").trim())?.[1]?.trim();
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j] ?? "";
      if (l.trim().startsWith(fence[0]!.repeat(fence.length)) && l.trim().replace(/[`~]/g, "") === "") break;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    blocks.push({ file, line: i + 1, language, heading, code: body.join("\n") + "\n", skip });
    i = j;
  }
  return blocks;
}
