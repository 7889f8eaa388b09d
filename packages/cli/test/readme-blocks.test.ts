// Every code block of every README of the workspace runs as written (the rule is in
// test/support/readme-blocks.ts and in the root README, "Code blocks in READMEs"):
// - js/ts blocks run as ES modules (ts with its types stripped by typescript's transpileModule) in a
//   fresh directory whose node_modules resolve `@evalkern/*` to the workspace packages (their dist/);
//   a block that imports "vitest" runs as a vitest test file;
// - sh blocks run with bash, `evalkern` being the workspace's CLI;
// - each block's directory holds the repository's `examples/` (the bundled data files), so a block can
//   read `examples/pairs.jsonl`;
// - every request a block sends to an OpenAI-compatible server on its well-known local or OpenAI URL
//   (http://localhost:8000, :8080, :11434, https://api.openai.com) is redirected (a preloaded `fetch`
//   wrapper) to a scripted loopback server: the examples of packages/judge's READMEs get the replies
//   their own tests script (packages/judge/test/support/readme-scripts.ts), every other call a reply
//   built from the JSON schema the judge asks for.
// - the blocks of one README run in order in one directory, as a reader follows it: a later block may
//   read what an earlier one wrote (filter with `-t "packages/cli/README.md"`, a whole README, not one block).
// Each test is named by file and line; skipped blocks carry their reason and are listed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEEPEVAL_README_SCRIPTS,
  README_SCRIPTS,
  readmeEmbeddings,
  readmeModeration,
  type Script,
} from "../../judge/test/support/readme-scripts.js";
import {
  chatJson,
  chatText,
  completion,
  jsonReply,
  startServer,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedServer,
} from "../../judge/test/support/server.js";
import { DATA_LANGUAGES, readmeBlocks, readmeFiles, RUN_LANGUAGES, type ReadmeBlock } from "./support/readme-blocks.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const BLOCK_TIMEOUT_MS = 180_000;

/** Scripted replies by README file, then by the example's heading. */
const SCRIPTS: Record<string, Record<string, Script>> = {
  "packages/judge/README.md": README_SCRIPTS,
  "packages/judge/README-deepeval.md": DEEPEVAL_README_SCRIPTS,
};

const files = readmeFiles(ROOT);
const blocks = files.flatMap((file) => readmeBlocks(ROOT, file));
const where = (b: ReadmeBlock) => `${b.file}:${b.line}`;

// ---------------------------------------------------------------------------------------------------
// The stand-in model: scripted queues for the judge READMEs, schema-shaped replies otherwise
// ---------------------------------------------------------------------------------------------------

/** A value that satisfies a JSON schema: the first enum value, the largest allowed number, one array item. */
function sampleOf(schema: any, defs: Record<string, unknown> = {}): unknown {
  if (!schema || typeof schema !== "object") return "ok";
  if (schema.$ref) return sampleOf(defs[String(schema.$ref).split("/").pop() ?? ""], defs);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key])) return sampleOf(schema[key].find((s: any) => s?.type !== "null") ?? schema[key][0], defs);
  }
  if (Array.isArray(schema.allOf)) return sampleOf(schema.allOf[0], defs);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sampleOf(v, defs);
      return out;
    }
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sampleOf(schema.items, defs));
    case "number":
    case "integer":
      return schema.maximum ?? (schema.minimum !== undefined ? schema.minimum : 1);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "ok";
  }
}

let current: { block: ReadmeBlock; queues: Map<string, unknown[]> } | undefined;

function answer(request: RecordedRequest): ScriptedReply {
  const body = request.body ?? {};
  const name: string | undefined = body.response_format?.json_schema?.name;
  const queue = name === undefined ? undefined : current?.queues.get(name);
  if (queue && queue.length > 0) {
    const next = queue.shift();
    return typeof next === "function" ? (next as (r: RecordedRequest) => ScriptedReply)(request) : chatJson(next);
  }
  const schema = body.response_format?.json_schema?.schema;
  if (schema) return chatJson(sampleOf(schema, schema.$defs ?? schema.definitions ?? {}));
  if (body.response_format?.type === "json_object") return chatJson({});
  return chatText("Paris");
}

function complete(request: RecordedRequest): ScriptedReply {
  const prompt = String(request.body?.prompt ?? "");
  if (!request.body?.echo) return completion({ tokens: [{ token: " Paris", logprob: -0.5 }] });
  const pieces = prompt.split(/(?=\s)/).filter((p) => p !== "");
  return completion({ tokens: pieces.map((token, i) => ({ token, logprob: i === 0 ? null : -1 })) });
}

// ---------------------------------------------------------------------------------------------------
// The directory blocks run in
// ---------------------------------------------------------------------------------------------------

