// DeepEval's `EvaluationDataset`: goldens (inputs and expected answers) from arrays or JSON, JSONL and
// CSV files, in DeepEval's snake_case or camelCase, and the test cases made from them. Files are read
// through the runtime adapter (`runtime().readFile`: node:fs under the Node entry).
import {
  CONVERSATIONAL_GOLDEN_FIELDS,
  ConversationalGolden,
  type ConversationalTestCase,
  GOLDEN_FIELDS as GOLDEN_FIELD_NAMES,
  Golden,
  type LLMTestCase,
  snakeToCamel,
  type ConversationalGoldenInit,
  type GoldenInit,
  type SnakeCased,
} from "@evalkern/metrics/deepeval";
import { csvObjects } from "../bulk/records.js";
import { DatasetError, InvalidArgumentError } from "../errors.js";
import { runtime } from "../runtime/runtime.js";
import { toTestCase, type TestCaseLike } from "./evaluate.js";

/** A golden, or its fields (snake_case or camelCase). A `scenario` field makes it conversational. */
export type GoldenLike =
  | Golden
  | ConversationalGolden
  | GoldenInit
  | SnakeCased<GoldenInit>
  | ConversationalGoldenInit
  | SnakeCased<ConversationalGoldenInit>;

/** Options of the file loaders. */
export interface LoadGoldensOptions {
  /**
   * Field name → the key (JSON) or column (CSV) it is read from, when the file does not use DeepEval's
   * names, e.g. `{ input: "question", expectedOutput: "answer" }` (DeepEval's `input_key_name`,
   * `input_col_name`...). Keys may be written in camelCase or snake_case.
   */
  readonly keys?: Readonly<Record<string, string>>;
  /** CSV: separator of list cells (`context`, `retrieval_context`, `tags`). Default `";"` (DeepEval's). */
  readonly listDelimiter?: string;
  /**
   * What to do with keys or columns that are not golden fields: `"custom"` (default) keeps them in
   * `customColumnKeyValues` (CSV; JSON values are stringified); `"error"` refuses them.
   */
  readonly extraKeys?: "custom" | "error";
}

const GOLDEN_FIELDS: ReadonlySet<string> = new Set(GOLDEN_FIELD_NAMES);
const CONVERSATIONAL_FIELDS: ReadonlySet<string> = new Set(CONVERSATIONAL_GOLDEN_FIELDS);
const LIST_FIELDS = new Set(["context", "retrievalContext", "tags"]);
const JSON_FIELDS = new Set(["toolsCalled", "expectedTools", "metadata", "additionalMetadata", "turns", "customColumnKeyValues"]);

function toGolden(value: GoldenLike): Golden | ConversationalGolden {
  if (Golden.isInstance(value) || ConversationalGolden.isInstance(value)) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError("a golden must be a Golden or an object of its fields", { argument: "golden" });
  }
  return "scenario" in value ? ConversationalGolden.from(value as ConversationalGoldenInit) : Golden.from(value as GoldenInit);
}

/** Rename a record's keys by `keys` (field ← source key) and to camelCase; split extras off. */
function mapRecord(
  record: Record<string, unknown>,
  options: LoadGoldensOptions,
  where: { path: string; row: number },
  fromCsv: boolean,
): Record<string, unknown> {
  const renamed: Record<string, string> = {};
  for (const [field, source] of Object.entries(options.keys ?? {})) renamed[source] = snakeToCamel(field);
  const out: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  const conversational = Object.keys(record).some((key) => (renamed[key] ?? snakeToCamel(key)) === "scenario");
  const known = conversational ? CONVERSATIONAL_FIELDS : GOLDEN_FIELDS;
  for (const [key, raw] of Object.entries(record)) {
    const field = renamed[key] ?? snakeToCamel(key);
    if (!known.has(field)) {
      if (options.extraKeys === "error") {
        throw new DatasetError(`${where.path}: row ${where.row}: '${key}' is not a golden field`, where);
      }
      if (raw !== undefined && raw !== null && raw !== "") custom[key] = typeof raw === "string" ? raw : JSON.stringify(raw);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(out, field)) {
      throw new DatasetError(`${where.path}: row ${where.row}: two keys map to the field '${field}'`, where);
    }
    out[field] = fromCsv ? csvValue(field, raw as string, options.listDelimiter ?? ";", where) : raw;
  }
  if (Object.keys(custom).length > 0) {
    out.customColumnKeyValues = { ...(out.customColumnKeyValues as Record<string, string> | undefined), ...custom };
  }
  if (out.sourceFile === undefined || out.sourceFile === null) out.sourceFile = where.path;
  return out;
}

