// Reading the start of an input (a file, a paste, a fetched URL) before scoring: its format, CSV header,
// the fields of the first rows, a guess of which fields hold the hypothesis, references, id and slices,
// and the first malformed row (named by its line). Pure functions, unit-tested in Node; the scoring itself
// parses every row again in the workers with the harness's own parser.
import { csvKeys, EvalkernError, parseCsv } from "@evalkern/harness/browser";

export type Format = "jsonl" | "csv";

export interface FieldInfo {
  readonly name: string;
  /** "string", "string[]", "number", "boolean", "object", "mixed". */
  readonly type: string;
  /** Rows (of the sample) that have it. */
  readonly present: number;
  /** Distinct values seen (strings, booleans and integers up to 40 characters; capped at 51). */
  readonly distinct: number;
  readonly example: string;
}

export interface Sample {
  readonly format: Format;
  readonly delimiter: string;
  /** CSV header (BOM removed). */
  readonly header: readonly string[] | null;
  readonly rows: readonly Record<string, unknown>[];
  readonly fields: readonly FieldInfo[];
  /** The first malformed rows of the sample (`line` is 1-based, as in the file). */
  readonly errors: readonly { readonly line: number; readonly message: string }[];
  /** Lines of the sample read (the sample may stop mid-file). */
  readonly lines: number;
}

/** JSONL or CSV: from the name (.csv/.tsv → CSV), else from the first non-blank character (`{` → JSONL). */
export function detectFormat(name: string | undefined, head: string): { format: Format; delimiter: string } {
  const lower = (name ?? "").toLowerCase().replace(/[?#].*$/, "");
  if (lower.endsWith(".tsv")) return { format: "csv", delimiter: "\t" };
  if (lower.endsWith(".csv")) return { format: "csv", delimiter: "," };
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return { format: "jsonl", delimiter: "," };
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("{") || text.startsWith("[")) return { format: "jsonl", delimiter: "," };
  const firstLine = text.split("\n", 1)[0] ?? "";
  return { format: "csv", delimiter: firstLine.includes("\t") && !firstLine.includes(",") ? "\t" : "," };
}

function typeOf(v: unknown): string {
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return v.every((x) => typeof x === "string") ? "string[]" : "array";
  if (v === null) return "null";
  return "object";
}

/**
 * Parse the start of an input (`text` holds whole lines from the file's start; a cut last line is
 * ignored unless `complete`) into at most `maxRows` rows.
 */
export function sampleRecords(
  text: string,
  format: Format,
  delimiter: string,
  options: { maxRows?: number; complete?: boolean } = {},
): Sample {
  const maxRows = options.maxRows ?? 200;
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!options.complete) {
    const nl = body.lastIndexOf("\n");
    body = nl < 0 ? body : body.slice(0, nl + 1);
  }
  const rows: Record<string, unknown>[] = [];
  const errors: { line: number; message: string }[] = [];
  let header: string[] | null = null;
  let keys: string[] = [];
  let lines = 0;
  if (format === "jsonl") {
    const all = body.split("\n");
    if (all.length && all[all.length - 1] === "") all.pop();
    for (let i = 0; i < all.length && rows.length + errors.length < maxRows; i++) {
      lines = i + 1;
      const raw = all[i]!.endsWith("\r") ? all[i]!.slice(0, -1) : all[i]!;
      if (raw.trim() === "") continue;
      try {
        const v = JSON.parse(raw) as unknown;
        if (typeof v !== "object" || v === null || Array.isArray(v))
          errors.push({ line: i + 1, message: `not a JSON object (${typeOf(v)})` });
        else rows.push(v as Record<string, unknown>);
      } catch (e) {
        errors.push({ line: i + 1, message: `invalid JSON: ${(e as Error).message}` });
      }
    }
  } else {
    const recs = parseCsv(body, delimiter, 1);
    for (const r of recs) {
      if (rows.length + errors.length >= maxRows) break;
      lines = r.line;
      if ("error" in r) {
        if (!header) throw new InputError(`line ${r.line}: the CSV header row is malformed (${r.error})`);
        errors.push({ line: r.line, message: r.error });
        continue;
      }
      if (!header) {
        header = r.fields;
        keys = csvKeys(header); // the scorer's row keys: a repeated name is name#1, name#2, …
        continue;
      }
      if (r.fields.length !== header.length) {
        errors.push({ line: r.line, message: `expected ${header.length} fields (the header's), got ${r.fields.length}` });
        continue;
      }
      const o: Record<string, string> = {};
      keys.forEach((k, i) => (o[k] = r.fields[i]!));
      rows.push(o);
    }
    if (!header) throw new InputError("the CSV header row is missing");
  }
  return { format, delimiter, header, rows, fields: fieldsOf(rows, header ? keys : null), errors, lines };
}

/** An input that cannot be read at all (the message names the line). */
export class InputError extends EvalkernError {
  override name = "InputError";
  override readonly code: string = "INVALID_INPUT";
}

