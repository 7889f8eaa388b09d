// The page: input (drop, pick, paste, ?src=), field mapping, metric choice, scoring on a pool of Web
// Workers, and the report of `evalkern report` (shared renderer) with downloads. When a run is done it
// sets `window.evalkernResult` and `<body data-state="done">` for scripts and tests.
import "./style.css";
import { ready } from "@evalkern/core-wasm";
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  HARNESS_VERSION,
  corpusSummary,
  normalizeMetrics,
  parseCsv,
  resolveFields,
  rowsOutput,
  runMetrics,
  mainThreadMetrics,
  type MetricSpec,
  type NormalizedMetric,
} from "@evalkern/harness/browser";
import type { ReportManifest } from "@evalkern/harness/report";
import { checkOptions, findMetric, listMetrics, loadMetrics, type LexicalMetric } from "@evalkern/metrics/registry";
import { Cancelled, WorkerPool, dataStart, scoreBlob, type ScoredBlob } from "./engine.js";
import { InputError, detectFormat, guessMapping, parseMetricArg, sampleRecords, typedValue, type Sample } from "./parse.js";
import type { FromStatsWorker, ScoredInput, StatsRequest } from "./protocol.js";

/** The metrics ticked when the page opens: `evalkern score`'s defaults. */
const DEFAULT_METRICS = ["bleu", "chrf", "chrf++", "rouge", "f1", "em"];

export interface EvalkernResult {
  /** Rows of the input: records, scored, bad. */
  readonly rows: { readonly records: number; readonly scored: number; readonly bad: number };
  /** metric → headline corpus score and its 95% CI, plus every column's. */
  readonly metrics: Record<
    string,
    {
      score: number;
      ci: { lower: number; upper: number; ci: number } | null;
      scores: Record<string, number>;
      cis: Record<string, { lower: number; upper: number; ci: number }>;
      signature: string;
    }
  >;
  readonly baseline?: EvalkernResult;
  /** From Score to done (scoring, CIs, report), and the scoring phase alone. */
  readonly elapsedMs: number;
  readonly scoreMs: number;
  readonly workers: number;
  readonly rowsPerSecond: number;
}

declare global {
  interface Window {
    evalkernResult?: EvalkernResult;
    /** The scored rows (JSONL, as the download), for scripts: `await window.evalkernScored.text()`. */
    evalkernScored?: Blob;
  }
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);

function setState(state: "idle" | "ready" | "scoring" | "done" | "error" | "cancelled"): void {
  document.body.dataset.state = state;
}

function showMessage(text: string, kind: "error" | "warn" = "error"): void {
  const m = $("message");
  m.textContent = text;
  m.className = `message${kind === "warn" ? " warn" : ""}`;
  m.hidden = false;
}

function clearMessage(): void {
  $("message").hidden = true;
}

function fail(e: unknown): void {
  showMessage((e as Error)?.message ?? String(e));
  setState("error");
}

// ------------------------------------------------------------------------------------ workers

const cores = Math.max(1, Math.min(Number(params.get("workers")) || navigator.hardwareConcurrency || 2, 32));
const makeScoreWorker = () => new Worker(new URL("./score-worker.ts", import.meta.url), { type: "module" });
const makeStatsWorker = () => new Worker(new URL("./stats-worker.ts", import.meta.url), { type: "module" });
const pool = new WorkerPool(cores, makeScoreWorker);
let stats = makeStatsWorker();
$("workers").textContent = `${cores} worker${cores === 1 ? "" : "s"} (one per core)`;

/** Start the statistics worker and its helpers; with the scoring pool warm, the page needs no network any more. */
function warmStats(): Promise<void> {
  return new Promise((resolve, reject) => {
    stats.onmessage = (ev: MessageEvent<FromStatsWorker>) => (ev.data.type === "warm" ? resolve() : undefined);
    stats.onerror = (ev) => reject(new Error(ev.message || "the statistics worker failed to start"));
    stats.postMessage({ type: "warm", workers: cores });
  });
}
let statsWarm = warmStats();
Promise.all([pool.warm(), statsWarm]).then(
  () => (document.body.dataset.workers = "ready"),
  (e: unknown) => fail(e),
);

