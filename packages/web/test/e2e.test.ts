// The built app in real Chromium (Debian's /usr/bin/chromium, driven by playwright-core), served by the
// app's own static server on loopback: upload the bundled example, choose metrics and options, score,
// and compare every corpus score, every CI and every scored row with the harness's scoreFile (what
// `evalkern score` runs) on the same file — identical numbers, byte-identical scored JSONL. Also: a bad
// file names its line, `?src=` scores on open, a baseline gives the paired comparison, pasted CSV, and
// scoring works with the network off once the page is loaded, and choosing another file (even an unreadable
// one, even mid-run) takes the previous run's results off the page. A screenshot is kept as an artefact.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rowLayout, scoreFile, sliceScores, type MetricSpec, type ScoreSummary } from "@evalkern/harness";
import { collectReportData, renderReport, type OutputRow, type RunMetric } from "@evalkern/harness/report";
import { findMetric } from "@evalkern/metrics/registry";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { startServer } from "../scripts/serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const example = resolve(pkg, "../../examples/pairs.jsonl");
const chromiumPath = process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium";
const artefacts = join(pkg, ".test-results");

/** The metrics and options the test ticks in the page (in the registry's order, the page's), as `evalkern score --metric` writes them. */
const CHOSEN: { name: string; options: Record<string, unknown>; ui: Record<string, string> }[] = [
  { name: "bleu", options: { tokenize: "intl" }, ui: { tokenize: "intl" } },
  { name: "chrf", options: {}, ui: {} },
  { name: "chrf++", options: {}, ui: {} },
  { name: "ter", options: { caseSensitive: true }, ui: { caseSensitive: "true" } },
  { name: "rouge", options: { useStemmer: true }, ui: { useStemmer: "true" } },
  { name: "f1", options: {}, ui: {} },
  { name: "em", options: {}, ui: {} },
  { name: "levenshtein", options: {}, ui: {} },
  { name: "byob-f1", options: {}, ui: {} },
];

/** The harness spec `evalkern score` builds for a `--metric` (registry spec + its headline column). */
function cliSpec(name: string, options: Record<string, unknown>): MetricSpec {
  const def = findMetric(name)!;
  const spec = def.spec(options, def.name) as MetricSpec;
  return def.headline && typeof spec === "object" ? ({ ...spec, headline: def.headline } as MetricSpec) : spec;
}

let dir: string;
let server: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(pkg, "dist/index.html"))) throw new Error("build the app first: pnpm --filter @evalkern/web run build");
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: run scripts/ensure-chromium.sh (or set EVALKERN_CHROMIUM)`);
  dir = mkdtempSync(join(tmpdir(), "evalkern-web-"));
  mkdirSync(artefacts, { recursive: true });
  copyFileSync(example, join(dir, "pairs.jsonl"));
  server = await startServer({ root: join(pkg, "dist"), mounts: { "/data/": dir } });
  browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openPage(query = "", context?: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const ctx = context ?? (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true }));
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}${query}`);
  return { page, errors };
}

async function waitState(page: Page, states: string[]): Promise<string> {
  await page.waitForFunction((s) => s.includes(document.body.dataset.state ?? ""), states, { timeout: 150_000 });
  return page.evaluate(() => document.body.dataset.state!);
}

async function chooseMetrics(page: Page): Promise<void> {
  for (const box of await page.$$("input[name=metric]:checked")) await box.uncheck();
  for (const m of CHOSEN) {
    await page.check(`input[name=metric][value="${m.name}"]`);
    for (const [key, value] of Object.entries(m.ui)) {
      const sel = `.metric[data-metric="${m.name}"] [data-option="${key}"]`;
      const tag = await page.$eval(sel, (el) => el.tagName);
      if (tag === "SELECT") await page.selectOption(sel, value);
      else await page.fill(sel, value);
    }
  }
}

async function reference(input: string, out: string, metrics: MetricSpec[]): Promise<ScoreSummary> {
  return scoreFile({
    input,
    output: out,
    outputRows: "rows",
    outputFormat: "jsonl",
    metrics,
    fields: { hypothesis: "hyp", references: ["refs"], id: "id" },
    bootstrap: { resamples: 1000, seed: 12345 },
    keepStatistics: true,
  });
}