function fieldsOf(rows: readonly Record<string, unknown>[], header: readonly string[] | null): FieldInfo[] {
  const info = new Map<string, { types: Set<string>; present: number; values: Set<string>; example: unknown }>();
  for (const h of header ?? []) info.set(h, { types: new Set(), present: 0, values: new Set(), example: undefined });
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      let e = info.get(k);
      if (!e) info.set(k, (e = { types: new Set(), present: 0, values: new Set(), example: undefined }));
      e.present++;
      if (v === null || v === undefined) continue;
      e.types.add(typeOf(v));
      if (e.example === undefined) e.example = v;
      if (
        (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isInteger(v))) &&
        String(v).length <= 40 &&
        e.values.size <= 50
      )
        e.values.add(String(v));
      else e.values.add("\u0000long");
    }
  }
  return [...info.entries()].map(([name, e]) => {
    const ex = typeof e.example === "string" ? e.example : (JSON.stringify(e.example) ?? "");
    return {
      name,
      type: e.types.size === 0 ? "null" : e.types.size === 1 ? [...e.types][0]! : "mixed",
      present: e.present,
      distinct: e.values.has("\u0000long") ? Infinity : e.values.size,
      example: ex.length > 80 ? `${ex.slice(0, 80)}…` : ex,
    };
  });
}

const HYP = [
  "hyp",
  "hypothesis",
  "hypotheses",
  "prediction",
  "pred",
  "predicted",
  "output",
  "actual_output",
  "response",
  "candidate",
  "generated",
  "generation",
  "completion",
  "answer",
  "system",
  "translation",
  "mt",
];
const REFS = [
  "refs",
  "references",
  "reference",
  "ref",
  "target",
  "targets",
  "gold",
  "expected",
  "expected_output",
  "label",
  "labels",
  "answers",
  "ground_truth",
  "tgt",
];
const ID = ["id", "_id", "uid", "example_id", "qid", "key", "idx", "index"];

function norm(name: string): string {
  return name.toLowerCase().replace(/[-\s.]/g, "_");
}

function pick(fields: readonly FieldInfo[], names: readonly string[], taken: ReadonlySet<string>): string | undefined {
  for (const want of names) {
    const f = fields.find((x) => !taken.has(x.name) && norm(x.name) === want);
    if (f) return f.name;
  }
  return undefined;
}

export interface Mapping {
  readonly hyp: string | undefined;
  readonly refs: readonly string[];
  readonly id: string | undefined;
  /** Fields that look like slices (2–50 distinct short values), at most 4. */
  readonly slices: readonly string[];
}

/**
 * Guess the field mapping: well-known names first (`hyp`, `prediction`, `output` …; `refs`, `reference`,
 * `target` …), then numbered reference columns (`ref1`, `ref2` …), then the first text fields left.
 */
export function guessMapping(fields: readonly FieldInfo[]): Mapping {
  const taken = new Set<string>();
  const id = pick(fields, ID, taken);
  if (id) taken.add(id);
  const hyp = pick(fields, HYP, taken);
  if (hyp) taken.add(hyp);
  let refs: string[] = [];
  const r = pick(fields, REFS, taken);
  if (r) refs = [r];
  else {
    refs = fields.filter((f) => !taken.has(f.name) && /^(refs?|references?|targets?)_?\d+$/.test(norm(f.name))).map((f) => f.name);
  }
  for (const x of refs) taken.add(x);
  const texts = fields.filter((f) => !taken.has(f.name) && (f.type === "string" || f.type === "string[]") && f.distinct > 50);
  const hypOut = hyp ?? texts.shift()?.name;
  if (hypOut) taken.add(hypOut);
  if (refs.length === 0) {
    const t = texts.find((f) => f.name !== hypOut);
    if (t) refs = [t.name];
  }
  for (const x of refs) taken.add(x);
  const slices = fields
    .filter(
      (f) =>
        !taken.has(f.name) &&
        !f.name.startsWith("_") &&
        f.type !== "object" &&
        f.type !== "array" &&
        f.type !== "string[]" &&
        f.distinct >= 2 &&
        f.distinct <= 50,
    )
    .map((f) => f.name)
    .slice(0, 4);
  return { hyp: hypOut, refs, id, slices };
}

/** `name:key=value:key=value` (as `evalkern score --metric`), values typed by the metric's option schema. */
export function parseMetricArg(
  text: string,
  types: (name: string, key: string) => string | undefined,
): { name: string; options: Record<string, unknown> } {
  const [name, ...parts] = text.trim().split(":");
  if (!name) throw new InputError(`metric ${JSON.stringify(text)}: no name`);
  const options: Record<string, unknown> = {};
  for (const p of parts) {
    const eq = p.indexOf("=");
    if (eq <= 0) throw new InputError(`metric ${JSON.stringify(text)}: expected key=value, got ${JSON.stringify(p)}`);
    const key = p.slice(0, eq);
    const raw = p.slice(eq + 1);
    options[key] = typedValue(raw, types(name, key));
  }
  return { name, options };
}

/** A text value typed for an option (`true`/`false`, numbers, comma-separated lists). */
export function typedValue(raw: string, type: string | undefined): unknown {
  if (type === "boolean") {
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    return raw;
  }
  if (type === "integer" || type === "number") {
    const n = Number(raw);
    return raw.trim() !== "" && Number.isFinite(n) ? n : raw;
  }
  if (type === "string[]")
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  return raw;
}