// ------------------------------------------------------------------------------------ input

interface Input {
  readonly blob: Blob;
  readonly name: string;
  readonly format: "jsonl" | "csv";
  readonly delimiter: string;
  readonly sample: Sample;
}

let input: Input | undefined;
let baseline: Input | undefined;

async function readInput(blob: Blob, name: string): Promise<Input> {
  const head = await blob.slice(0, 1 << 20).text();
  const { format, delimiter } = detectFormat(name, head);
  const sample = sampleRecords(head, format, delimiter, { complete: blob.size <= 1 << 20 });
  if (sample.rows.length === 0 && sample.errors.length > 0) {
    const e = sample.errors[0]!;
    throw new InputError(
      `${name}, line ${e.line}: ${e.message} — no row of the first ${sample.lines} lines could be read as ` +
        `${format === "jsonl" ? "a JSON object" : "a CSV record"}`,
    );
  }
  if (sample.rows.length === 0) throw new InputError(`${name} has no rows`);
  return { blob, name, format, delimiter, sample };
}

function option(value: string, label = value): HTMLOptionElement {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  return o;
}

function check(container: HTMLElement, name: string, value: string, checked: boolean): void {
  const l = document.createElement("label");
  const c = document.createElement("input");
  c.type = "checkbox";
  c.name = name;
  c.value = value;
  c.checked = checked;
  l.append(c, value);
  container.append(l);
}

function showFields(sample: Sample): void {
  const guess = guessMapping(sample.fields);
  const names = sample.fields.map((f) => f.name);
  const hyp = $<HTMLSelectElement>("map-hyp");
  hyp.replaceChildren(...names.map((n) => option(n)));
  const hypWant = params.get("hyp") ?? guess.hyp;
  if (hypWant) {
    if (!names.includes(hypWant)) hyp.append(option(hypWant, `${hypWant} (not in the first rows)`));
    hyp.value = hypWant;
  }
  const refsWant = params.get("refs")?.split(",").filter(Boolean) ?? [...guess.refs];
  const refs = $("map-refs");
  refs.replaceChildren();
  for (const n of new Set([...names, ...refsWant])) check(refs, "refs", n, refsWant.includes(n));
  const id = $<HTMLSelectElement>("map-id");
  id.replaceChildren(option("", "(none)"), ...names.map((n) => option(n)));
  id.value = params.get("id") ?? guess.id ?? "";
  const byWant = params.get("by")?.split(",").filter(Boolean) ?? [];
  const by = $("map-by");
  by.replaceChildren();
  for (const n of new Set([...guess.slices, ...byWant])) check(by, "by", n, byWant.includes(n));
  const tbody = $("fields-table").querySelector("tbody")!;
  tbody.replaceChildren(
    ...sample.fields.map((f) => {
      const tr = document.createElement("tr");
      const cells = [f.name, f.type, `${f.present}/${sample.rows.length}`, f.example];
      cells.forEach((c, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        td.textContent = c;
        if (i === 2) td.className = "num";
        if (i === 3) td.className = "example";
        tr.append(td);
      });
      return tr;
    }),
  );
  $("fields-card").hidden = false;
}

async function setInput(blob: Blob, name: string): Promise<void> {
  // the results on screen are those of the previous file: they go, whether or not this one can be read
  await clearResults();
  clearMessage();
  try {
    input = await readInput(blob, name);
  } catch (e) {
    input = undefined;
    $<HTMLButtonElement>("score").disabled = true;
    $("fields-card").hidden = true;
    $("file-name").textContent = "";
    throw e;
  }
  $("file-name").textContent = `${name} · ${formatBytes(blob.size)} · ${input.format.toUpperCase()}`;
  showFields(input.sample);
  if (input.sample.errors.length) {
    const e = input.sample.errors[0]!;
    showMessage(
      `${name}, line ${e.line}: ${e.message} (rows that cannot be read are reported as bad rows, with their line, and not scored)`,
      "warn",
    );
  }
  $<HTMLButtonElement>("score").disabled = false;
  setState("ready");
}

