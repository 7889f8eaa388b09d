// The report as one self-contained HTML file: inline CSS, charts drawn here as inline SVG, no script,
// no font, image or stylesheet from anywhere (a Content-Security-Policy forbids any fetch), so it opens
// the same offline, from a CI artifact or an e-mail attachment.
import { BINS, type ComparisonData, type PairedRow, type ReportData, type RowSample, type SeriesData, type SliceTable } from "./collect.js";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function fmt(v: number | undefined, scale: number): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  return v.toFixed(scale === 100 ? 2 : 3);
}

/** Red (low) → amber → green (high) for a score at its scale. */
function scoreColor(v: number, scale: number, higherIsBetter = true): string {
  const f = Math.max(0, Math.min(1, v / scale));
  const g = higherIsBetter ? f : 1 - f;
  return `hsl(${Math.round(g * 130)}, 62%, ${g > 0.5 ? 42 : 48}%)`;
}

/** A histogram of one metric column's row scores, with the corpus score and the row mean marked. */
export function histogramSvg(s: SeriesData): string {
  const W = 380;
  const H = 180;
  const left = 40;
  const right = 12;
  const top = 16;
  const bottom = 30;
  const pw = W - left - right;
  const ph = H - top - bottom;
  // integer ticks, one label each: a step of ceil(max / 4) rows, the axis topped at the first tick ≥ max
  const step = Math.max(1, Math.ceil(Math.max(1, ...s.counts) / 4));
  const ticks = Math.max(1, Math.ceil(Math.max(1, ...s.counts) / step));
  const maxCount = step * ticks;
  const bw = pw / BINS;
  const x = (v: number) => left + (Math.max(0, Math.min(s.scale, v)) / s.scale) * pw;
  const parts: string[] = [];
  // grid and y axis
  for (let i = 0; i <= ticks; i++) {
    const y = top + ph - (i / ticks) * ph;
    parts.push(`<line x1="${left}" y1="${y.toFixed(1)}" x2="${W - right}" y2="${y.toFixed(1)}" class="grid"/>`);
    parts.push(`<text x="${left - 6}" y="${(y + 3.5).toFixed(1)}" class="tick" text-anchor="end">${i * step}</text>`);
  }
  s.counts.forEach((c, i) => {
    const h = (c / maxCount) * ph;
    const lo = (i / BINS) * s.scale;
    const hi = ((i + 1) / BINS) * s.scale;
    const bx = left + i * bw + 1;
    parts.push(
      `<rect class="bar" x="${bx.toFixed(1)}" y="${(top + ph - h).toFixed(1)}" width="${(bw - 2).toFixed(1)}" ` +
        `height="${Math.max(0, h).toFixed(1)}" fill="${scoreColor((lo + hi) / 2, s.scale, s.higherIsBetter)}"><title>` +
        `${fmt(lo, s.scale)}–${fmt(hi, s.scale)}: ${c} row${c === 1 ? "" : "s"}</title></rect>`,
    );
  });
  // x axis
  parts.push(`<line x1="${left}" y1="${top + ph}" x2="${W - right}" y2="${top + ph}" class="axis"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = (i / 4) * s.scale;
    parts.push(
      `<text x="${x(v).toFixed(1)}" y="${H - bottom + 16}" class="tick" text-anchor="middle">${s.scale === 100 ? v : v.toFixed(2)}</text>`,
    );
  }
  if (s.n > 0) {
    parts.push(
      `<line class="mean" x1="${x(s.mean).toFixed(1)}" y1="${top}" x2="${x(s.mean).toFixed(1)}" y2="${top + ph}"><title>mean of ` +
        `rows ${fmt(s.mean, s.scale)}</title></line>`,
    );
  }
  if (s.corpus !== undefined && Number.isFinite(s.corpus)) {
    const cx = x(s.corpus);
    if (s.ci)
      parts.push(
        `<rect class="ci" x="${x(s.ci.lower).toFixed(1)}" y="${top}" width="` +
          `${Math.max(1, x(s.ci.upper) - x(s.ci.lower)).toFixed(1)}" height="${ph}"><title>95% CI ` +
          `${fmt(s.ci.lower, s.scale)}–${fmt(s.ci.upper, s.scale)}</title></rect>`,
      );
    parts.push(
      `<line class="corpus" x1="${cx.toFixed(1)}" y1="${top - 4}" x2="${cx.toFixed(1)}" y2="${top + ph}"><title>corpus ` +
        `${fmt(s.corpus, s.scale)}</title></line>`,
    );
    const anchor = cx > W - 90 ? "end" : cx < left + 60 ? "start" : "middle";
    parts.push(
      `<text x="${cx.toFixed(1)}" y="${top - 6}" class="corpus-label" text-anchor="${anchor}">corpus ${fmt(s.corpus, s.scale)}</text>`,
    );
  }
  return (
    `<svg class="hist" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="` +
    `${escapeHtml(`${s.label}: distribution of row scores`)}">${parts.join("")}</svg>`
  );
}

