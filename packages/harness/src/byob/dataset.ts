// BYOB datasets (contrib/byob/dataset.py): local JSONL (and .json treated as JSONL) or CSV/TSV with a
// header row, or an `hf://dataset[/config[/split]][?split=x]` URI fetched from the Hugging Face
// datasets-server rows API. Offline, an `hf://` URI fails with `NoNetworkError` naming what to do.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { csvObjects } from "../bulk/records.js";
import { NoNetworkError } from "../errors.js";
import { runtime } from "../runtime/runtime.js";

export type Row = Record<string, unknown>;

export interface LoadDatasetOptions {
  /** Keep only the first `limit` rows. */
  readonly limit?: number;
  /** Rename fields: { sourceKey: targetKey } (BYOB `field_mapping`). */
  readonly fieldMapping?: Readonly<Record<string, string>>;
  /** Datasets-server base URL for `hf://` (default https://datasets-server.huggingface.co). */
  readonly hubUrl?: string;
  /** Hugging Face token for gated/private datasets. */
  readonly hfToken?: string;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

export const DEFAULT_HUB_URL = "https://datasets-server.huggingface.co";

/** `hf://name[/config[/split]][?split=x]` → (dataset, config, split), as BYOB's `_parse_uri`. */
export function parseHfUri(uri: string): { dataset: string; config: string | undefined; split: string | undefined } {
  let body = uri.slice("hf://".length);
  if (!body) throw new InvalidArgumentError(`Invalid HuggingFace URI (empty body): ${uri}`, { argument: "dataset" });
  let querySplit: string | undefined;
  const q = body.indexOf("?");
  if (q >= 0) {
    for (const param of body.slice(q + 1).split("&")) if (param.startsWith("split=")) querySplit = param.slice(6);
    body = body.slice(0, q);
  }
  const seg = body.split("/").filter(Boolean);
  if (seg.length === 0) throw new InvalidArgumentError(`Invalid HuggingFace URI (empty body): ${uri}`, { argument: "dataset" });
  if (seg.length === 1) return { dataset: seg[0]!, config: undefined, split: querySplit };
  if (seg.length === 2) return { dataset: seg.join("/"), config: undefined, split: querySplit };
  if (seg.length === 3) return { dataset: `${seg[0]}/${seg[1]}`, config: seg[2], split: querySplit };
  return { dataset: `${seg[0]}/${seg[1]}`, config: seg[2], split: querySplit ?? seg[3] };
}

const decoder = new TextDecoder("utf-8");

function loadJsonl(text: string, path: string, limit: number | undefined): Row[] {
  const out: Row[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      throw new InvalidArgumentError(`Line ${i + 1} in ${path} is not valid JSON: ${(e as Error).message}`, {
        argument: "dataset",
        index: i + 1,
      });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new InvalidArgumentError(`Line ${i + 1} in ${path} is not a JSON object: ${Array.isArray(parsed) ? "list" : typeof parsed}`, {
        argument: "dataset",
        index: i + 1,
      });
    }
    out.push(parsed as Row);
    if (limit && out.length >= limit) break;
  }
  return out;
}

function loadCsv(text: string, path: string, delimiter: string, limit: number | undefined): Row[] {
  // Python csv.DictReader: a header row; quotes on for TSV too (Python's default dialect); short rows
  // lack the missing keys (Python gives None), long rows' extras are dropped (Python keeps them under None)
  const records: Row[] = csvObjects(text, path, { delimiter, quote: true, columns: "relaxed" }).map((r) => r.value);
  return limit ? records.slice(0, limit) : records;
}

function isNetworkFailure(e: unknown): boolean {
  const err = e as { name?: string; cause?: { code?: string }; code?: string };
  const code = err?.cause?.code ?? err?.code;
  return (
    err?.name === "TypeError" ||
    [
      "ENOTFOUND",
      "EAI_AGAIN",
      "ECONNREFUSED",
      "ENETUNREACH",
      "EHOSTUNREACH",
      "ECONNRESET",
      "ETIMEDOUT",
      "UND_ERR_CONNECT_TIMEOUT",
    ].includes(code ?? "")
  );
}