async function setBaseline(blob: Blob | undefined, name = ""): Promise<void> {
  await clearResults(); // a comparison with the previous baseline is no longer what the page would compute
  clearMessage();
  try {
    baseline = blob ? await readInput(blob, name) : undefined;
  } catch (e) {
    baseline = undefined;
    $("baseline-name").textContent = "";
    $("clear-baseline").hidden = true;
    throw e;
  }
  $("baseline-name").textContent = baseline ? `${name} · ${formatBytes(blob!.size)}` : "";
  $("clear-baseline").hidden = !baseline;
  if (baseline) ($("baseline-box") as HTMLDetailsElement).open = true;
}

function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;
}

function dropZone(zone: HTMLElement, picker: HTMLInputElement, take: (f: File) => Promise<void>): void {
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const f = e.dataTransfer?.files[0];
    if (f) take(f).catch(fail);
  });
  picker.addEventListener("change", () => {
    const f = picker.files?.[0];
    if (f) take(f).catch(fail);
    picker.value = "";
  });
}

dropZone($("drop"), $<HTMLInputElement>("file"), (f) => setInput(f, f.name));
dropZone($("drop-baseline"), $<HTMLInputElement>("file-baseline"), (f) => setBaseline(f, f.name));
$("clear-baseline").addEventListener("click", () => void setBaseline(undefined));
$("use-paste").addEventListener("click", () => {
  const text = $<HTMLTextAreaElement>("paste").value;
  if (!text.trim()) return showMessage("paste some rows first");
  const blob = new Blob([text.endsWith("\n") ? text : `${text}\n`], { type: "text/plain" });
  const name = text.trimStart().startsWith("{") ? "pasted.jsonl" : "pasted.csv";
  setInput(blob, name).catch(fail);
});

// ------------------------------------------------------------------------------------ metrics

const metricDefs = listMetrics();

function buildMetrics(): void {
  const want = new Map<string, Record<string, unknown>>();
  const fromUrl = params.get("metrics");
  const types = (name: string, key: string) => findMetric(name)?.options[key]?.type;
  for (const arg of fromUrl ? fromUrl.split(",").filter(Boolean) : DEFAULT_METRICS) {
    const p = parseMetricArg(arg, types);
    const def = findMetric(p.name);
    if (!def)
      throw new InputError(
        `?metrics: unknown metric ${JSON.stringify(p.name)}; known metrics: ${metricDefs.map((m) => m.name).join(", ")}`,
      );
    want.set(def.name, p.options);
  }
  const box = $("metrics");
  box.replaceChildren(
    ...metricDefs.map((m) => {
      const div = document.createElement("div");
      div.className = "metric";
      div.dataset.metric = m.name;
      const label = document.createElement("label");
      const c = document.createElement("input");
      c.type = "checkbox";
      c.name = "metric";
      c.value = m.name;
      c.checked = want.has(m.name);
      div.classList.toggle("on", c.checked);
      c.addEventListener("change", () => div.classList.toggle("on", c.checked));
      const desc = document.createElement("span");
      desc.className = "desc";
      desc.textContent = m.description;
      const fam = document.createElement("span");
      fam.className = "family";
      fam.textContent = m.family;
      const name = document.createElement("span");
      name.textContent = m.name;
      label.append(c, name, desc, fam);
      const opts = document.createElement("div");
      opts.className = "options";
      for (const [key, s] of Object.entries(m.options)) {
        const l = document.createElement("label");
        l.title = s.help;
        l.append(key);
        const given = want.get(m.name)?.[key];
        let el: HTMLInputElement | HTMLSelectElement;
        if (s.type === "boolean" || (s.values && s.type !== "string[]")) {
          el = document.createElement("select");
          el.append(option("", `default${s.default !== undefined ? ` (${String(s.default)})` : ""}`));
          for (const v of s.type === "boolean" ? ["true", "false"] : s.values!) el.append(option(v));
        } else {
          el = document.createElement("input");
          el.type = s.type === "integer" || s.type === "number" ? "number" : "text";
          if (s.type === "number") el.step = "any";
          el.placeholder =
            s.default !== undefined ? String(s.default) : s.type === "string[]" ? (s.values ? s.values.slice(0, 3).join(",") : "a,b") : "";
          el.size = 8;
        }
        el.dataset.option = key;
        el.dataset.type = s.type;
        if (given !== undefined) el.value = Array.isArray(given) ? given.join(",") : String(given);
        l.append(el);
        opts.append(l);
      }
      div.append(label, opts);
      return div;
    }),
  );
}