function seriesCard(s: SeriesData): string {
  const headline = s.corpus ?? s.mean;
  const ci = s.ci ? `<span class="ci-text">95% CI ${fmt(s.ci.lower, s.scale)} – ${fmt(s.ci.upper, s.scale)}</span>` : "";
  return (
    `<figure class="card chart" data-metric="${escapeHtml(s.metric)}">
  <figcaption><span class="metric-name">${escapeHtml(s.label)}</span><span class="big" style="color:` +
    `${scoreColor(headline, s.scale, s.higherIsBetter)}">${fmt(headline, s.scale)}</span>${ci}</figcaption>
  ${histogramSvg(s)}
  <div class="legend"><span><i class="sw corpus"></i>${s.corpus !== undefined ? "corpus" : "–"}</span><span><i class="sw ` +
    `mean"></i>mean of ${s.n.toLocaleString("en-US")} rows ${fmt(s.mean, s.scale)}</span><span>min ${fmt(s.min, s.scale)} · ` +
    `max ${fmt(s.max, s.scale)}</span></div>
</figure>`
  );
}

function sliceTable(t: SliceTable, series: readonly SeriesData[]): string {
  const cols = series.filter((s) => s.key === "score");
  const head = cols.map((s) => `<th class="num">${escapeHtml(s.label)}</th>`).join("");
  const best = new Map<string, number>();
  for (const s of cols) {
    const label = `${s.metric}\u0000${s.column}`;
    const vals = t.values.map((v) => v.scores[label]).filter((v): v is number => v !== undefined);
    if (vals.length > 1) best.set(label, Math.max(...vals));
  }
  const rows = t.values
    .map((v) => {
      const cells = cols
        .map((s) => {
          const label = `${s.metric}\u0000${s.column}`;
          const x = v.scores[label];
          if (x === undefined) return `<td class="num">–</td>`;
          const w = Math.max(0, Math.min(100, (x / s.scale) * 100));
          const ci = v.ci?.[label];
          const ciText = ci ? `<br><span class="muted slice-ci">${fmt(ci.lower, s.scale)} – ${fmt(ci.upper, s.scale)}</span>` : "";
          return (
            `<td class="num${best.get(label) === x ? " best" : ""}"><div class="cell-bar"><span ` +
            `style="width:${w.toFixed(1)}%;background:${scoreColor(x, s.scale, s.higherIsBetter)}"></span></div>` +
            `${fmt(x, s.scale)}${ciText}</td>`
          );
        })
        .join("");
      return `<tr><th scope="row">${escapeHtml(v.value)}</th><td class="num">${v.rows.toLocaleString("en-US")}</td>${cells}</tr>`;
    })
    .join("\n");
  const hasCi = t.values.some((v) => v.ci);
  const how =
    (t.aggregation === "corpus"
      ? "corpus scores from the slice's summed statistics (BLEU/chrF are not means of row scores)"
      : "means of row scores") + (hasCi ? "; below each, the 95% bootstrap CI over the slice's rows" : "");
  return `<section class="card slice"><h3>by <code>${escapeHtml(t.field)}</code></h3><p class="hint">${how}</p>
<div class="scroll"><table><thead><tr><th>${escapeHtml(t.field)}</th><th class="num">rows</th>${head}</tr></thead><tbody>
${rows}
</tbody></table></div></section>`;
}

