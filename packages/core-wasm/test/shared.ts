// Reads files from ../shared (the golden values and corpus), which CI keeps beside the checkout.
// Works in Node and Deno (node:fs) and in the browser (vitest's readFile command, see vitest.browser.config).
const SHARED_FROM_PACKAGE = "../../../shared/";

export async function readSharedText(relative: string): Promise<string> {
  if (typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string") {
    const fs = await import("node:fs/promises");
    const url = new URL(SHARED_FROM_PACKAGE + relative, new URL("../", import.meta.url));
    return fs.readFile(url, "utf8");
  }
  const { commands } = await import("vitest/browser");
  return commands.readFile(SHARED_FROM_PACKAGE + relative);
}

export async function readJsonl<T = Record<string, unknown>>(relative: string): Promise<T[]> {
  const text = await readSharedText(relative);
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}
