// scoreFile's "rows" output: the input rows with their scores, written in the scoring pass. Pinned
// against a reference join of the "scores" output with the input (what `evalkern score` did in a second
// pass before), for JSONL and CSV in and out, bad rows of every kind, any worker count and chunk size.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { csvCell, csvLine, csvMetricColumns, rowLayout, scoreFile, type MetricSpec, type NormalizedMetric } from "../src/index.js";
import { parseCsv } from "../src/bulk/records.js";
import { makePairs, tempDir } from "./helpers.js";

let dir: string;

beforeAll(() => {
  dir = tempDir();
});

interface InputRecord {
  line: number;
  text?: string;
  fields?: string[];
  error?: string;
}

function inputRecords(path: string, format: "jsonl" | "csv"): { records: InputRecord[]; header: string[] | null } {
  let text = readFileSync(path, "utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (format === "csv") {
    const recs = parseCsv(text, ",", 1);
    const header = (recs[0] as { fields: string[] }).fields;
    return {
      records: recs.slice(1).map((r) => ("error" in r ? { line: r.line, error: r.error } : { line: r.line, fields: r.fields })),
      header,
    };
  }
  const records: InputRecord[] = [];
  text.split("\n").forEach((l, i) => {
    const raw = l.endsWith("\r") ? l.slice(0, -1) : l;
    if (raw.trim() !== "") records.push({ line: i + 1, text: raw });
  });
  return { records, header: null };
}

function recordObject(
  r: InputRecord,
  header: string[] | null,
): { ok: true; value: Record<string, unknown> } | { ok: false; value: unknown } {
  if (r.text !== undefined) {
    try {
      const v = JSON.parse(r.text) as unknown;
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
      return { ok: false, value: v };
    } catch {
      return { ok: false, value: r.text };
    }
  }
  if (r.fields && header && r.fields.length === header.length) {
    const o: Record<string, unknown> = {};
    header.forEach((h, i) => (o[h] = r.fields![i]));
    return { ok: true, value: o };
  }
  return { ok: false, value: r.fields ?? r.error };
}

function splice(text: string, additions: string): string {
  const t = text.trim();
  const body = t.slice(0, -1).trimEnd();
  return `${body}${body.endsWith("{") ? "" : ","}${additions}}`;
}