function stars(p: number): string {
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

function pairedCells(r: PairedRow): string {
  const better = r.difference === 0 ? "" : r.difference > 0 === r.higherIsBetter ? " better" : " worse";
  const sig = r.pValue < 0.05 ? " significant" : "";
  const delta = `${r.difference >= 0 ? "+" : "−"}${fmt(Math.abs(r.difference), r.scale)}`;
  return (
    `<td class="num">${fmt(r.baseline, r.scale)}</td><td class="num">${fmt(r.system, r.scale)}</td><td class="num ` +
    `delta${better}${sig}">${delta}</td><td class="num">${r.pValue.toFixed(4)}</td><td>${stars(r.pValue)}</td>`
  );
}

/** The two-system view: paired deltas and significance per metric and per slice. */
function comparisonSection(c: ComparisonData): string {
  const head = `<th class="num">baseline</th><th class="num">system</th><th class="num">Δ</th><th class="num">p</th><th></th>`;
  const whole = c.metrics.map((r) => `<tr><th scope="row">${escapeHtml(r.label)}</th>${pairedCells(r)}</tr>`).join("\n");
  const slices = c.slices
    .map((t) => {
      const rows = t.values
        .flatMap((v) =>
          v.metrics.map(
            (r, k) =>
              `<tr>` +
              (k === 0
                ? `<th scope="row" rowspan="${v.metrics.length}">${escapeHtml(v.value)}</th>` +
                  `<td class="num" rowspan="${v.metrics.length}">${v.rows.toLocaleString("en-US")}</td>`
                : "") +
              `<td>${escapeHtml(r.label)}</td>${pairedCells(r)}</tr>`,
          ),
        )
        .join("\n");
      return (
        `<section class="card slice"><h3>by <code>${escapeHtml(t.field)}</code></h3>
<div class="scroll"><table class="paired"><thead><tr><th>${escapeHtml(t.field)}</th><th class="num">rows</th><th>metric</th>` +
        `${head}</tr></thead><tbody>
${rows}
</tbody></table></div></section>`
      );
    })
    .join("\n");
  return (
    `<h2 id="comparison">Compared with the baseline</h2>
<p class="hint">baseline <code>${escapeHtml(c.baseline)}</code> · system <code>${escapeHtml(c.system)}</code> (this report) · ` +
    `${c.rows.toLocaleString("en-US")} paired rows · paired bootstrap (sacreBLEU paired-bs), ${c.resamples} resamples, seed ` +
    `${c.seed}. p: probability of a difference at least this large by chance (* &lt; 0.05, ** &lt; 0.01, *** &lt; 0.001); Δ is ` +
    `green when the system is better, red when worse.</p>
<section class="card"><div class="scroll"><table class="paired"><thead><tr><th>metric</th>${head}</tr></thead><tbody>
${whole}
</tbody></table></div></section>
${slices ? `<div class="slices">${slices}</div>` : ""}`
  );
}

const WORD = /(\s+)/;
function norm(token: string): string {
  return token.toLowerCase().replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, "");
}

/** The text with the words missing from `other` marked. */
function marked(textValue: string, other: ReadonlySet<string>, cls: string): string {
  const t = textValue.length > 3000 ? `${textValue.slice(0, 3000)}…` : textValue;
  return t
    .split(WORD)
    .map((tok) => {
      if (tok === "" || /^\s+$/.test(tok)) return escapeHtml(tok);
      const n = norm(tok);
      return n !== "" && !other.has(n) ? `<mark class="${cls}">${escapeHtml(tok)}</mark>` : escapeHtml(tok);
    })
    .join("");
}

function words(textValue: string): Set<string> {
  return new Set(
    textValue
      .split(/\s+/)
      .map(norm)
      .filter((w) => w !== ""),
  );
}

function worstRow(r: RowSample, rank: number, scale: number): string {
  const refWords = new Set<string>();
  for (const ref of r.references) for (const w of words(ref)) refWords.add(w);
  const hypWords = words(r.hypothesis);
  const chips = Object.entries(r.slices)
    .map(([k, v]) => `<span class="chip" title="${escapeHtml(k)}">${escapeHtml(v)}</span>`)
    .join("");
  const refs = r.references.length
    ? r.references
        .map(
          (ref, i) =>
            `<div class="ref">${r.references.length > 1 ? `<span class="refno">${i + 1}</span>` : ""}${marked(ref, hypWords, "add")}</div>`,
        )
        .join("")
    : `<span class="muted">(none)</span>`;
  const input = r.input
    ? `<div class="input"><b>input</b> ${escapeHtml(r.input.length > 1500 ? `${r.input.slice(0, 1500)}…` : r.input)}</div>`
    : "";
  const reason = r.reason ? `<div class="reason"><b>reason</b> ${escapeHtml(r.reason)}</div>` : "";
  return (
    `<tr>
<td class="rank">${rank}</td>
<td class="where">` +
    (r.id ? `<span class="row-id">${escapeHtml(r.id)}</span><br><span class="muted">line ${r.line}</span>` : `line ${r.line}`) +
    `<br>${chips}</td>
<td class="num score" style="color:${scoreColor(r.score, scale)}">${fmt(r.score, scale)}</td>
<td class="text">${input}${marked(r.hypothesis, refWords, "miss")}${reason}</td>
<td class="text">${refs}</td>
</tr>`
  );
}

