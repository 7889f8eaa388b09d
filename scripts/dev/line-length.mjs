#!/usr/bin/env node
// No line over 140 characters in the tracked TypeScript and scripts (what the formatter cannot wrap: long
// strings, comments, regular expressions). Generated files and the AssemblyScript kernels are exempt.
//
//   node scripts/dev/line-length.mjs          # lists each long line, exits 1 when there is one
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const MAX = 140;
const root = resolve(import.meta.dirname, "../..");
const files = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.mts", "*.mjs", "*.cjs"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => f !== "" && !/\.generated\.ts$/.test(f) && !f.startsWith("packages/core-wasm/assembly/") && !f.includes("/node_modules/"));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(resolve(root, file), "utf8");
  } catch {
    continue; // deleted in the working tree
  }
  text.split("\n").forEach((line, i) => {
    const length = [...line].length;
    if (length > MAX) long.push(`${file}:${i + 1}: ${length} characters`);
  });
}
if (long.length > 0) {
  console.error(`${long.length} line(s) over ${MAX} characters:\n${long.join("\n")}`);
  process.exit(1);
}
console.log(`line length: ${files.length} files, no line over ${MAX} characters`);
