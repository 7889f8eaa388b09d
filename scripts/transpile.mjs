// Transpile-only build of a workspace package: every source of its tsconfig.build.json to JavaScript with
// TypeScript's `transpileModule` and that config's options, the same JavaScript `tsc -p
// tsconfig.build.json` emits (packages/cli/test/first-run.test.ts compares the two file by file), without
// type checking or declarations. scripts/example.mjs builds the README's first command with it.
//
//   node scripts/transpile.mjs [--out DIR] PACKAGE_DIR...   transpile into DIR/<package folder> (default:
//                                                           each package's own outDir, stale files only)
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writePackageVersion } from "./package-version.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** TypeScript of the workspace root (a root `dependency`, so `pnpm install --prod` has it). */
export function loadTypeScript() {
  try {
    return createRequire(join(root, "package.json"))("typescript");
  } catch {
    throw new Error("TypeScript is not installed; run `npx --yes pnpm@12.21.0 install --prod` (or a full install) first");
  }
}

const formatHost = (dir) => ({ getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" });

/**
 * Transpiles the sources of `dir`/tsconfig.build.json. With `outDir`, writes all of them there; without,
 * writes into the config's outDir only the files whose output is missing or older than the source.
 * Returns { done, total }. Throws on a config error or a syntax error (with TypeScript's diagnostics).
 */
export function transpilePackage(ts, dir, { outDir } = {}) {
  const configFile = join(dir, "tsconfig.build.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed || parsed.errors.length > 0) {
    throw new Error(`cannot read ${relative(root, configFile)}\n${ts.formatDiagnostics(parsed?.errors ?? [], formatHost(dir))}`);
  }
  // the version its signatures carry comes from package.json, as in a full build (scripts/package-version.mjs)
  if (existsSync(join(dir, "src", "version.generated.ts"))) writePackageVersion(dir);
  const target = outDir ?? parsed.options.outDir;
  const { rootDir } = parsed.options;
  if (!target || !rootDir) throw new Error(`${relative(root, configFile)} must set outDir and rootDir`);
  // Every package is "type": "module": emit ES modules. transpileModule cannot look up package.json to
  // tell NodeNext's format of a file, and with verbatimModuleSyntax the ESM output is the same.
  const compilerOptions = {
    ...parsed.options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    declaration: false,
    declarationMap: false,
    noEmit: false,
  };
  const sources = parsed.fileNames.filter((f) => !f.endsWith(".d.ts"));
  let done = 0;
  for (const file of sources) {
    const out = join(target, relative(rootDir, file)).replace(/\.([cm]?)ts$/, ".$1js");
    if (!outDir && existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
    const result = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions, fileName: file, reportDiagnostics: true });
    if (result.diagnostics?.length) {
      throw new Error(`${relative(root, file)} does not compile:\n${ts.formatDiagnostics(result.diagnostics, formatHost(root))}`);
    }
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, result.outputText);
    done += 1;
  }
  return { done, total: sources.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = at === -1 ? undefined : resolve(args[at + 1] ?? "");
  const dirs = args.filter((_, i) => at === -1 || (i !== at && i !== at + 1));
  if (dirs.length === 0 || (at !== -1 && !args[at + 1])) {
    console.error("usage: node scripts/transpile.mjs [--out DIR] PACKAGE_DIR...");
    process.exit(2);
  }
  try {
    const ts = loadTypeScript();
    for (const dir of dirs) {
      const { done, total } = transpilePackage(ts, resolve(dir), { outDir: out && join(out, basename(resolve(dir))) });
      console.log(`transpile: ${relative(root, resolve(dir)) || "."}: ${done} of ${total} files`);
    }
  } catch (error) {
    console.error(`transpile: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
