// Build: AssemblyScript -> build/evalkern.wasm (release, -O3, shrinkLevel 0 so Math.log/Math.exp stay
// the table-based musl/ARM versions that reproduce glibc's BLEU values) and build/evalkern.debug.wasm
// (asserts on), then inline the release bytes as base64 into src/wasm.generated.ts, then tsc -> dist/.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
// The compiler version that goes into the source hash is the exact pin of package.json, so checking
// whether the committed module is up to date needs no AssemblyScript installed (the example's
// `pnpm install --prod` leaves it out); compiling checks that the installed compiler is that version.
const ascVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies?.assemblyscript;
if (!/^\d+\.\d+\.\d+$/.test(ascVersion ?? "")) {
  console.error(`evalkern.wasm: package.json must pin assemblyscript to one exact version (found ${JSON.stringify(ascVersion)})`);
  process.exit(1);
}
/** The path of asc.js of the installed AssemblyScript, which must be the pinned version. */
function ascCli() {
  let pkgJson;
  try {
    pkgJson = require.resolve("assemblyscript/package.json");
  } catch {
    console.error(
      "evalkern.wasm: compiling assembly/ needs AssemblyScript, which is not installed (`pnpm install --prod` " +
        "leaves it out; a build compiles only when assembly/ changed since src/wasm.generated.ts or with --force/--verify). " +
        "Run `npx --yes pnpm@12.21.0 install`, then build again.",
    );
    process.exit(1);
  }
  const installed = JSON.parse(readFileSync(pkgJson, "utf8")).version;
  if (installed !== ascVersion) {
    console.error(
      `evalkern.wasm: AssemblyScript ${installed} is installed, package.json pins ${ascVersion}: run \`npx --yes pnpm@12.21.0 install\``,
    );
    process.exit(1);
  }
  return join(dirname(pkgJson), "bin", "asc.js");
}

// The built module is committed (src/wasm.generated.ts, with the hash of everything it was built from), so
// a fresh clone skips the AssemblyScript compile (most of a first build) while the sources are unchanged.
// `--force` always compiles; `--verify` compiles into build/ and fails unless the bytes equal the committed
// ones (CI runs it, so the committed module is always the one the sources give). `--check` only says
// whether the committed module is up to date (exit 0) or must be rebuilt (exit 1): no compiler, no tsc.
const force = process.argv.includes("--force") || process.argv.includes("--verify");
const verify = process.argv.includes("--verify");
const common = ["assembly/index.ts", "--runtime", "stub", "--initialMemory", "2", "--enable", "simd"];
const releaseFlags = ["-O3", "--shrinkLevel", "0", "--noAssert", "--converge"];
const flags = releaseFlags.join(" ");

/** sha256 over the compiler version (the pin of package.json), its flags, this script and every file of assembly/, in name order. */
function sourceHash() {
  const h = createHash("sha256").update(`asc ${ascVersion}\0${common.join(" ")}\0${flags}\0`);
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  const files = readdirSync(join(root, "assembly"))
    .filter((f) => f.endsWith(".ts") || f.endsWith(".json"))
    .sort();
  for (const f of files) h.update(`\0${f}\0`).update(readFileSync(join(root, "assembly", f)));
  return h.digest("hex");
}
const generated = join(root, "src/wasm.generated.ts");
const committedSource = existsSync(generated) ? /WASM_SOURCE_SHA256 = "([0-9a-f]+)"/.exec(readFileSync(generated, "utf8"))?.[1] : undefined;
const committedSha = existsSync(generated) ? /WASM_SHA256 = "([0-9a-f]+)"/.exec(readFileSync(generated, "utf8"))?.[1] : undefined;
const source = sourceHash();
const upToDate = !force && committedSource === source && existsSync(join(root, "src/wasm-debug.generated.ts"));
if (process.argv.includes("--check")) {
  console.log(
    upToDate
      ? `evalkern.wasm: up to date with assembly/ (source ${source.slice(0, 12)})`
      : `evalkern.wasm: stale: committed source ${committedSource?.slice(0, 12)}, assembly/ is ${source.slice(0, 12)}`,
  );
  process.exit(upToDate ? 0 : 1);
}

if (upToDate) {
  console.log(`evalkern.wasm: up to date with assembly/ (source ${source.slice(0, 12)}); not recompiled (--force to rebuild)`);
} else {
  mkdirSync(join(root, "build"), { recursive: true });
  const asc = ascCli();
  const run = (args) => execFileSync(process.execPath, [asc, ...args], { cwd: root, stdio: "inherit" });
  console.log("evalkern.wasm: compiling assembly/ with AssemblyScript (-O3 --converge, about a minute)…");
  run([...common, ...releaseFlags, "--outFile", "build/evalkern.wasm", "--textFile", "build/evalkern.wat"]);
  run([...common, "--debug", "--outFile", "build/evalkern.debug.wasm"]);
  const wasm = readFileSync(join(root, "build/evalkern.wasm"));
  const sha = createHash("sha256").update(wasm).digest("hex");
  if (verify) {
    if (committedSource !== source || committedSha !== sha) {
      console.error(
        `evalkern.wasm: the committed module is stale: committed source ${committedSource?.slice(0, 12)} ` +
          `/ bytes ${committedSha?.slice(0, 12)}, ` +
          `rebuilt source ${source.slice(0, 12)} / bytes ${sha.slice(0, 12)}. ` +
          `Run \`node scripts/build.mjs --force\` and commit src/*.generated.ts.`,
      );
      process.exit(1);
    }
    console.log(`evalkern.wasm: the committed module is what assembly/ builds (sha256 ${sha.slice(0, 12)})`);
    process.exit(0);
  }
  const banner = "// Generated by scripts/build.mjs from assembly/ — do not edit.\n";
  writeFileSync(
    generated,
    banner +
      `export const WASM_BASE64 =\n  ${JSON.stringify(wasm.toString("base64"))};\n` +
      `export const WASM_SHA256 = ${JSON.stringify(sha)};\n` +
      `export const WASM_SOURCE_SHA256 = ${JSON.stringify(source)};\n` +
      `export const WASM_BYTES = ${wasm.length};\n` +
      `export const ASC_VERSION = ${JSON.stringify(ascVersion)};\n` +
      `export const ASC_FLAGS = ${JSON.stringify(flags)};\n`,
  );
  const debug = readFileSync(join(root, "build/evalkern.debug.wasm"));
  writeFileSync(
    join(root, "src/wasm-debug.generated.ts"),
    banner + `export const WASM_DEBUG_BASE64 =\n  ${JSON.stringify(debug.toString("base64"))};\n`,
  );
}

if (!process.argv.includes("--wasm-only")) {
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
const wasm = Buffer.from(/WASM_BASE64 =\n {2}"([^"]+)"/.exec(readFileSync(generated, "utf8"))[1], "base64");
const gz = gzipSync(wasm, { level: 9 }).length;
console.log(
  `evalkern.wasm: ${wasm.length} bytes raw, ${gz} bytes gzip (sha256 ${createHash("sha256").update(wasm).digest("hex").slice(0, 12)})`,
);
