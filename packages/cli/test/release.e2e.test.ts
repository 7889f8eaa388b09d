// The release, checked end to end as a user meets it: every public package is published through the
// repository's own release script (scripts/release.mjs, which lets `pnpm -r publish` rewrite the
// `workspace:` ranges) to a local registry on loopback (verdaccio, a devDependency), and then, in empty
// folders with only that registry configured:
// - `npm i -D @evalkern/cli` and `npx evalkern score` on a JSONL file;
// - `npx evalkern --help` through the unscoped package `evalkern`;
// - `npm i @evalkern/metrics` alone and a five-line ESM script;
// - Deno with `npm:` specifiers (a deno.json beside the script so Deno reads .npmrc;
//   `--minimum-dependency-age=0`, as Deno refuses packages published less than a day ago);
// - a Vite build of a page importing core-wasm and metrics, loaded in headless Chromium, computing BLEU.
// Install sizes come from these real installs (printed, and the CLI's is held to a budget).
//
// The local registry serves @evalkern/* and evalkern from its own storage only, and proxies every other
// package to the registry npm is configured with here (`npm config get registry`).
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = resolve(CLI, "../..");
const require = createRequire(import.meta.url);
const CHROMIUM = process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium";
/** The CLI's install may grow, but not back to what pulling a test runner cost (85 MB). */
const CLI_INSTALL_BUDGET_MB = 60;

let work = "";
let registry = "";
let verdaccio: ChildProcess | undefined;
let registryLog = "";
const sizes = new Map<string, { mb: number; packages: number }>();

function du(path: string): number {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += du(join(path, entry));
  return total;
}

/** Runs a command; throws with its output when it fails. */
function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, timeout: 600_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${r.status ?? r.signal}\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** An empty project whose only registry is the local one. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ".npmrc"), `registry=${registry}\n`);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `try-${name}`, private: true, type: "module" }, null, 2));
  return dir;
}

function npmInstall(dir: string, ...packages: string[]): void {
  try {
    sh("npm", ["i", "--no-audit", "--no-fund", "--ignore-scripts", "--fetch-retries=4", ...packages], dir);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- the local registry's log (last lines)\n${registryLog.split("\n").slice(-30).join("\n")}`);
  }
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
  const installed = Object.keys(lock.packages).filter((p) => p.startsWith("node_modules/"));
  sizes.set(packages.join(" "), { mb: du(join(dir, "node_modules")) / 1e6, packages: installed.length });
}