interface ChosenMetric {
  readonly definition: LexicalMetric;
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly spec: MetricSpec;
}

/** The ticked metrics with their options, as `evalkern score --metric` resolves them (registry spec + headline). */
function chosenMetrics(): ChosenMetric[] {
  const out: ChosenMetric[] = [];
  for (const div of $("metrics").querySelectorAll<HTMLElement>(".metric")) {
    const c = div.querySelector<HTMLInputElement>("input[name=metric]")!;
    if (!c.checked) continue;
    const def = findMetric(c.value)!;
    const options: Record<string, unknown> = {};
    for (const el of div.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      if (el.value === "") continue;
      options[el.dataset.option!] = typedValue(el.value, el.dataset.type);
    }
    try {
      checkOptions(def.name, def.options, options);
    } catch (e) {
      throw new InputError(`${def.name}: ${(e as Error).message}`);
    }
    const spec = def.spec(options, def.name) as MetricSpec;
    const withHeadline = def.headline && typeof spec === "object" ? ({ ...spec, headline: def.headline } as MetricSpec) : spec;
    out.push({ definition: def, name: def.name, options, spec: withHeadline });
  }
  if (out.length === 0) throw new InputError("tick at least one metric");
  return out;
}

// ------------------------------------------------------------------------------------ scoring

let controller: AbortController | undefined;

function mapping(): { hypothesis: string; references: string[]; id?: string; by: string[] } {
  const hyp = $<HTMLSelectElement>("map-hyp").value;
  const refs = [...$("map-refs").querySelectorAll<HTMLInputElement>("input:checked")].map((c) => c.value);
  const id = $<HTMLSelectElement>("map-id").value;
  const by = [...$("map-by").querySelectorAll<HTMLInputElement>("input:checked")].map((c) => c.value);
  if (!hyp) throw new InputError("choose the hypothesis field");
  if (refs.length === 0) throw new InputError("tick the reference field(s)");
  return { hypothesis: hyp, references: refs, ...(id ? { id } : {}), by };
}

function progressUi(label: string, fraction: number, detail: string): void {
  $("bar").style.width = `${(Math.max(0, Math.min(1, fraction)) * 100).toFixed(1)}%`;
  $("status").textContent = `${label} ${detail}`;
}

function rate(records: number, ms: number): string {
  const r = ms > 0 ? (records / ms) * 1000 : 0;
  return `${Math.round(r).toLocaleString("en-US")} rows/s`;
}

async function scoreInput(
  inp: Input,
  specs: readonly NormalizedMetric[],
  widths: number[],
  fields: ReturnType<typeof resolveFields>,
  label: string,
  signal: AbortSignal,
): Promise<ScoredBlob> {
  const start = await dataStart(inp.blob, inp.format, inp.delimiter, (text) => {
    const recs = parseCsv(text, inp.delimiter, 1);
    const first = recs[0];
    if (!first || "error" in first) throw new InputError(`${inp.name}, line 1: the CSV header row is missing or malformed`);
    return first.fields;
  });
  await pool.init({ type: "init", specs, fields, rows: rowsOutput(specs, "jsonl", ",", []) });
  return scoreBlob(
    pool,
    {
      blob: inp.blob,
      format: inp.format,
      delimiter: inp.delimiter,
      specs,
      widths,
      fields,
      rows: rowsOutput(specs, "jsonl", ",", []),
      signal,
      onProgress: (p) =>
        progressUi(
          label,
          p.bytes / Math.max(1, p.totalBytes),
          `${p.records.toLocaleString("en-US")} rows · ${rate(p.records, p.elapsedMs)} · ${(p.elapsedMs / 1000).toFixed(1)} s`,
        ),
    },
    start,
    start.header,
  );
}