type PageResult = {
  rows: { records: number; scored: number; bad: number };
  metrics: Record<
    string,
    {
      score: number;
      ci: unknown;
      scores: Record<string, number>;
      cis: Record<string, { lower: number; upper: number; ci: number }>;
      signature: string;
    }
  >;
};

/** The report `evalkern report` writes for a scoreFile run (its manifest built as `evalkern score` builds it). */
async function cliReport(summary: ScoreSummary, output: string): Promise<string> {
  const metrics: RunMetric[] = summary.metricSpecs.map((spec) => {
    const def = findMetric(spec.name) ?? findMetric(spec.metric)!;
    const s = summary.metrics[spec.name]!;
    const { headline, columns } = rowLayout(spec);
    return {
      name: spec.name,
      metric: def.name,
      options: {},
      scale: def.scale,
      columns: columns.map((c) => ({ column: c.column, key: c.key })),
      headline,
      higherIsBetter: def.higherIsBetter,
      signature: s.signature,
      corpus: { ...s.scores },
      ci: Object.fromEntries(Object.entries(s.ci!).map(([k, v]) => [k, { lower: v.lower, upper: v.upper, ci: v.ci }])),
    };
  });
  async function* rows(): AsyncGenerator<OutputRow> {
    let line = 0;
    for (const text of readFileSync(output, "utf8").split("\n")) {
      line++;
      if (text.trim() === "") continue;
      const v = JSON.parse(text) as unknown;
      yield { line, row: typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null };
    }
  }
  const data = await collectReportData({
    manifest: {
      kind: "score",
      tool: "evalkern",
      createdAt: "-",
      input: "-",
      output: "-",
      outputFormat: "jsonl",
      fields: summary.fields,
      metrics,
      rows: summary.rows,
    },
    rows,
    sliceScores: (slices, opts) => sliceScores(summary, slices, opts),
  });
  return renderReport(data);
}

/** A report without its run-specific header (paths, time, tool). */
function reportBody(html: string): string {
  return html
    .replace(/<div class="meta">.*<\/div>\n/, "")
    .replace(/<meta name="generator"[^>]*>/, "")
    .replace(/Generated by [^·]*·/, "");
}

function expectSame(result: PageResult, summary: ScoreSummary): void {
  expect(result.rows).toEqual({ records: summary.rows.records, scored: summary.rows.scored, bad: summary.rows.bad });
  expect(Object.keys(result.metrics)).toEqual(Object.keys(summary.metrics));
  for (const [name, m] of Object.entries(summary.metrics)) {
    expect(result.metrics[name]!.scores, name).toEqual(m.scores); // exact: toEqual on numbers is Object.is
    const ci = Object.fromEntries(Object.entries(m.ci!).map(([k, v]) => [k, { lower: v.lower, upper: v.upper, ci: v.ci }]));
    expect(result.metrics[name]!.cis, name).toEqual(ci);
    expect(result.metrics[name]!.signature, name).toBe(m.signature);
  }
}