let server: ScriptedServer;
let work: string;

function link(target: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, "dir");
}

/** The directory of a package a workspace package depends on (e.g. zod through @evalkern/judge). */
function dependencyDir(pkg: string, from: string): string {
  const req = createRequire(join(ROOT, "packages", from, "package.json"));
  return dirname(realpathSync(req.resolve(`${pkg}/package.json`)));
}

beforeAll(async () => {
  server = await startServer({ model: "readme-model" });
  server.handle("chat", answer);
  server.handle("completions", complete);
  server.handle("embeddings", readmeEmbeddings);
  server.handle("moderations", readmeModeration);
  server.handle("models", () => jsonReply({ object: "list", data: [{ id: "readme-model", object: "model" }] }));
  work = mkdtempSync(join(tmpdir(), "evalkern-readme-"));
  const modules = join(work, "node_modules");
  // every workspace package under its published name (they resolve their own dependencies from their folders)
  for (const dir of readdirSync(join(ROOT, "packages"))) {
    const manifest = join(ROOT, "packages", dir, "package.json");
    if (!existsSync(manifest)) continue;
    const name: string = JSON.parse(readFileSync(manifest, "utf8")).name;
    link(join(ROOT, "packages", dir), join(modules, ...name.split("/")));
  }
  // third-party packages the examples import themselves
  link(dependencyDir("zod", "judge"), join(modules, "zod"));
  // the AI SDK (an optional peer of @evalkern/judge) for the example judging with its mock model
  link(dependencyDir("ai", "judge"), join(modules, "ai"));
  link(dependencyDir("vitest", "cli"), join(modules, "vitest"));
  // the redirect of well-known model URLs to the loopback server, preloaded into every node process
  writeFileSync(
    join(work, "redirect.mjs"),
    `const target = ${JSON.stringify(server.url)};
const hosts = /^(https?:\\/\\/(localhost|127\\.0\\.0\\.1):(8000|8080|11434)|https:\\/\\/api\\.openai\\.com)(?=\\/|$)/;
const original = globalThis.fetch;
globalThis.fetch = function readmeTestFetch(input, init) {
  if (typeof input === "string" || input instanceof URL) {
    const url = String(input);
    if (hosts.test(url)) return original(url.replace(hosts, target), init);
  } else if (input && typeof input.url === "string" && hosts.test(input.url)) {
    return original(new Request(input.url.replace(hosts, target), input), init);
  }
  return original(input, init);
};
`,
  );
  // `evalkern` on PATH is the workspace's CLI
  mkdirSync(join(work, "bin"));
  writeFileSync(join(work, "bin", "evalkern"), `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, "packages/cli/dist/bin.js"))} "$@"\n`, {
    mode: 0o755,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(EVALKERN_|OPENAI_|NODE_OPTIONS$|VITEST|TEST$|FORCE_COLOR$)/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, {
    NODE_OPTIONS: `--import=${pathToFileURL(join(work, "redirect.mjs")).href}`,
    OPENAI_API_KEY: "sk-readme-test",
    EVALKERN_JUDGE_API_KEY: "sk-readme-test",
    NO_COLOR: "1",
    PATH: `${join(work, "bin")}:${process.env.PATH ?? ""}`,
  });
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), BLOCK_TIMEOUT_MS - 5_000);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

/** One directory per README: its blocks run in order, as a reader follows it (a later block may read a file an earlier one wrote). */
function blockDir(block: ReadmeBlock): string {
  const dir = join(work, "readmes", block.file.replace(/[^\w.-]+/g, "_"));
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    link(join(ROOT, "examples"), join(dir, "examples"));
    link(join(ROOT, "packages"), join(dir, "packages"));
  }
  return dir;
}