function stem(name: string): string {
  const base = name.replace(/^.*[\\/]/, "");
  return base.replace(/\.(jsonl|ndjson|json|csv|tsv)$/i, "") || "input";
}

async function manifestOf(
  inp: Input,
  scored: ScoredBlob,
  chosen: readonly ChosenMetric[],
  specs: readonly NormalizedMetric[],
  fields: { hypothesis: string; references: string[]; id?: string },
): Promise<ReportManifest> {
  const summary = await corpusSummary(scored.run);
  const metrics = runMetrics(chosen, { metrics: summary, metricSpecs: specs });
  return {
    kind: "score",
    tool: `evalkern web (harness ${HARNESS_VERSION})`,
    createdAt: new Date().toISOString(),
    input: inp.name,
    output: `${stem(inp.name)}.scored.jsonl`,
    outputFormat: "jsonl",
    fields,
    metrics,
    rows: { records: scored.records, scored: scored.scored, bad: scored.bad },
  };
}

function statsJob(req: StatsRequest, transfer: Transferable[]): Promise<Extract<FromStatsWorker, { type: "done" }>> {
  return new Promise((resolve, reject) => {
    stats.onmessage = (ev: MessageEvent<FromStatsWorker>) => {
      const m = ev.data;
      if (m.type === "warm") return;
      if (m.type === "progress") progressUi(m.phase, m.total ? m.done / m.total : 0, m.total > 1 ? `${m.done} / ${m.total}` : "…");
      else if (m.type === "error") reject(new Error(m.message));
      else resolve(m);
    };
    stats.onerror = (ev) => reject(new Error(ev.message || "the statistics worker failed"));
    controller?.signal.addEventListener("abort", () => reject(new Cancelled("cancelled")), { once: true });
    stats.postMessage(req, transfer);
  });
}

function resultOf(
  scored: ScoredBlob,
  manifest: ReportManifest,
  ci: Record<string, Record<string, { lower: number; upper: number; ci: number }>>,
): Omit<EvalkernResult, "elapsedMs" | "scoreMs" | "workers" | "rowsPerSecond"> {
  const metrics: EvalkernResult["metrics"] = {};
  for (const m of manifest.metrics) {
    const cis = ci[m.name] ?? {};
    metrics[m.name] = { score: m.corpus[m.headline]!, ci: cis[m.headline] ?? null, scores: { ...m.corpus }, cis, signature: m.signature };
  }
  return { rows: { records: scored.records, scored: scored.scored, bad: scored.bad }, metrics };
}

function fmt(v: number | undefined, scale: number): string {
  return v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(scale === 100 ? 2 : 4);
}

function showScores(manifest: ReportManifest, ci: Record<string, Record<string, { lower: number; upper: number; ci: number }>>): void {
  const tbody = $("scores").querySelector("tbody")!;
  tbody.replaceChildren();
  for (const m of manifest.metrics) {
    const cols = m.columns.length
      ? [{ column: m.headline, key: "score" }, ...m.columns.filter((c) => c.column !== m.headline)]
      : [{ column: m.headline, key: "score" }];
    for (const c of cols) {
      const tr = document.createElement("tr");
      tr.dataset.metric = m.name;
      tr.dataset.column = c.column;
      const k = ci[m.name]?.[c.column];
      const label =
        m.columns.length === 0
          ? m.name
          : c.key === "score"
            ? `${m.name} (${m.headline})`
            : c.key.startsWith(m.name)
              ? c.key
              : `${m.name}.${c.key}`;
      const cells = [
        label,
        fmt(m.corpus[c.column], m.scale),
        k ? `${fmt(k.lower, m.scale)} – ${fmt(k.upper, m.scale)}` : "–",
        `${m.scale === 100 ? "0–100" : "0–1"} ${m.higherIsBetter ? "↑" : "↓"}`,
      ];
      cells.forEach((t, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        td.textContent = t;
        if (i === 1 || i === 2) td.className = "num";
        tr.append(td);
      });
      tbody.append(tr);
    }
  }
}