/** The pre-existing CLI join: input rows + `{"line":…}` score lines → output rows. */
function referenceJoin(
  input: string,
  format: "jsonl" | "csv",
  scoresFile: string,
  specs: readonly NormalizedMetric[],
  outFormat: "jsonl" | "csv",
  d = ",",
): string {
  const { records, header } = inputRecords(input, format);
  const raws = readFileSync(scoresFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(raws).toHaveLength(records.length);
  const layouts = specs.map((s) => rowLayout(s));
  let out = "";
  let columns: string[] = [];
  let metricCols: ReturnType<typeof csvMetricColumns> = [];
  if (outFormat === "csv") {
    if (header) columns = [...header];
    else {
      const keys = new Set<string>();
      for (const r of records.slice(0, 1000)) {
        const o = recordObject(r, null);
        if (o.ok) for (const k of Object.keys(o.value)) keys.add(k);
      }
      columns = [...keys];
    }
    metricCols = csvMetricColumns(layouts).filter((c) => !columns.includes(c.header));
    out += csvLine([...columns, ...metricCols.map((c) => c.header), "_error"], d);
  }
  records.forEach((record, i) => {
    const raw = raws[i]!;
    expect(raw.line).toBe(record.line);
    const e = raw.error as { code: string; message: string } | undefined;
    const error = e ? { line: record.line, code: e.code, message: e.message } : undefined;
    const o = recordObject(record, header);
    if (outFormat === "csv") {
      const cells = columns.map((c) => (o.ok ? csvCell(o.value[c]) : ""));
      for (const mc of metricCols) cells.push(error ? "" : csvCell(raw[mc.column] ?? null));
      cells.push(error ? JSON.stringify(error) : "");
      out += csvLine(cells, d);
      return;
    }
    if (!error) {
      const additions = layouts
        .map((m) => {
          let body = `"score":${JSON.stringify(raw[m.headline] ?? null)}`;
          for (const c of m.columns) body += `,${JSON.stringify(c.key)}:${JSON.stringify(raw[c.column] ?? null)}`;
          return `${JSON.stringify(m.name)}:{${body}}`;
        })
        .join(",");
      out += `${splice(record.text ?? JSON.stringify(o.value), additions)}\n`;
      return;
    }
    if (o.ok) out += `${splice(JSON.stringify(o.value), `"_error":${JSON.stringify(error)}`)}\n`;
    else out += `${JSON.stringify({ _line: record.line, _input: o.value, _error: error })}\n`;
  });
  return out;
}

const METRICS: MetricSpec[] = [
  "bleu",
  { metric: "rouge", headline: "rougeL" },
  { metric: "rouge", name: "r1", options: { types: ["rouge1"] }, headline: "rougeL" },
  { metric: "tokenF1", name: "f1" },
  {
    metric: "module",
    name: "byob-f1",
    module: "@evalkern/metrics/byob",
    export: "f1Token",
    call: "byob",
    columns: ["f1", "precision", "recall"],
    headline: "f1",
  },
];

async function both(input: string, format: "jsonl" | "csv", outFormat: "jsonl" | "csv", extra: object = {}): Promise<void> {
  const name = `${input.split("/").pop()}.${outFormat}`;
  const scores = join(dir, `${name}.scores.jsonl`);
  const rows = join(dir, `${name}.rows`);
  const summary = await scoreFile({
    input,
    output: scores,
    metrics: METRICS,
    fields: format === "csv" ? { hypothesis: "hyp", references: ["ref1", "ref2"] } : {},
    workers: 1,
    ...extra,
  });
  await scoreFile({
    input,
    output: rows,
    outputRows: "rows",
    outputFormat: outFormat,
    metrics: METRICS,
    fields: format === "csv" ? { hypothesis: "hyp", references: ["ref1", "ref2"] } : {},
    workers: 2,
    chunkBytes: 97,
    ...extra,
  });
  expect(readFileSync(rows, "utf8")).toBe(referenceJoin(input, format, scores, summary.metricSpecs, outFormat));
}

describe('scoreFile outputRows: "rows"', () => {
  it("the per-metric grouping: own column → score, headline key → score, prefixes dropped", () => {
    expect(rowLayout({ metric: "bleu", name: "bleu", options: {} })).toEqual({ name: "bleu", headline: "bleu", columns: [] });
    const rouge = rowLayout({ metric: "rouge", name: "rouge", options: { types: ["rouge1", "rougeL"] }, headline: "rougeL" });
    expect(rouge).toEqual({
      name: "rouge",
      headline: "rougeL",
      columns: [
        { column: "rouge1", key: "rouge1" },
        { column: "rougeL", key: "rougeL" },
      ],
    });
    expect(rowLayout({ metric: "rouge", name: "rouge", options: { types: ["rouge1"] }, headline: "rougeL" }).headline).toBe("rouge1");
    expect(rowLayout({ metric: "module", name: "m", options: {}, columns: ["a", "b"], headline: "b" })).toEqual({
      name: "m",
      headline: "m.b",
      columns: [
        { column: "m.a", key: "a" },
        { column: "m.b", key: "b" },
      ],
    });
  });

  it("JSONL in, JSONL and CSV out: every kind of bad row, blank lines, CRLF, no final newline", async () => {
    const input = join(dir, "mixed.jsonl");
    const lines = [
      JSON.stringify({ id: 1, hyp: "the cat sat on the mat", refs: ["the cat sat on the mat"], note: 'say "hi", ok' }),
      "{not json",
      JSON.stringify({ refs: ["x"], extra: { nested: [1, 2.5] } }),
      "",
      '  {"hyp": "a dog",   "refs": ["a dog barked"] , "n": 1.0}  ',
      JSON.stringify({ hyp: 42, refs: ["x"] }),
      "[1,2]",
      "null",
      '"just a string"',
      "   ",
      '{"hyp":"x","refs":[null,"x"]}\r',
      "{}",
      JSON.stringify({ hyp: "emoji 😀 and\nnewline", refs: ["emoji 😀"], lang: "xx" }),
    ];
    writeFileSync(input, lines.join("\n"));
    await both(input, "jsonl", "jsonl");
    await both(input, "jsonl", "csv");
  });

  it("CSV in, CSV and JSONL out: quoted fields, multi-line records, malformed records", async () => {
    const input = join(dir, "mixed.csv");
    const csv = [
      "id,hyp,ref1,ref2,lang",
      "1,the cat sat on the mat,the cat sat on the mat,,en",
      '2,"hello, world",hello world,"hello, world!",en',
      '3,"multi',
      'line",multi line,other,de',
      "4,only,three",
      '5,"He said ""hi""",He said "hi",x,en',
      "",
      "6,,,,en",
    ].join("\r\n");
    writeFileSync(input, `\ufeff${csv}\r\n`);
    await both(input, "csv", "csv");
    await both(input, "csv", "jsonl");
  });

  it("is byte-identical for any worker count, chunk size and shard split", async () => {
    const input = makePairs(dir, 4, 1500);
    const base = { input, metrics: METRICS, outputRows: "rows" as const };
    await scoreFile({ ...base, output: join(dir, "w1.jsonl"), workers: 1 });
    await scoreFile({ ...base, output: join(dir, "w2.jsonl"), workers: 2, chunkBytes: 3000 });
    expect(readFileSync(join(dir, "w1.jsonl"), "utf8")).toBe(readFileSync(join(dir, "w2.jsonl"), "utf8"));
    const summary = await scoreFile({ input, output: join(dir, "w.scores.jsonl"), metrics: METRICS, workers: 2 });
    expect(readFileSync(join(dir, "w1.jsonl"), "utf8")).toBe(
      referenceJoin(input, "jsonl", join(dir, "w.scores.jsonl"), summary.metricSpecs, "jsonl"),
    );
    let joined = "";
    for (let index = 0; index < 3; index++) {
      await scoreFile({ ...base, output: join(dir, `s${index}.jsonl`), workers: 2, shard: { index, count: 3 } });
      joined += readFileSync(join(dir, `s${index}.jsonl`), "utf8");
    }
    expect(joined).toBe(readFileSync(join(dir, "w1.jsonl"), "utf8"));
  });

  it("rejects a bad output mode or format", async () => {
    const input = makePairs(dir, 4, 10);
    await expect(scoreFile({ input, output: join(dir, "x.jsonl"), metrics: ["bleu"], outputRows: "all" as never })).rejects.toThrow(
      /outputRows/,
    );
    await expect(
      scoreFile({ input, output: join(dir, "x.jsonl"), metrics: ["bleu"], outputRows: "rows", outputFormat: "xml" as never }),
    ).rejects.toThrow(/outputFormat/);
    await expect(scoreFile({ input, output: join(dir, "x.jsonl"), metrics: [{ metric: "bleu", headline: "" }] })).rejects.toThrow(
      /headline/,
    );
  });
});
