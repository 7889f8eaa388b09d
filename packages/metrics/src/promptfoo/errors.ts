import { EvalkernError } from "@evalkern/core-wasm";

/** What to run to enable `is-sql` / `contains-sql`. */
export const SQL_PARSER_INSTALL = "npm i node-sql-parser";

/**
 * `is-sql` / `contains-sql` need the optional peer dependency `node-sql-parser` (promptfoo's SQL parser,
 * about 90 MB installed, so it is not a dependency of @evalkern/metrics), and it is not installed.
 */
export class SqlParserNotInstalledError extends EvalkernError {
  override name = "SqlParserNotInstalledError";
  override readonly code: string = "SQL_PARSER_NOT_INSTALLED";
  readonly install: string = SQL_PARSER_INSTALL;
  constructor(options?: { cause?: unknown }) {
    super(`node-sql-parser is not installed: is-sql and contains-sql need it. Install it with \`${SQL_PARSER_INSTALL}\``, options);
  }
}
