// Adds up the vitest JSON reports that the packages' test runs leave in packages/*/.test-results/
// (one file per runtime, e.g. node.json, deno.json, browser.json) and prints one closing line,
// "test:all: N passed, N failed, N skipped", so the whole run ends on a single count.
//
//   node scripts/test-summary.mjs --clean   remove old reports (run before the tests)
//   node scripts/test-summary.mjs           print the totals; exit 1 if any failed or none ran
//
// A package whose tests are a plain `vitest run` joins in with
// `--reporter=default --reporter=json --outputFile.json=.test-results/node.json`.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const packagesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "packages");
const packages = readdirSync(packagesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());

if (process.argv.includes("--clean")) {
  for (const entry of packages) rmSync(join(packagesDir, entry.name, ".test-results"), { recursive: true, force: true });
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const entry of packages) {
  const dir = join(packagesDir, entry.name, ".test-results");
  let files;
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort();
  } catch {
    continue;
  }
  for (const file of files) {
    const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const p = report.numPassedTests ?? 0;
    const f = report.numFailedTests ?? 0;
    const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    console.log(`  ${entry.name} ${file.replace(/\.json$/, "")}: ${p} passed, ${f} failed, ${s} skipped`);
    passed += p;
    failed += f;
    skipped += s;
  }
}
if (passed + failed === 0) {
  console.error("evalkern: no test reports found under packages/*/.test-results: no test ran");
  process.exit(1);
}
console.log(`evalkern: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