function showBadRows(scored: ScoredBlob, name: string): void {
  const box = $("bad-rows");
  box.replaceChildren();
  if (scored.bad === 0) return;
  const p = document.createElement("div");
  p.className = "message warn";
  const lines = scored.badSamples.slice(0, 10).map((b) => `line ${b.line}: ${b.code}: ${b.message}`);
  p.textContent =
    `${name}: ${scored.bad.toLocaleString("en-US")} of ${scored.records.toLocaleString("en-US")} rows could not be ` +
    `scored (kept in the scored JSONL with _error):\n${lines.join("\n")}${scored.bad > lines.length ? "\n…" : ""}`;
  box.append(p);
}

let urls: string[] = [];
/** The run in progress (a click on Score or `?src=`), settled when it has shown its result or error. */
let running: Promise<void> | undefined;

/** Remove a run's results: scores, bad rows, report, download links, `window.evalkernResult`/`evalkernScored`. */
function hideResults(): void {
  for (const u of urls) URL.revokeObjectURL(u);
  urls = [];
  $("results").hidden = true;
  $("scores").querySelector("tbody")!.replaceChildren();
  $("bad-rows").replaceChildren();
  for (const id of ["download-jsonl", "download-report"]) {
    const a = $<HTMLAnchorElement>(id);
    a.removeAttribute("href");
    a.download = "";
  }
  const frame = $<HTMLIFrameElement>("report");
  frame.onload = null;
  frame.srcdoc = "";
  frame.style.height = "";
  window.evalkernResult = undefined;
  window.evalkernScored = undefined;
}

/** Before another input is taken: stop a run of the old one (waiting until it has stopped), then clear its results. */
async function clearResults(): Promise<void> {
  if (running) {
    controller?.abort();
    await running;
  }
  hideResults();
  $("bar").style.width = "0%";
  $("status").textContent = "";
}

function startRun(): Promise<void> {
  const p = run().catch(fail);
  running = p;
  void p.finally(() => {
    if (running === p) running = undefined;
  });
  return p;
}