const CSS =
  `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#6b7385;--line:#e3e6ec;--accent:#3b5bdb;--corpus:#1d2330;--mean:#8a93a6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
header.top{background:linear-gradient(120deg,#1f2a48,#3b5bdb);color:#fff;padding:22px 32px 18px}
header.top h1{margin:0 0 6px;font-size:22px;font-weight:650;letter-spacing:.2px}
header.top .meta{opacity:.85;font-size:12.5px;display:flex;flex-wrap:wrap;gap:6px 18px}
header.top code{color:#fff;background:rgba(255,255,255,.14);padding:1px 5px;border-radius:4px}
main{padding:18px 32px 40px;max-width:1400px;margin:0 auto}
h2{font-size:16px;margin:26px 0 10px;font-weight:650}
h3{font-size:14px;margin:0 0 2px}
.stats{display:flex;gap:12px;flex-wrap:wrap;margin-top:4px}
.stat{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 16px;min-width:130px}
.stat b{display:block;font-size:20px}
.stat span{color:var(--muted);font-size:12px}
.grid-charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:14px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;box-shadow:0 1px 2px rgba(20,30,60,.04)}
figure.chart{margin:0}
figcaption{display:flex;align-items:baseline;gap:10px;flex-wrap:wrap;margin-bottom:4px}
.metric-name{font-weight:650}
.big{font-size:22px;font-weight:700;font-variant-numeric:tabular-nums}
.ci-text{color:var(--muted);font-size:12px}
svg.hist{width:100%;height:auto;display:block}
svg .grid{stroke:#eef0f4;stroke-width:1}
svg .axis{stroke:#9aa3b5;stroke-width:1}
svg .tick{fill:#7b8497;font-size:10px;font-family:inherit}
svg .bar{opacity:.9}
svg .bar:hover{opacity:1;stroke:#1d2330;stroke-width:.6}
svg .corpus{stroke:var(--corpus);stroke-width:2;stroke-dasharray:5 3}
svg .mean{stroke:var(--mean);stroke-width:1.5;stroke-dasharray:2 3}
svg .ci{fill:rgba(59,91,219,.12)}
svg .corpus-label{font-size:10.5px;font-weight:600;fill:var(--corpus)}
.legend{display:flex;gap:14px;flex-wrap:wrap;color:var(--muted);font-size:11.5px;margin-top:2px}
.sw{display:inline-block;width:16px;height:0;border-top:2px dashed var(--corpus);vertical-align:middle;margin-right:5px}
.sw.mean{border-top:2px dotted var(--mean)}
.slices{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:14px}
.hint{color:var(--muted);font-size:12px;margin:0 0 8px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{font-size:12px;color:var(--muted);font-weight:600;border-bottom:1px solid #cfd4de;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:700}
.cell-bar{display:inline-block;width:54px;height:7px;background:#eef0f4;border-radius:4px;margin-right:8px;vertical-align:middle;o` +
  `verflow:hidden}
.cell-bar span{display:block;height:100%;border-radius:4px}
details.worst{margin-bottom:12px}
details.worst>summary{cursor:pointer;font-weight:650;padding:4px 0}
details.worst table td.text{width:44%;white-space:pre-wrap;word-break:break-word}
td.rank{color:var(--muted);width:28px}
td.where{font-size:12px;white-space:nowrap}
td.score{font-weight:700;font-size:15px}
mark.miss{background:#ffe3e3;color:#a61e1e;border-radius:3px;padding:0 1px}
mark.add{background:#d3f9d8;color:#1b6b2a;border-radius:3px;padding:0 1px}
.ref+.ref{margin-top:6px;padding-top:6px;border-top:1px dashed var(--line)}
.refno{display:inline-block;font-size:10px;color:var(--muted);border:1px solid var(--line);border-radius:8px;padding:0 5px;margin-right:5px}
.delta.better{color:#2b8a3e}.delta.worse{color:#c92a2a}.delta.significant{font-weight:700}
.row-id{font-weight:650;word-break:break-all}
.chip{display:inline-block;background:#edf2ff;color:#364fc7;border-radius:9px;padding:0 7px;margin:3px 3px 0 0;font-size:11px}
.input,.reason{font-size:12.5px;color:#39415a;background:#f4f6fa;border-radius:6px;padding:4px 7px;margin:0 0 6px}
.reason{margin:6px 0 0}
.muted{color:var(--muted)}
table.sigs td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
.notes{background:#fff9db;border:1px solid #ffe066;border-radius:8px;padding:8px 12px}
footer{color:var(--muted);font-size:12px;text-align:center;padding:20px}
`;