async function runBlock(block: ReadmeBlock): Promise<void> {
  const kind = RUN_LANGUAGES[block.language];
  const dir = blockDir(block);
  const script = SCRIPTS[block.file]?.[block.heading];
  current = { block, queues: new Map(Object.entries(script ?? {}).map(([name, replies]) => [name, [...replies]])) };
  let result;
  if (kind === "sh") {
    writeFileSync(join(dir, `block-L${block.line}.sh`), `shopt -s expand_aliases\nset -eo pipefail\n${block.code}`);
    result = await run("bash", [`block-L${block.line}.sh`], dir);
  } else {
    const code =
      kind === "ts"
        ? ts.transpileModule(block.code, {
            compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
          }).outputText
        : block.code;
    if (/from\s+["']vitest["']/.test(block.code)) {
      const file = `block-L${block.line}.test.mjs`;
      writeFileSync(join(dir, file), code);
      writeFileSync(join(dir, "vitest.config.mjs"), "export default { test: { include: ['block-*.test.mjs'] } };\n");
      const vitest = join(dependencyDir("vitest", "cli"), "vitest.mjs");
      result = await run(process.execPath, [vitest, "run", file, "--root", dir, "--config", join(dir, "vitest.config.mjs")], dir);
    } else {
      writeFileSync(join(dir, `block-L${block.line}.mjs`), code);
      result = await run(process.execPath, [`block-L${block.line}.mjs`], dir);
    }
  }
  const left = [...current.queues].filter(([, queue]) => queue.length > 0).map(([name]) => name);
  current = undefined;
  if (result.code !== 0) {
    const tail = (s: string) => s.split("\n").slice(-40).join("\n");
    throw new Error(
      `${where(block)} (${block.language}, under "${block.heading}") exited with ${result.code ?? result.signal}\n` +
        `--- stderr\n${tail(result.stderr)}\n--- stdout\n${tail(result.stdout)}`,
    );
  }
  expect(left, `${where(block)}: scripted judge replies left unused`).toEqual([]);
}

describe("README code blocks", () => {
  it("finds the READMEs and their blocks", () => {
    expect(files).toContain("README.md");
    expect(files.filter((f) => f.startsWith("packages/")).length).toBeGreaterThan(5);
    expect(blocks.length).toBeGreaterThan(20);
  });

  it("every block names its language; data blocks parse", () => {
    const unnamed = blocks.filter((b) => b.language === "").map(where);
    expect(unnamed, "blocks without a language (write ```text for output samples)").toEqual([]);
    const unknown = blocks.filter((b) => b.language !== "" && !(b.language in RUN_LANGUAGES) && !DATA_LANGUAGES.has(b.language));
    expect(unknown.map((b) => `${where(b)} ${b.language}`)).toEqual([]);
    for (const b of blocks.filter((x) => x.language === "json")) {
      expect(() => JSON.parse(b.code), `${where(b)} is not JSON`).not.toThrow();
    }
    const stray = blocks.filter((b) => b.skip !== undefined && !(b.language in RUN_LANGUAGES));
    expect(stray.map(where), "skip markers belong only before blocks that would run").toEqual([]);
  });

  it("lists the blocks it skips, each with a reason", () => {
    const skipped = blocks.filter((b) => b.skip !== undefined);
    console.log(
      `README blocks: ${blocks.filter((b) => b.language in RUN_LANGUAGES && !b.skip).length} run, ${skipped.length} skipped, ` +
        `${blocks.filter((b) => !(b.language in RUN_LANGUAGES)).length} output/data\n` +
        skipped.map((b) => `  skipped ${where(b)} (${b.language}): ${b.skip}`).join("\n"),
    );
    for (const b of skipped) expect(b.skip!.length, `${where(b)}: a skip needs a reason`).toBeGreaterThan(3);
  });

  for (const block of blocks.filter((b) => b.language in RUN_LANGUAGES)) {
    const name = `${where(block)} (${block.language})`;
    if (block.skip !== undefined) it.skip(`${name} — skipped: ${block.skip}`, () => undefined);
    else it(name, () => runBlock(block), BLOCK_TIMEOUT_MS);
  }

  // A reader runs these blocks in a checkout, from its root: what they write must be ignored by git, or the
  // next `pnpm publish` stops with ERR_PNPM_GIT_UNCLEAN. Runs after the blocks (vitest keeps file order).
  it("everything the blocks write, written at the repository root, is ignored by git", () => {
    const written: string[] = [];
    const walk = (base: string, rel: string): void => {
      for (const entry of readdirSync(join(base, rel), { withFileTypes: true })) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (rel === "" && (entry.name === "examples" || entry.name === "packages" || entry.name === "vitest.config.mjs")) continue;
        if (rel === "" && /^block-L\d+\./.test(entry.name)) continue; // the test's own copies of the blocks
        if (entry.isDirectory()) walk(base, path);
        else written.push(path);
      }
    };
    const readmes = join(work, "readmes");
    if (existsSync(readmes)) for (const dir of readdirSync(readmes)) walk(join(readmes, dir), "");
    const paths = [...new Set(written)].sort();
    expect(paths.length, "the blocks wrote no file at all: the walk is broken").toBeGreaterThan(0);
    const check = spawnSync("git", ["check-ignore", "--no-index", "--stdin"], { cwd: ROOT, input: paths.join("\n"), encoding: "utf8" });
    const ignored = new Set(check.stdout.split("\n").filter((l) => l !== ""));
    expect(
      paths.filter((p) => !ignored.has(p)),
      "files the README blocks write that git would see as untracked",
    ).toEqual([]);
  });
});