/** A CSV cell as a field value: empty = absent; lists split on the delimiter; structured fields as JSON. */
function csvValue(field: string, cell: string, delimiter: string, where: { path: string; row: number }): unknown {
  if (cell === undefined || cell === "") return null;
  if (LIST_FIELDS.has(field))
    return cell
      .split(delimiter)
      .map((item) => item.trim())
      .filter((item) => item !== "");
  if (JSON_FIELDS.has(field)) {
    const text = cell.trim();
    if (text.startsWith("[") || text.startsWith("{")) {
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new DatasetError(`${where.path}: row ${where.row}: column for '${field}' is not valid JSON (${(error as Error).message})`, {
          ...where,
          cause: error,
        });
      }
    }
    // tools as a delimited list of names (DeepEval's CSV form)
    if (field === "toolsCalled" || field === "expectedTools") {
      return text
        .split(delimiter)
        .map((name) => ({ name: name.trim() }))
        .filter((tool) => tool.name !== "");
    }
    throw new DatasetError(`${where.path}: row ${where.row}: column for '${field}' must hold JSON`, where);
  }
  if (field === "multimodal") return cell.trim().toLowerCase() === "true";
  return cell;
}

async function readText(path: string): Promise<string> {
  if (typeof path !== "string" || path === "") throw new InvalidArgumentError("path must be a non-empty string", { argument: "path" });
  try {
    // through the runtime adapter (node:fs under the package entry), so this module stays runtime-neutral
    return new TextDecoder("utf-8").decode(await runtime().readFile(path)).replace(/^\uFEFF/, "");
  } catch (error) {
    throw new DatasetError(`cannot read ${path}: ${(error as Error).message}`, { path, cause: error });
  }
}

function build(
  record: unknown,
  options: LoadGoldensOptions,
  where: { path: string; row: number },
  fromCsv: boolean,
): Golden | ConversationalGolden {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    throw new DatasetError(`${where.path}: row ${where.row}: a golden must be a JSON object`, where);
  }
  try {
    return toGolden(mapRecord(record as Record<string, unknown>, options, where, fromCsv) as GoldenLike);
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    throw new DatasetError(`${where.path}: row ${where.row}: ${(error as Error).message}`, { ...where, cause: error });
  }
}

/**
 * A set of goldens and test cases (DeepEval `EvaluationDataset`).
 *
 * When to use: keep the inputs of an evaluation in a file (JSON array, JSONL, CSV) in DeepEval's
 * column names, run your application on each golden, and pass the test cases to `evaluate`.
 *
 * Details: single-turn goldens (`Golden`) and conversational ones (`ConversationalGolden`, any record
 * with a `scenario`) live side by side. Files: JSON is an array of objects (or `{ "goldens": [...] }`);
 * JSONL one object per line (blank lines skipped); CSV has a header row, empty cells are absent, list
 * columns (`context`, `retrieval_context`, `tags`) are split on `listDelimiter` (`;`), and tool and
 * metadata columns hold JSON. Keys not golden fields are kept in `customColumnKeyValues` (or refused
 * with `extraKeys: "error"`). A bad row is a `DatasetError` naming the file and row; nothing is loaded
 * from that file then. `sourceFile` defaults to the file's path.
 *
 * @example
 * const dataset = new EvaluationDataset();
 * await dataset.addGoldensFromJsonlFile("goldens.jsonl");
 * const testCases = dataset.goldens.map((golden) => (golden as Golden).toTestCase({ actualOutput: myApp(golden.input) }));
 * const result = await evaluate(testCases, [metric]);
 */
export class EvaluationDataset {
  private readonly goldenList: (Golden | ConversationalGolden)[] = [];
  private readonly testCaseList: (LLMTestCase | ConversationalTestCase)[] = [];

