// The layering rules of the workspace, checked by every package's boundaries test:
// - a package never imports one above it (core-wasm < metrics < judge < harness < cli; the vitest matchers,
//   vitest, sit above metrics beside judge, harness and cli, none of which may import them: installing the CLI
//   must not install a test runner). Every source file's
//   imports are scanned — static, `export … from`, dynamic `import()`, `require()` — and every string that
//   names an @evalkern package or points into another package's directory (`new URL("../../x/dist/…",
//   import.meta.url)`, `file://…/packages/x/dist/…`), so a worker loading another package's build by URL
//   fails too;
// - no import circles inside a package (static or dynamic relative imports; `import type` does not count);
// - web (the browser app, top layer beside cli) imports harness only through its browser-safe subpaths.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The packages, lowest first, and what each may import. */
export const LAYERS = {
  "core-wasm": [],
  metrics: ["core-wasm"],
  judge: ["metrics", "core-wasm"],
  harness: ["judge", "metrics", "core-wasm"],
  vitest: ["harness", "judge", "metrics", "core-wasm"],
  cli: ["harness", "judge", "metrics", "core-wasm"],
  web: ["harness", "metrics", "core-wasm"],
};

/** Per package, the only subpaths it may import of another package (web runs in browsers: no Node entry). */
const SUBPATHS = { web: { harness: ["@evalkern/harness/browser", "@evalkern/harness/report"] } };
const ALL = Object.keys(LAYERS);

/** Source files of `dir` (tests and generated tables left out). */
export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.(ts|mts|cts|js|mjs)$/.test(e.name) &&
          !/\.test\.ts$/.test(e.name) &&
          !e.name.endsWith(".generated.ts") &&
          !e.name.endsWith(".d.ts")
        ? [join(dir, e.name)]
        : [],
  );
}

/** Source without comments (strings kept), so prose that names a package is not an import. */
export function stripComments(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
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

function strings(code) {
  return [...code.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map((m) => m[2]);
}

/** Imports of `code` (the text of `file` in package `pkg` at `root`) that break the layering. */
export function layeringViolations(pkg, root, code, file) {
  const allowed = LAYERS[pkg];
  const where = relative(root, file);
  const out = [];
  for (const s of strings(stripComments(code))) {
    if (/\s/.test(s)) continue; // prose (messages), not a specifier or URL
    const other = /^@evalkern\/([\w-]+)/.exec(s)?.[1];
    if (other && other !== pkg && ALL.includes(other) && !allowed.includes(other))
      out.push(`${where}: ${JSON.stringify(s)} (@evalkern/${other})`);
    const only = other ? SUBPATHS[pkg]?.[other] : undefined;
    if (only && !only.includes(s)) out.push(`${where}: ${JSON.stringify(s)} (only ${only.join(", ")} of @evalkern/${other})`);
    const dist = /(?:^|[/\\])(core-wasm|metrics|judge|harness|vitest|cli|web)[/\\](?:dist|src)(?:[/\\]|$)/.exec(s)?.[1];
    if (dist && dist !== pkg) out.push(`${where}: ${JSON.stringify(s)} (into ${dist}'s files)`);
    if (s.startsWith("../") || s.startsWith("./")) {
      const target = resolve(dirname(file), s);
      if (!target.startsWith(root + sep)) out.push(`${where}: ${JSON.stringify(s)} (outside the package)`);
    }
  }
  return out;
}

/** Every layering violation of the package at `root` (its `src/`). */
export function checkLayering(pkg, root) {
  if (!(pkg in LAYERS)) throw new Error(`unknown package ${pkg}`);
  return sourceFiles(join(root, "src")).flatMap((f) => layeringViolations(pkg, root, readFileSync(f, "utf8"), f));
}

/** Relative imports of a source file that load code (type-only imports and exports left out). */
export function relativeImports(code) {
  const out = [];
  for (const m of stripComments(code).matchAll(
    new RegExp(
      String.raw`(?:^|[;\n])\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+["'](\.{1,2}\/[^"']+)["']` +
        String.raw`|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)` +
        String.raw`|^\s*import\s+["'](\.{1,2}\/[^"']+)["']`,
      "gm",
    ),
  )) {
    if (m[2]) continue;
    out.push(m[3] ?? m[4] ?? m[5]);
  }
  return out;
}

function resolveSource(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const c of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")])
    if (existsSync(c) && c.endsWith(".ts")) return c;
  return undefined;
}

/** The import circles among the package's source files, each as `a.ts -> b.ts -> a.ts`. */
export function importCycles(root) {
  const src = join(root, "src");
  const graph = new Map();
  for (const f of sourceFiles(src)) {
    graph.set(
      f,
      relativeImports(readFileSync(f, "utf8"))
        .map((s) => resolveSource(f, s))
        .filter((t) => t !== undefined),
    );
  }
  const state = new Map();
  const stack = [];
  const cycles = [];
  const visit = (u) => {
    state.set(u, 1);
    stack.push(u);
    for (const v of graph.get(u) ?? []) {
      if (!graph.has(v)) continue;
      if (state.get(v) === 1) cycles.push([...stack.slice(stack.indexOf(v)), v].map((x) => relative(src, x)).join(" -> "));
      else if (!state.get(v)) visit(v);
    }
    stack.pop();
    state.set(u, 2);
  };
  for (const f of graph.keys()) if (!state.get(f)) visit(f);
  return cycles;
}
