// Layering: a package never imports one above it (core-wasm < metrics < judge < harness < cli). This
// scans every source file's imports — static, `export … from`, dynamic `import()`, `require()` — and every
// string that names an @evalkern package or points into another package's directory (`new URL("../../x/dist/…",
// import.meta.url)`, `file://…/packages/x/dist/…`), so a worker loading another package's build by URL
// fails here too.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE = "metrics";
/** The @evalkern packages this one may import (besides itself). */
const ALLOWED: readonly string[] = ["core-wasm"];
const ALL = ["core-wasm", "metrics", "judge", "harness", "cli"];

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const src = join(root, "src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mts|cts|js|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !e.name.endsWith(".generated.ts") ? [join(dir, e.name)] : [],
  );
}

/** Source without comments (strings kept), so prose that names a package is not an import. */
function stripComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out;
}

/** Every string literal of a source (import specifiers, dynamic import arguments, URLs). */
function strings(code: string): string[] {
  return [...code.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map((m) => m[2]!);
}

/** Imports of `code` (the text of `file`) that break the layering. */
function violations(code: string, file: string): string[] {
  const where = relative(root, file);
  const out: string[] = [];
  for (const s of strings(stripComments(code))) {
    if (/\s/.test(s)) continue; // prose (messages), not a specifier or URL
    const pkg = /^@evalkern\/([\w-]+)/.exec(s)?.[1];
    if (pkg && pkg !== PACKAGE && ALL.includes(pkg) && !ALLOWED.includes(pkg)) out.push(`${where}: ${JSON.stringify(s)} (@evalkern/${pkg})`);
    const dist = /(?:^|[/\\])(core-wasm|metrics|judge|harness|cli)[/\\](?:dist|src)(?:[/\\]|$)/.exec(s)?.[1];
    if (dist && dist !== PACKAGE) out.push(`${where}: ${JSON.stringify(s)} (into ${dist}'s files)`);
    if (s.startsWith("../") || s.startsWith("./")) {
      const target = resolve(dirname(file), s);
      if (!target.startsWith(root + sep)) out.push(`${where}: ${JSON.stringify(s)} (outside the package)`);
    }
  }
  return out;
}

describe("layering", () => {
  it(`${PACKAGE} imports no package above it (allowed: ${ALLOWED.join(", ") || "none"})`, () => {
    const found = files(src).flatMap((f) => violations(readFileSync(f, "utf8"), f));
    expect(found).toEqual([]);
  });

  const above = ALL.find((p) => p !== PACKAGE && !ALLOWED.includes(p));
  it.skipIf(above === undefined)("catches static, dynamic and URL imports of a package above, not prose", () => {
    const file = join(src, "sample.ts");
    const bad = [
      `import { x } from "@evalkern/${above}";`,
      `export { y } from "@evalkern/${above}/sub";`,
      `const m = await import("@evalkern/${above}/dist/adapters.js");`,
      `const u = new URL("../../${above}/dist/adapters.js", import.meta.url).href;`,
      `const f = "file:///repo/packages/${above}/dist/adapters.js";`,
      `const g = require("../../${above}/src/index.js");`,
    ];
    for (const line of bad) expect(violations(line, file), line).not.toEqual([]);
    const fine = [
      `// import "@evalkern/${above}" in a comment`,
      `throw new Error("see @evalkern/${above} for more");`,
      'import { z } from "./local.js";',
    ];
    for (const line of fine) expect(violations(line, file), line).toEqual([]);
  });
});