async function hubGet(url: string, options: LoadDatasetOptions, uri: string): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, {
      headers: options.hfToken ? { authorization: `Bearer ${options.hfToken}` } : {},
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    if (isNetworkFailure(e)) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new NoNetworkError(
        `${uri}: no network access: could not reach the Hugging Face datasets server at ${new URL(url).origin} (${cause}). ` +
          "Download the dataset to a local JSONL/CSV file and pass its path, or run where the Hub is reachable (hubUrl selects a mirror).",
        url,
      );
    }
    throw e;
  }
  const text = await res.text();
  if (!res.ok)
    throw new InvalidArgumentError(`${uri}: the Hugging Face datasets server answered ${res.status}: ${text.slice(0, 300)}`, {
      argument: "dataset",
    });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidArgumentError(`${uri}: the Hugging Face datasets server sent a malformed body`, { argument: "dataset" });
  }
}

async function loadHf(uri: string, options: LoadDatasetOptions): Promise<Row[]> {
  const { dataset, config: cfg, split: sp } = parseHfUri(uri);
  const hub = (options.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, "");
  let config = cfg;
  let split = sp;
  if (config === undefined || split === undefined) {
    const body = (await hubGet(`${hub}/splits?dataset=${encodeURIComponent(dataset)}`, options, uri)) as {
      splits?: { config: string; split: string }[];
    };
    const splits = body.splits ?? [];
    const cands = splits.filter((s) => config === undefined || s.config === config);
    if (cands.length === 0)
      throw new InvalidArgumentError(`${uri}: no split found${config ? ` for config ${config}` : ""}`, { argument: "dataset" });
    config ??= cands[0]!.config;
    // no split given: the first available one, as `load_dataset` then `next(iter(DatasetDict))`
    split ??= cands.find((s) => s.config === config)!.split;
  }
  const out: Row[] = [];
  const page = 100;
  for (let offset = 0; ; offset += page) {
    const want = options.limit ? Math.min(page, options.limit - out.length) : page;
    if (want <= 0) break;
    const url =
      `${hub}/rows?dataset=${encodeURIComponent(dataset)}&config=${encodeURIComponent(config)}&split=` +
      `${encodeURIComponent(split)}&offset=${offset}&length=${want}`;
    const body = (await hubGet(url, options, uri)) as { rows?: { row: Row }[]; num_rows_total?: number };
    const rows = body.rows ?? [];
    for (const r of rows) out.push(r.row);
    if (rows.length < want || (body.num_rows_total !== undefined && offset + rows.length >= body.num_rows_total)) break;
  }
  return out;
}

/**
 * BYOB `load_dataset(uri, limit, field_mapping)`.
 * @example await loadDataset("data/qa.jsonl", { limit: 100 })
 * @example await loadDataset("hf://google/boolq?split=validation")
 */
export async function loadDataset(uri: string, options: LoadDatasetOptions = {}): Promise<Row[]> {
  if (typeof uri !== "string" || !uri) throw new InvalidArgumentError("dataset must be a path or an hf:// URI", { argument: "dataset" });
  if (options.limit !== undefined && (!Number.isSafeInteger(options.limit) || options.limit < 1))
    throw new InvalidArgumentError("limit must be a positive integer", { argument: "limit" });
  let rows: Row[];
  if (uri.startsWith("hf://")) rows = await loadHf(uri, options);
  else {
    let bytes: Uint8Array;
    try {
      bytes = await runtime().readFile(uri);
    } catch (e) {
      throw new InvalidArgumentError(`Dataset not found: ${uri} (${(e as Error).message})`, { argument: "dataset" });
    }
    const text = decoder.decode(bytes);
    const lower = uri.toLowerCase();
    if (lower.endsWith(".csv")) rows = loadCsv(text, uri, ",", options.limit);
    else if (lower.endsWith(".tsv")) rows = loadCsv(text, uri, "\t", options.limit);
    else rows = loadJsonl(text, uri, options.limit);
  }
  const mapping = options.fieldMapping;
  if (mapping) rows = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [mapping[k] ?? k, v])));
  return rows;
}
