// `evalkern report` end to end and in a real browser: the HTML written for the bundled example is
// opened in headless Chromium (Debian's /usr/bin/chromium through playwright-core): the page renders,
// the SVG charts are drawn (bars with pixels), no request leaves the file, and a screenshot is taken.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplePairs, repoRoot, runCli, tempDir } from "./support/cli.js";

const CHROMIUM = process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium";
let browser: Browser;
let dir: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) execFileSync("bash", [join(repoRoot, "scripts/ensure-chromium.sh")], { stdio: "inherit" });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  dir = tempDir("evalkern-report-");
});
afterAll(async () => {
  await browser?.close();
});

describe("evalkern report", () => {
  it("writes one self-contained HTML file that renders in Chromium with drawn charts and no network", async () => {
    const out = join(dir, "pairs.scored.jsonl");
    const scored = await runCli(["score", examplePairs, "-o", out, "--no-progress"], { cwd: dir });
    expect(scored.code).toBe(0);
    const html = join(dir, "report.html");
    const r = await runCli(["report", out, "-o", html, "--worst", "10"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*report\.html \(\d+\.\d KiB\)$/m);
    const text = readFileSync(html, "utf8");
    expect(text).not.toMatch(/<script|<link|src="http|url\(http|@import/i);
    expect(statSync(html).size).toBeLessThan(1 << 20);

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    page.on("request", (req) => requests.push(req.url()));
    const failures: string[] = [];
    page.on("requestfailed", (req) => failures.push(req.url()));
    const console: string[] = [];
    page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
    await page.goto(pathToFileURL(html).href, { waitUntil: "load" });

    expect(await page.title()).toBe("evalkern score report");
    await expect.poll(() => page.locator("h1").textContent()).toBe("evalkern score report");
    // one chart per metric column: bleu, chrf, chrf++, 4 × ROUGE, f1, em
    expect(await page.locator("figure.chart svg.hist").count()).toBe(9);
    const bars = await page.locator("svg.hist rect.bar").evaluateAll((els) => els.map((e) => Number(e.getAttribute("height"))));
    expect(bars.length).toBe(9 * 20);
    expect(bars.filter((h) => h > 0).length).toBeGreaterThan(60);
    expect(await page.locator("svg.hist line.corpus").count()).toBe(9);
    const bleuCard = page.locator('figure.chart[data-metric="bleu"]').first();
    expect(await bleuCard.locator(".big").textContent()).toBe("66.95");

    // the charts are really painted: rasterise each SVG and count coloured pixels
    const painted = await page.evaluate(async () => {
      const out: number[] = [];
      for (const svg of Array.from(document.querySelectorAll("svg.hist"))) {
        const data = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
        const img = new Image();
        await new Promise<void>((res, rej) => {
          img.onload = () => res();
          img.onerror = () => rej(new Error("svg did not load"));
          img.src = data;
        });
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let coloured = 0;
        for (let i = 0; i < px.length; i += 4)
          if (px[i + 3]! > 0 && Math.max(px[i]!, px[i + 1]!, px[i + 2]!) - Math.min(px[i]!, px[i + 1]!, px[i + 2]!) > 40) coloured++;
        out.push(coloured);
      }
      return out;
    });
    expect(painted).toHaveLength(9);
    for (const n of painted) expect(n).toBeGreaterThan(500);

    // per-slice tables (detected: lang and kind), with corpus scores per slice
    const slices = await page.locator("section.slice h3 code").allTextContents();
    expect(slices).toEqual(["lang", "kind"]);
    expect(await page.locator("section.slice").first().locator("tbody tr").count()).toBe(11);
    expect(await page.locator("section.slice .hint").first().textContent()).toContain("corpus scores");
    // worst rows with hypothesis and references side by side
    const worst = page.locator("details.worst").first();
    expect(await worst.getAttribute("open")).toBe("");
    expect(await worst.locator("tbody tr").count()).toBe(10);
    expect(await worst.locator("td.text").count()).toBe(20);
    expect(await page.locator("mark.miss").count()).toBeGreaterThan(0);
    // signatures
    expect(await page.locator("table.sigs").textContent()).toContain("BLEU|nrefs:var|case:mixed|eff:no|tok:13a");

    expect(requests).toEqual([pathToFileURL(html).href]);
    expect(failures).toEqual([]);
    expect(console.filter((c) => c.startsWith("error"))).toEqual([]);

    const shot = join(dir, "report.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(50_000);
    if (process.env.EVALKERN_SCREENSHOT_DIR) copyFileSync(shot, join(process.env.EVALKERN_SCREENSHOT_DIR, "report.png"));
    await page.close();
  });

  it("reports missing or foreign results files clearly", async () => {
    const missing = await runCli(["report", join(dir, "nope.jsonl")], { cwd: dir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("results file not found");
    const foreign = await runCli(["report", examplePairs, "-o", join(dir, "x.html")], { cwd: dir });
    expect(foreign.code).toBe(3);
    expect(foreign.stderr).toContain("has no run manifest");
  });
});