/** Render the report. */
export function renderReport(d: ReportData): string {
  const stat = (value: string, label: string) => `<div class="stat"><b>${value}</b><span>${label}</span></div>`;
  const judge = d.judge as
    | {
        model?: string;
        cost?: { costUsd?: number | null; inputTokens?: number; outputTokens?: number; calls?: number; cachedCalls?: number };
      }
    | undefined;
  const judgeStats = judge
    ? stat(escapeHtml(String(judge.model ?? "?")), "judge model") +
      stat(judge.cost?.costUsd === null || judge.cost?.costUsd === undefined ? "n/a" : `$${judge.cost.costUsd.toFixed(4)}`, "judge cost") +
      stat(
        `${(judge.cost?.calls ?? 0).toLocaleString("en-US")} / ${(judge.cost?.cachedCalls ?? 0).toLocaleString("en-US")}`,
        "judge calls / cached",
      )
    : "";
  const charts = d.series.map(seriesCard).join("\n");
  const slices = d.slices.length
    ? `<div class="slices">${d.slices.map((t) => sliceTable(t, d.series)).join("\n")}</div>`
    : `<p class="muted">No slice field (pass <code>--by FIELD</code>).</p>`;
  const worst = d.worst
    .map(
      (w, i) =>
        `<details class="worst card"${i === 0 ? " open" : ""}><summary>${escapeHtml(w.label)} — ${w.rows.length} ` +
        `lowest-scoring rows</summary>${
          w.tie
            ? `<p class="hint tie">${w.tie.count.toLocaleString("en-US")} rows tie at the worst score, ${fmt(w.tie.score, w.scale)}; ` +
              "those shown are a deterministic sample of them (the same on every run).</p>"
            : ""
        }
<div class="scroll"><table><thead><tr><th>#</th><th>row</th><th class="num">score</th><th>hypothesis <span class="muted">(<mark ` +
        `class="miss">words not in any reference</mark>)</span></th><th>${escapeHtml(w.referenceLabel ?? "reference")} <span ` +
        `class="muted">(<mark class="add">words not in the hypothesis</mark>)</span></th></tr></thead><tbody>
${w.rows.map((r, k) => worstRow(r, k + 1, w.scale)).join("\n")}
</tbody></table></div></details>`,
    )
    .join("\n");
  const paths = (p: Readonly<Record<string, number>> | undefined) =>
    p
      ? `<br><span class="muted">scoring paths: ${Object.entries(p)
          .map(([k, n]) => `${escapeHtml(k)} ${n.toLocaleString("en-US")}`)
          .join(", ")}</span>`
      : "";
  const sigs = d.signatures
    .map((s) => `<tr><th scope="row">${escapeHtml(s.name)}</th><td>${escapeHtml(s.signature)}${paths(s.scoringPaths)}</td></tr>`)
    .join("\n");
  const notes = d.notes.length ? `<div class="notes">${d.notes.map(escapeHtml).join("<br>")}</div>` : "";
  return (
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="${escapeHtml(d.tool)}">
<title>${escapeHtml(d.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="top">
<h1>${escapeHtml(d.title)}</h1>
<div class="meta"><span>input <code>${escapeHtml(d.input)}</code></span><span>results <code>${escapeHtml(d.output)}</code></span><` +
    `span>${escapeHtml(d.createdAt)}</span><span>${escapeHtml(d.tool)}</span></div>
</header>
<main>
<div class="stats">${stat(d.rows.records.toLocaleString("en-US"), "rows")}${stat(d.rows.scored.toLocaleString("en-US"), "scored")}` +
    `${stat(d.rows.bad.toLocaleString("en-US"), "could not be scored")}` +
    `${stat(String(d.worst.length), d.worst.length === 1 ? "metric" : "metrics")}${judgeStats}</div>
${notes}
${d.comparison ? comparisonSection(d.comparison) : ""}
<h2 id="distributions">Score distributions</h2>
<div class="grid-charts">
${charts}
</div>
<h2 id="slices">Slices</h2>
${slices}
<h2 id="worst">Worst-scoring rows</h2>
${worst}
<h2 id="signatures">Signatures</h2>
<section class="card"><table class="sigs"><tbody>
${sigs}
</tbody></table></section>
</main>
<footer>Generated by ${escapeHtml(d.tool)} · one self-contained file: no script, no network</footer>
</body>
</html>
`
  );
}
