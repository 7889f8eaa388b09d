/**
 * `@evalkern/metrics/promptfoo`: promptfoo's deterministic assertion types as functions of
 * `(output, references, options, row)` — the functions the registry's rules of the same names call
 * (`contains-any`, `word-count`, `is-sql`, `perplexity`, ...). The assertion's `value` is the `value`
 * option, else the references; the rules that read the call's record (`finish-reason`, `perplexity`,
 * `perplexity-score`, `cost`, `latency`) read the row's `finishReason`, `logprobs`, `cost` and `latencyMs`.
 * `is-sql`/`contains-sql` need the optional peer `node-sql-parser`: `await loadSqlParser()` first.
 */
export { containsAll, containsAny, icontainsAll, icontainsAny, startsWith, wordCount, countWords, isRefusal } from "./text.js";
export { finishReason, perplexity, perplexityScore, cost, latency, rowLogprobs } from "./text.js";
export { containsJson, extractJsonValues, isValidOpenaiFunctionCall, isValidOpenaiToolsCall } from "./json.js";
export { isXml, containsXml, isHtml, containsHtml } from "./markup.js";
export { isSql, containsSql, loadSqlParser } from "./sql.js";
export { SqlParserNotInstalledError, SQL_PARSER_INSTALL } from "./errors.js";
export { commaSeparated } from "./values.js";