  constructor(init: { goldens?: readonly GoldenLike[]; testCases?: readonly TestCaseLike[] } | readonly GoldenLike[] = {}) {
    const { goldens = [], testCases = [] } = Array.isArray(init)
      ? { goldens: init as readonly GoldenLike[] }
      : (init as { goldens?: readonly GoldenLike[]; testCases?: readonly TestCaseLike[] });
    this.addGoldens(goldens);
    for (const testCase of testCases) this.addTestCase(testCase);
  }

  /** A dataset of goldens from an array (objects in snake_case or camelCase). */
  static fromArray(goldens: readonly GoldenLike[]): EvaluationDataset {
    return new EvaluationDataset({ goldens });
  }

  /** A dataset loaded from a `.json`, `.jsonl` / `.ndjson` or `.csv` file (by extension). */
  static async fromFile(path: string, options: LoadGoldensOptions = {}): Promise<EvaluationDataset> {
    const dataset = new EvaluationDataset();
    const lower = path.toLowerCase();
    if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) await dataset.addGoldensFromJsonlFile(path, options);
    else if (lower.endsWith(".json")) await dataset.addGoldensFromJsonFile(path, options);
    else if (lower.endsWith(".csv")) await dataset.addGoldensFromCsvFile(path, options);
    else throw new DatasetError(`${path}: unknown dataset format (expected .json, .jsonl or .csv)`, { path });
    return dataset;
  }

  get goldens(): readonly (Golden | ConversationalGolden)[] {
    return [...this.goldenList];
  }

  get testCases(): readonly (LLMTestCase | ConversationalTestCase)[] {
    return [...this.testCaseList];
  }

  get length(): number {
    return this.goldenList.length;
  }

  addGolden(golden: GoldenLike): this {
    this.goldenList.push(toGolden(golden));
    return this;
  }

  addGoldens(goldens: readonly GoldenLike[]): this {
    if (!Array.isArray(goldens)) throw new InvalidArgumentError("goldens must be an array", { argument: "goldens" });
    const built = goldens.map((golden, index) => {
      try {
        return toGolden(golden);
      } catch (error) {
        throw new DatasetError(`goldens[${index}]: ${(error as Error).message}`, { row: index + 1, cause: error });
      }
    });
    this.goldenList.push(...built);
    return this;
  }

  addTestCase(testCase: TestCaseLike): this {
    this.testCaseList.push(toTestCase(testCase));
    return this;
  }

  /** Goldens from a JSON file: an array of objects, or an object with a `goldens` array. */
  async addGoldensFromJsonFile(path: string, options: LoadGoldensOptions = {}): Promise<this> {
    const text = await readText(path);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new DatasetError(`${path}: not valid JSON (${(error as Error).message})`, { path, cause: error });
    }
    const rows = Array.isArray(data) ? data : (data as { goldens?: unknown } | null)?.goldens;
    if (!Array.isArray(rows)) throw new DatasetError(`${path}: expected a JSON array of goldens (or {"goldens": [...]})`, { path });
    const built = rows.map((row, index) => build(row, options, { path, row: index + 1 }, false));
    this.goldenList.push(...built);
    return this;
  }

  /** Goldens from a JSONL file, one object per line. */
  async addGoldensFromJsonlFile(path: string, options: LoadGoldensOptions = {}): Promise<this> {
    const text = await readText(path);
    const built: (Golden | ConversationalGolden)[] = [];
    text.split(/\r?\n/).forEach((line, index) => {
      if (line.trim() === "") return;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch (error) {
        throw new DatasetError(`${path}: line ${index + 1}: not valid JSON (${(error as Error).message})`, {
          path,
          row: index + 1,
          cause: error,
        });
      }
      built.push(build(row, options, { path, row: index + 1 }, false));
    });
    this.goldenList.push(...built);
    return this;
  }

  /** Goldens from a CSV file with a header row (DeepEval's column names by default). */
  async addGoldensFromCsvFile(path: string, options: LoadGoldensOptions = {}): Promise<this> {
    const text = await readText(path);
    let rows: Record<string, string>[];
    try {
      rows = csvObjects(text, path, { columns: "strict" }).map((r) => r.value);
    } catch (error) {
      throw new DatasetError(`${path}: not valid CSV (${(error as Error).message})`, { path, cause: error });
    }
    const built = rows.map((row, index) => build(row, options, { path, row: index + 1 }, true));
    this.goldenList.push(...built);
    return this;
  }
}