async function run(): Promise<void> {
  if (!input) throw new InputError("choose an input first");
  clearMessage();
  hideResults();
  const chosen = chosenMetrics();
  const map = mapping();
  const fields = { hypothesis: map.hypothesis, references: map.references, ...(map.id ? { id: map.id } : {}) };
  const resolved = resolveFields(fields);
  // from here on the run can be stopped (Cancel, or another file chosen), so the controller comes first
  controller = new AbortController();
  const signal = controller.signal;
  setState("scoring");
  $<HTMLButtonElement>("score").disabled = true;
  $<HTMLButtonElement>("cancel").disabled = false;
  const t0 = performance.now();
  try {
    await ready();
    await loadMetrics(chosen.map((m) => m.definition.name));
    const specs = normalizeMetrics(chosen.map((m) => m.spec));
    const widths = (await mainThreadMetrics(specs)).map((m) => m.width);
    await Promise.all([pool.warm(), statsWarm]);
    if (signal.aborted) throw new Cancelled("cancelled");
    const system = await scoreInput(input, specs, widths, resolved, baseline ? "scoring (system)" : "scoring", signal);
    if (system.scored === 0) {
      const b = system.badSamples[0];
      throw new InputError(`${input.name}: no row could be scored${b ? ` — line ${b.line}: ${b.message}` : ""}`);
    }
    const base = baseline ? await scoreInput(baseline, specs, widths, resolved, "scoring (baseline)", signal) : undefined;
    const scoreMs = performance.now() - t0;
    const manifest = await manifestOf(input, system, chosen, specs, fields);
    const baseManifest = base && baseline ? await manifestOf(baseline, base, chosen, specs, fields) : undefined;
    const sysInput: ScoredInput = { run: system.run, manifest, output: system.output };
    const baseInput: ScoredInput | undefined =
      base && baseManifest ? { run: base.run, manifest: baseManifest, output: base.output } : undefined;
    const transfer: Transferable[] = [
      ...system.run.statistics.map((s) => s.buffer),
      ...(base ? base.run.statistics.map((s) => s.buffer) : []),
    ];
    const done = await statsJob(
      {
        type: "finish",
        system: sysInput,
        ...(baseInput ? { baseline: baseInput } : {}),
        resamples: Number(params.get("resamples")) || DEFAULT_RESAMPLES,
        seed: Number(params.get("seed")) || DEFAULT_SEED,
        by: map.by,
        workers: cores,
      },
      transfer,
    );
    const elapsedMs = performance.now() - t0;
    const total = system.records + (base?.records ?? 0);
    const result: EvalkernResult = {
      ...resultOf(system, manifest, done.ci),
      ...(base && baseManifest
        ? { baseline: { ...resultOf(base, baseManifest, done.baselineCi ?? {}), elapsedMs, scoreMs, workers: cores, rowsPerSecond: 0 } }
        : {}),
      elapsedMs,
      scoreMs,
      workers: cores,
      rowsPerSecond: (total / elapsedMs) * 1000,
    };
    showScores(manifest, done.ci);
    showBadRows(system, input.name);
    const jsonlUrl = URL.createObjectURL(system.output);
    const reportBlob = new Blob([done.html], { type: "text/html" });
    const reportUrl = URL.createObjectURL(reportBlob);
    urls.push(jsonlUrl, reportUrl);
    const dj = $<HTMLAnchorElement>("download-jsonl");
    dj.href = jsonlUrl;
    dj.download = manifest.output;
    const dr = $<HTMLAnchorElement>("download-report");
    dr.href = reportUrl;
    dr.download = `${stem(input.name)}.report.html`;
    const frame = $<HTMLIFrameElement>("report");
    frame.onload = () => {
      const h = frame.contentDocument?.documentElement.scrollHeight;
      if (h) frame.style.height = `${h + 20}px`;
    };
    frame.srcdoc = done.html;
    $("results").hidden = false;
    progressUi(
      "done:",
      1,
      `${total.toLocaleString("en-US")} rows in ${(elapsedMs / 1000).toFixed(2)} s (scoring ${(scoreMs / 1000).toFixed(2)} s) · ` +
        `${rate(total, elapsedMs)} on ${cores} worker${cores === 1 ? "" : "s"}`,
    );
    window.evalkernScored = system.output;
    window.evalkernResult = result;
    setState("done");
  } catch (e) {
    if (e instanceof Cancelled || signal.aborted) {
      pool.restart();
      stats.terminate();
      stats = makeStatsWorker();
      statsWarm = warmStats();
      progressUi("cancelled", 0, "");
      setState("cancelled");
      return;
    }
    throw e;
  } finally {
    controller = undefined;
    $<HTMLButtonElement>("score").disabled = false;
    $<HTMLButtonElement>("cancel").disabled = true;
  }
}

$("score").addEventListener("click", () => void startRun());
$("cancel").addEventListener("click", () => controller?.abort());

// ------------------------------------------------------------------------------------ start

async function fetchInput(url: string): Promise<{ blob: Blob; name: string }> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "omit", referrerPolicy: "no-referrer" });
  } catch (e) {
    throw new InputError(
      `could not load ${url}: ${(e as Error).message} (the page may only read files from its own origin: host the file beside the app)`,
    );
  }
  if (!res.ok) throw new InputError(`could not load ${url}: HTTP ${res.status}`);
  const name = new URL(url, location.href).pathname.split("/").pop() || "input.jsonl";
  return { blob: await res.blob(), name };
}

async function start(): Promise<void> {
  buildMetrics();
  const src = params.get("src");
  if (!src) return;
  setState("scoring");
  progressUi("loading", 0, src);
  const a = await fetchInput(src);
  await setInput(a.blob, a.name);
  const base = params.get("baseline");
  if (base) {
    const b = await fetchInput(base);
    await setBaseline(b.blob, b.name);
  }
  await startRun();
}

start().catch(fail);