async function waitForRegistry(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}\n${log()}`);
    try {
      const res = await fetch(`${url}-/ping`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`verdaccio did not answer on ${url} within 60 s\n${log()}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "evalkern-release-"));
  const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  const config = join(work, "verdaccio.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(work, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(work, "htpasswd"))}`,
      "    max_users: 1",
      "uplinks:",
      "  upstream:",
      `    url: ${JSON.stringify(upstream)}`,
      "    timeout: 120s",
      // a busy machine can make one upstream request slow: never mark the uplink as down for minutes
      // (verdaccio's default after 2 failures: 5 minutes of 404s for every package it proxies)
      "    max_fails: 1000",
      "    fail_timeout: 1s",
      "packages:",
      "  '@evalkern/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  'evalkern':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  // the local registry reaches the upstream one with npm's own trust: npm's `cafile` (a machine whose
  // registry sits behind its own certificate authority) becomes Node's extra CA for verdaccio
  const cafile = execFileSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).trim();
  const trust = cafile && cafile !== "null" && cafile !== "undefined" ? { NODE_EXTRA_CA_CERTS: cafile } : {};
  verdaccio = spawn(
    process.execPath,
    [join(CLI, "node_modules/verdaccio/bin/verdaccio"), "--config", config, "--listen", `127.0.0.1:${port}`],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...trust },
    },
  );
  verdaccio.stdout!.on("data", (d) => (registryLog += d));
  verdaccio.stderr!.on("data", (d) => (registryLog += d));
  await waitForRegistry(registry, verdaccio, () => registryLog);

  // a publisher account (verdaccio's htpasswd), then the repository's release script with its token
  const res = await fetch(`${registry}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-check-only" }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) throw new Error(`verdaccio gave no token (HTTP ${res.status})`);
  const npmrc = join(work, "publisher.npmrc");
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
  sh("node", [join(ROOT, "scripts/release.mjs"), "--no-checks", "--registry", registry, "--no-git-checks"], ROOT, {
    npm_config_userconfig: npmrc,
  });
}, 600_000);

afterAll(() => {
  verdaccio?.kill();
  if (sizes.size > 0) {
    console.log(
      "install sizes from the local registry (npm i in an empty folder; packages installed, the one asked for included):\n" +
        "| npm i | install size | packages |\n|---|---:|---:|\n" +
        [...sizes].map(([what, s]) => `| \`${what}\` | ${s.mb.toFixed(1)} MB | ${s.packages} |`).join("\n"),
    );
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("release: published to a local registry, installed as a user installs", () => {
  it("the registry has every public package at the workspace's version, with workspace: ranges rewritten", () => {
    for (const dir of readdirSync(join(ROOT, "packages"))) {
      const manifest = JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8")) as {
        name: string;
        version: string;
        private?: boolean;
      };
      if (manifest.private) continue;
      const doc = JSON.parse(sh("npm", ["view", `${manifest.name}@${manifest.version}`, "--json", "--registry", registry], work)) as {
        version: string;
        dependencies?: Record<string, string>;
      };
      expect(doc.version, manifest.name).toBe(manifest.version);
      for (const [dep, range] of Object.entries(doc.dependencies ?? {}))
        expect(range, `${manifest.name} → ${dep}`).not.toMatch(/^workspace:/);
    }
  });

  it("npm i -D @evalkern/cli, then npx evalkern score: the same output as the workspace's CLI, and no test runner installed", () => {
    const dir = project("cli");
    npmInstall(dir, "-D", "@evalkern/cli");
    copyFileSync(join(ROOT, "examples/pairs.jsonl"), join(dir, "pairs.jsonl"));
    sh("npx", ["evalkern", "score", "pairs.jsonl", "--metric", "bleu", "--metric", "chrf", "-o", "out.jsonl", "--no-ci"], dir);
    sh(
      "node",
      [join(CLI, "dist/bin.js"), "score", "pairs.jsonl", "--metric", "bleu", "--metric", "chrf", "-o", "workspace.jsonl", "--no-ci"],
      dir,
    );
    expect(readFileSync(join(dir, "out.jsonl"), "utf8")).toBe(readFileSync(join(dir, "workspace.jsonl"), "utf8"));
    for (const runner of ["vitest", "vite", "rolldown", "@vitest/runner"])
      expect(existsSync(join(dir, "node_modules", runner)), runner).toBe(false);
    const { mb } = sizes.get("-D @evalkern/cli")!;
    expect(mb).toBeLessThan(CLI_INSTALL_BUDGET_MB);
  });

  it("npx evalkern --help through the unscoped package", () => {
    const dir = project("unscoped");
    npmInstall(dir, "evalkern");
    const help = sh("npx", ["evalkern", "--help"], dir);
    expect(help).toMatch(/Usage: evalkern/);
    expect(help).toMatch(/score/);
  });

  it("npm i @evalkern/metrics alone, and a five-line ESM script", () => {
    const dir = project("metrics");
    npmInstall(dir, "@evalkern/metrics");
    writeFileSync(
      join(dir, "try.mjs"),
      [
        'import { ready, sentenceBleu } from "@evalkern/core-wasm";',
        "await ready();",
        'const { score } = sentenceBleu("The cat sat on the mat.", ["The cat is on the mat."]);',
        "console.log(JSON.stringify({ score }));",
        "",
      ].join("\n"),
    );
    const { score } = JSON.parse(sh("node", ["try.mjs"], dir)) as { score: number };
    // 13a tokens: 6/7 unigrams, 4/6 bigrams, 2/5 trigrams, 1/4 four-grams match; equal lengths, so BP = 1
    expect(score).toBeCloseTo(100 * Math.pow((6 / 7) * (4 / 6) * (2 / 5) * (1 / 4), 1 / 4), 10);
  });

  it("Deno with npm: specifiers from the registry", () => {
    const dir = project("deno");
    writeFileSync(join(dir, "deno.json"), JSON.stringify({ nodeModulesDir: "none" }));
    writeFileSync(
      join(dir, "try.ts"),
      [
        'import { ready, sentenceBleu } from "npm:@evalkern/core-wasm";',
        'import { F1 } from "npm:@evalkern/metrics/dspy";',
        "await ready();",
        'console.log(JSON.stringify({ bleu: sentenceBleu("The cat sat on the mat.", ["The cat is on the mat."]).score, f1: ' +
          'F1("Paris", ["Paris, France"]) }));',
        "",
      ].join("\n"),
    );
    const deno = (require("deno-cli/install_api.cjs") as { runInstall(): string }).runInstall();
    const cache = join(work, "deno-cache");
    const out = sh(deno, ["run", "-A", "--minimum-dependency-age=0", "try.ts"], dir, { DENO_DIR: cache, NO_COLOR: "1" });
    // Deno read .npmrc: its npm cache is keyed by the local registry (named by its port), and holds nothing else
    expect(readdirSync(join(cache, "npm")).join(" ")).toMatch(new RegExp(`(^|\\D)${new URL(registry).port}$`));
    const { bleu, f1 } = JSON.parse(out.trim().split("\n").pop()!) as { bleu: number; f1: number };
    expect(bleu).toBeCloseTo(100 * Math.pow((6 / 7) * (4 / 6) * (2 / 5) * (1 / 4), 1 / 4), 10);
    // DSPy F1 (max over references): "paris" vs "paris france" → precision 1, recall 1/2 → 2/3
    expect(f1).toBeCloseTo(2 / 3, 12);
  });

  it("each library package installs alone (the README's install table)", () => {
    for (const name of ["@evalkern/core-wasm", "@evalkern/judge", "@evalkern/harness", "@evalkern/vitest"]) {
      const dir = project(name.replace(/\W+/g, "-"));
      npmInstall(dir, name);
      expect(existsSync(join(dir, "node_modules", name, "package.json")), name).toBe(true);
    }
    // vitest is a required peer of @evalkern/vitest, so npm installs it; nothing else pulls a test runner
    expect(sizes.get("@evalkern/vitest")!.mb).toBeGreaterThan(sizes.get("@evalkern/core-wasm")!.mb);
  });

  it("a Vite build of a page importing core-wasm and metrics computes BLEU in headless Chromium", async () => {
    if (!existsSync(CHROMIUM)) execFileSync("bash", [join(ROOT, "scripts/ensure-chromium.sh")], { stdio: "inherit" });
    const dir = project("vite");
    npmInstall(dir, "@evalkern/core-wasm", "@evalkern/metrics");
    writeFileSync(
      join(dir, "index.html"),
      '<!doctype html><html><body><pre id="out">…</pre><script type="module" src="./main.js"></script></body></html>\n',
    );
    writeFileSync(
      join(dir, "main.js"),
      [
        'import { ready, sentenceBleu } from "@evalkern/core-wasm";',
        'import { F1 } from "@evalkern/metrics/dspy";',
        "await ready();",
        'const bleu = sentenceBleu("The cat sat on the mat.", ["The cat is on the mat."]).score;',
        'document.getElementById("out").textContent = JSON.stringify({ bleu, f1: F1("Paris", ["Paris, France"]) });',
        "",
      ].join("\n"),
    );
    sh(process.execPath, [join(CLI, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], dir);
    const server = await serve(join(dir, "dist"));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => document.getElementById("out")?.textContent?.startsWith("{"), undefined, { timeout: 60_000 });
      const { bleu, f1 } = JSON.parse((await page.textContent("#out"))!) as { bleu: number; f1: number };
      expect(errors).toEqual([]);
      expect(bleu).toBeCloseTo(100 * Math.pow((6 / 7) * (4 / 6) * (2 / 5) * (1 / 4), 1 / 4), 10);
      expect(f1).toBeCloseTo(2 / 3, 12);
    } finally {
      await browser.close();
      await new Promise((r) => server.close(r));
    }
  });
});

const MIME: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/** A static file server on loopback for the built page. */
async function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent((req.url ?? "/").split("?")[0]!).replace(/\/$/, "/index.html"));
    if (!path.startsWith(root) || !existsSync(path) || lstatSync(path).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": MIME[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}
