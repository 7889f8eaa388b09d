// Rule group "promptfoo-sql" (see ../rules.ts): is-sql and contains-sql over node-sql-parser, an optional
// peer dependency: importing the group loads the parser (or fails with SqlParserNotInstalledError), so the
// synchronous rule functions find it loaded.
import { loadSqlParser } from "../../promptfoo/sql.js";

await loadSqlParser();

export { isSql, containsSql } from "../../promptfoo/sql.js";