describe("the web app in Chromium", () => {
  it("scores the uploaded example like evalkern score: every corpus score, CI and row identical", async () => {
    const { page, errors } = await openPage();
    await page.setInputFiles("#file", example);
    await waitState(page, ["ready"]);
    // the fields are shown and guessed
    expect(await page.$eval("#map-hyp", (s) => (s as HTMLSelectElement).value)).toBe("hyp");
    expect(await page.$$eval("#map-refs input:checked", (l) => l.map((c) => (c as HTMLInputElement).value))).toEqual(["refs"]);
    expect(await page.$eval("#map-id", (s) => (s as HTMLSelectElement).value)).toBe("id");
    expect(await page.textContent("#fields-table")).toContain("lang");
    await chooseMetrics(page);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const result = (await page.evaluate(() => window.evalkernResult)) as unknown as PageResult;

    const summary = await reference(
      example,
      join(dir, "ref.scored.jsonl"),
      CHOSEN.map((m) => cliSpec(m.name, m.options)),
    );
    expectSame(result, summary);

    // every row: the downloaded scored JSONL is byte-identical to scoreFile's rows output
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-jsonl")]);
    expect(download.suggestedFilename()).toBe("pairs.scored.jsonl");
    const got = readFileSync((await download.path())!, "utf8");
    const want = readFileSync(join(dir, "ref.scored.jsonl"), "utf8");
    expect(got.split("\n").length).toBe(301);
    expect(got).toBe(want);
    expect(await page.evaluate(() => window.evalkernScored!.text())).toBe(want);

    // the report: the shared renderer's sections, in the page and as a download
    const [rep] = await Promise.all([page.waitForEvent("download"), page.click("#download-report")]);
    const html = readFileSync((await rep.path())!, "utf8");
    for (const s of ['id="distributions"', 'id="slices"', 'id="worst"', 'id="signatures"', "by <code>lang</code>", "95% CI"])
      expect(html).toContain(s);
    // the same report as `evalkern report` on the CLI's run of the same file, but for its header
    expect(reportBody(html)).toBe(reportBody(await cliReport(summary, join(dir, "ref.scored.jsonl"))));
    expect(await page.frameLocator("#report").locator("h2#worst").count()).toBe(1);

    await page.screenshot({ path: join(artefacts, "web-e2e.png"), fullPage: false });
    await page.evaluate(() => document.getElementById("run-card")!.scrollIntoView());
    await page.screenshot({ path: join(artefacts, "web-e2e-report.png") });
    if (process.env.EVALKERN_UPDATE_SCREENSHOT) copyFileSync(join(artefacts, "web-e2e-report.png"), join(pkg, "docs/screenshot.png"));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a bad file gives a clear message naming the line; its bad rows are reported with their lines", async () => {
    const lines = readFileSync(example, "utf8").trim().split("\n").slice(0, 5);
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${lines[0]}\n{"hyp": "broken", "refs": [\n${lines.slice(1).join("\n")}\n`);
    const { page } = await openPage();
    await page.setInputFiles("#file", bad);
    await waitState(page, ["ready"]);
    expect(await page.textContent("#message")).toMatch(/bad\.jsonl, line 2: invalid JSON/);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    expect(await page.textContent("#bad-rows")).toMatch(/1 of 6 rows could not be scored[\s\S]*line 2: invalid_json/);
    expect(((await page.evaluate(() => window.evalkernResult)) as unknown as PageResult).rows).toEqual({ records: 6, scored: 5, bad: 1 });

    const none = join(dir, "none.jsonl");
    writeFileSync(none, "not json\nnor this\n");
    await page.setInputFiles("#file", none);
    await waitState(page, ["error"]);
    expect(await page.textContent("#message")).toMatch(/none\.jsonl, line 1: invalid JSON/);

    const missing = join(dir, "missing.jsonl");
    writeFileSync(missing, `{"hyp": "a b c", "refs": ["a b c"]}\n{"output": "x"}\n`);
    await page.setInputFiles("#file", missing);
    await waitState(page, ["ready"]);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    expect(await page.textContent("#bad-rows")).toMatch(/line 2: missing_field/);
    await page.context().close();
  });

  it("a file dropped on the page is read like a picked one", async () => {
    const { page } = await openPage("?metrics=em");
    const text = readFileSync(example, "utf8").split("\n").slice(0, 10).join("\n");
    const dt = await page.evaluateHandle((t) => {
      const d = new DataTransfer();
      d.items.add(new File([t], "dropped.jsonl", { type: "application/x-ndjson" }));
      return d;
    }, text);
    await page.dispatchEvent("#drop", "dragover", { dataTransfer: dt });
    await page.dispatchEvent("#drop", "drop", { dataTransfer: dt });
    await waitState(page, ["ready"]);
    expect(await page.textContent("#file-name")).toContain("dropped.jsonl");
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    expect(((await page.evaluate(() => window.evalkernResult)) as unknown as PageResult).rows.records).toBe(10);
    await page.context().close();
  });

  it("?src=&metrics=&hyp=&refs= loads and scores on open", async () => {
    const { page } = await openPage("?src=data/pairs.jsonl&metrics=bleu,chrf:wordOrder=2&hyp=hyp&refs=refs");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const result = (await page.evaluate(() => window.evalkernResult)) as unknown as PageResult;
    const summary = await reference(example, join(dir, "src.scored.jsonl"), [cliSpec("bleu", {}), cliSpec("chrf", { wordOrder: 2 })]);
    expect(Object.keys(result.metrics)).toEqual(["bleu", "chrf"]);
    // chrf:wordOrder=2 keeps its name "chrf", as `--metric chrf:wordOrder=2` does
    expectSame(result, summary);
    await page.context().close();
  });

  it("a baseline file gives the two-system comparison with paired significance", async () => {
    const lines = readFileSync(example, "utf8").trim().split("\n");
    const base = join(dir, "base.jsonl");
    writeFileSync(
      base,
      `${lines
        .map((l) => {
          const o = JSON.parse(l) as { hyp: string };
          o.hyp = o.hyp.split(" ").slice(0, -1).join(" ");
          return JSON.stringify(o);
        })
        .join("\n")}\n`,
    );
    const { page } = await openPage("?metrics=bleu,chrf");
    await page.setInputFiles("#file", example);
    await waitState(page, ["ready"]);
    await page.click("#baseline-box summary");
    await page.setInputFiles("#file-baseline", base);
    await page.waitForFunction(() => document.getElementById("baseline-name")!.textContent!.includes("base.jsonl"));
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const [rep] = await Promise.all([page.waitForEvent("download"), page.click("#download-report")]);
    const html = readFileSync((await rep.path())!, "utf8");
    expect(html).toContain("Compared with the baseline");
    expect(html).toContain("paired bootstrap (sacreBLEU paired-bs), 1000 resamples, seed 12345");
    expect(html).toMatch(/<td class="num">0\.\d{4}<\/td>/);
    await page.context().close();
  });

  it("pasted CSV is scored with the server gone once the page is loaded (offline)", async () => {
    const own = await startServer({ root: join(pkg, "dist") });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${own.url}?metrics=bleu,em`);
    await page.waitForFunction(() => document.body.dataset.workers === "ready", null, { timeout: 60_000 });
    await own.close(); // nothing is served any more
    await ctx.setOffline(true);
    await page.fill("#paste", 'output,target,lang\n"the cat sat on the mat","the cat is on the mat",en\nhello world,hello world,de\n');
    await page.click("#use-paste");
    await waitState(page, ["ready"]);
    expect(await page.$eval("#map-hyp", (s) => (s as HTMLSelectElement).value)).toBe("output");
    expect(await page.$$eval("#map-refs input:checked", (l) => l.map((c) => (c as HTMLInputElement).value))).toEqual(["target"]);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const result = (await page.evaluate(() => window.evalkernResult)) as unknown as PageResult;
    expect(result.rows).toEqual({ records: 2, scored: 2, bad: 0 });
    expect(result.metrics.em!.score).toBe(0.5);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("choosing file B (or a malformed file C) takes file A's scores, result and downloads off the page", async () => {
    // B: 4 rows, 2 of them exact matches: EM = 2/4 = 0.5
    const b = join(dir, "b.jsonl");
    const bRows = [
      { hyp: "the cat sat", refs: ["the cat sat"] },
      { hyp: "a cat", refs: ["the dog"] }, // SQuAD normalisation drops the articles: "cat" vs "dog"
      { hyp: "hello", refs: ["hello"] },
      { hyp: "x y", refs: ["z"] },
    ];
    writeFileSync(b, `${bRows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const c = join(dir, "c.jsonl");
    writeFileSync(c, "{not json\n[1, 2\n");
    const { page, errors } = await openPage("?metrics=bleu,em");
    /** What of a run is on the page. */
    const shown = () =>
      page.evaluate(() => ({
        result: window.evalkernResult ?? null,
        scored: window.evalkernScored ?? null,
        resultsHidden: document.getElementById("results")!.hidden,
        scoreRows: document.querySelectorAll("#scores tbody tr").length,
        badRows: document.getElementById("bad-rows")!.childElementCount,
        jsonlHref: document.getElementById("download-jsonl")!.getAttribute("href"),
        reportHref: document.getElementById("download-report")!.getAttribute("href"),
        reportFrame: (document.getElementById("report") as HTMLIFrameElement).srcdoc,
        status: document.getElementById("status")!.textContent,
      }));
    const nothingShown = {
      result: null,
      scored: null,
      resultsHidden: true,
      scoreRows: 0,
      badRows: 0,
      jsonlHref: null,
      reportHref: null,
      reportFrame: "",
      status: "",
    };

    await page.setInputFiles("#file", example);
    await waitState(page, ["ready"]);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const a = await shown();
    expect((a.result as unknown as PageResult).rows.records).toBe(300);
    expect(a.resultsHidden).toBe(false);
    expect(a.scoreRows).toBe(2); // bleu, em
    expect(a.jsonlHref).toMatch(/^blob:/);
    const oldUrl = a.jsonlHref!;

    await page.setInputFiles("#file", b);
    await waitState(page, ["ready"]);
    expect(await shown()).toEqual(nothingShown);
    // the old download's Blob URL was revoked, not only unlinked
    expect(
      await page.evaluate(
        (u) =>
          fetch(u).then(
            () => "fetched",
            () => "revoked",
          ),
        oldUrl,
      ),
    ).toBe("revoked");
    expect(await page.textContent("#file-name")).toContain("b.jsonl");

    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    const bResult = (await shown()).result as unknown as PageResult;
    expect(bResult.rows).toEqual({ records: 4, scored: 4, bad: 0 });
    expect(bResult.metrics.em!.score).toBe(0.5);

    await page.setInputFiles("#file", c);
    await waitState(page, ["error"]);
    expect(await page.textContent("#message")).toMatch(/c\.jsonl, line 1: invalid JSON/);
    expect(await shown()).toEqual(nothingShown);
    expect(await page.textContent("#file-name")).toBe("");
    expect(await page.$eval("#score", (el) => (el as HTMLButtonElement).disabled)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("choosing another file while a run is going stops the run; its results never appear", async () => {
    const lines = readFileSync(example, "utf8").trim().split("\n");
    const big = join(dir, "big-switch.jsonl");
    writeFileSync(big, `${Array.from({ length: 200 }, () => lines.join("\n")).join("\n")}\n`); // 60,000 rows on one worker
    const { page, errors } = await openPage("?metrics=bleu,chrf,rouge&workers=1");
    await page.setInputFiles("#file", big);
    await waitState(page, ["ready"]);
    await page.click("#score");
    await page.waitForFunction(() => /rows/.test(document.getElementById("status")!.textContent ?? ""), null, { timeout: 60_000 });
    await page.setInputFiles("#file", example);
    // "ready" comes after the old run has stopped (the page waits for it), so nothing of it can appear later
    await waitState(page, ["ready"]);
    expect(await page.$eval("#cancel", (el) => (el as HTMLButtonElement).disabled)).toBe(true); // no run is going
    expect(await page.evaluate(() => window.evalkernResult)).toBeUndefined();
    expect(await page.evaluate(() => document.getElementById("results")!.hidden)).toBe(true);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    expect(((await page.evaluate(() => window.evalkernResult)) as unknown as PageResult).rows.records).toBe(300);
    expect(await page.textContent("#status")).toMatch(/^done: 300 rows in /);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("cancel stops a run, and the next run scores", async () => {
    const lines = readFileSync(example, "utf8").trim().split("\n");
    const big = join(dir, "big.jsonl");
    // 60,000 rows, on one worker: a run long enough to cancel
    writeFileSync(big, `${Array.from({ length: 200 }, () => lines.join("\n")).join("\n")}\n`);
    const { page } = await openPage("?metrics=bleu,chrf,rouge&workers=1");
    await page.setInputFiles("#file", big);
    await waitState(page, ["ready"]);
    await page.click("#score");
    await page.waitForFunction(() => /rows/.test(document.getElementById("status")!.textContent ?? ""), null, { timeout: 60_000 });
    await page.click("#cancel");
    expect(await waitState(page, ["cancelled", "done"])).toBe("cancelled");
    expect(await page.evaluate(() => window.evalkernResult)).toBeUndefined();
    await page.setInputFiles("#file", example);
    await waitState(page, ["ready"]);
    await page.click("#score");
    expect(await waitState(page, ["done", "error"])).toBe("done");
    expect(((await page.evaluate(() => window.evalkernResult)) as unknown as PageResult).rows.records).toBe(300);
    await page.context().close();
  });
});
