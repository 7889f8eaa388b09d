// promptfoo's SQL assertions as pair rules (promptfoo/promptfoo src/assertions/sql.ts): the output parses
// as SQL of the dialect (`databaseType`, default MySQL) with node-sql-parser, and names only allowed tables
// and columns when whitelists are given (node-sql-parser's whitelist check: entries like
// `select::null::users`, `select::users::name`). node-sql-parser is an optional peer dependency (about
// 90 MB installed): `loadSqlParser()` imports it, and the registry calls it when the rule is first used.
import { MetricNotLoadedError } from "../registry/errors.js";
import { SqlParserNotInstalledError } from "./errors.js";
import { assertionValue, badValue, jsonish, type Options } from "./values.js";

interface SqlParser {
  astify(sql: string, options?: { database?: string; type?: string }): unknown;
  whiteListCheck(sql: string, list: readonly string[], options?: { database?: string; type?: string }): unknown;
}
type ParserClass = new () => SqlParser;

let parser: SqlParser | undefined;
let loading: Promise<void> | undefined;

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** Import node-sql-parser (once). Throws `SqlParserNotInstalledError` when it is not installed. */
export function loadSqlParser(): Promise<void> {
  return (loading ??= import("node-sql-parser").then(
    (m: unknown) => {
      const mod = m as { Parser?: ParserClass; default?: { Parser?: ParserClass } };
      const Parser = mod.Parser ?? mod.default?.Parser;
      if (typeof Parser !== "function") throw new SqlParserNotInstalledError({ cause: new Error("node-sql-parser has no Parser export") });
      parser = new Parser();
    },
    (error: unknown) => {
      loading = undefined;
      throw isModuleNotFound(error) ? new SqlParserNotInstalledError({ cause: error }) : error;
    },
  ));
}

function sqlParser(type: string): SqlParser {
  if (!parser) {
    const message = `${type}: node-sql-parser is not loaded in this thread: await loadSqlParser() (or loadMetrics(["${type}"])) first`;
    throw new MetricNotLoadedError(type, message);
  }
  return parser;
}

interface SqlSettings {
  readonly database: string;
  readonly tables?: readonly string[];
  readonly columns?: readonly string[];
}

function list(type: string, v: unknown, key: string): readonly string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw badValue(type, `${key} must be a list of strings`);
  return v.map(String);
}

/** promptfoo's value `{ databaseType, allowedTables, allowedColumns }`, or the same keys as options (`dialect` too). */
function settings(type: string, references: readonly string[], options: Options): SqlSettings {
  const raw = jsonish(assertionValue(references, options));
  if (raw !== undefined && raw !== null && raw !== "" && (typeof raw !== "object" || Array.isArray(raw))) {
    throw badValue(type, "the value must be an object { databaseType, allowedTables, allowedColumns }");
  }
  const v = { ...((raw as Options | undefined) ?? {}), ...options };
  const database = v.databaseType ?? v.dialect ?? "MySQL";
  if (typeof database !== "string") throw badValue(type, "databaseType must be a string (MySQL, PostgresQL, BigQuery, ...)");
  const tables = list(type, v.allowedTables, "allowedTables");
  const columns = list(type, v.allowedColumns, "allowedColumns");
  return { database, ...(tables ? { tables } : {}), ...(columns ? { columns } : {}) };
}

function passes(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch {
    return false;
  }
}

function validSql(type: string, sql: string, s: SqlSettings): boolean {
  const p = sqlParser(type);
  const database = s.database;
  let ok = passes(() => p.astify(sql, { database }));
  if (s.tables) ok = passes(() => p.whiteListCheck(sql, s.tables!, { database, type: "table" })) && ok;
  if (s.columns) ok = passes(() => p.whiteListCheck(sql, s.columns!, { database, type: "column" })) && ok;
  return ok;
}

/** `is-sql`: the whole output is SQL of the dialect, naming only allowed tables/columns when given. */
export function isSql(output: string, references: readonly string[], options: Options = {}): boolean {
  return validSql("is-sql", output, settings("is-sql", references, options));
}

/** `contains-sql`: as `is-sql` on the first fenced code block of the output (```sql ... ```), else on the whole output. */
export function containsSql(output: string, references: readonly string[], options: Options = {}): boolean {
  const fenced = /```(?:sql)?([^`]+)```/.exec(output);
  return validSql("contains-sql", fenced ? fenced[1]!.trim() : output, settings("contains-sql", references, options));
}
