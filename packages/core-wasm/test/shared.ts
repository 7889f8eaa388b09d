// Reads the repository's test data (testdata/ at the root: golden values, gzipped .jsonl files) for the
// suites. In Node and Deno through testdata/index.mjs; in the browser through vitest's readFile command
// (see vitest.browser.config.ts), unzipped with the page's DecompressionStream. Paths are relative to
// testdata/, e.g. `golden/dspy.jsonl`.
const TESTDATA_FROM_PACKAGE = "../../testdata/";

export async function readSharedText(relative: string): Promise<string> {
  if (typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string") {
    if (!relative.startsWith("golden/")) throw new Error(`not a golden file: ${relative}`);
    const { readGoldenText } = await import("../../../testdata/index.mjs");
    return readGoldenText(relative.slice("golden/".length));
  }
  const { commands } = await import("vitest/browser");
  const gzipped = relative.endsWith(".jsonl");
  const path = TESTDATA_FROM_PACKAGE + relative + (gzipped ? ".gz" : "");
  if (!gzipped) return commands.readFile(path);
  const base64 = await commands.readFile(path, { encoding: "base64" });
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

export async function readJsonl<T = Record<string, unknown>>(relative: string): Promise<T[]> {
  const text = await readSharedText(relative);
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}
