// dsrs `SyntaxMetric` (proxy.rs:337-480, docs/spec/dsrs.md §2.4), with real per-language parsing (new behaviour).
import { evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { fieldEntries, fieldValue, stringField } from "../fields.js";
import { checkBoolean, checkOptionsObject, checkString, optionalString } from "../options.js";
import { debugCharList } from "../rust.js";
import { checkSyntax } from "../syntax/check.js";
import { resolveLanguage, type SyntaxLanguage } from "../syntax/languages.js";

export interface SyntaxMetricOptions {
  /** In the dsrs scan (no or unknown language): track `(`, `[`, `{`. Default true. */
  readonly checkBalancedBrackets?: boolean;
  /** In the dsrs scan: track `"`, `'`, `` ` `` strings. Default true. */
  readonly checkBalancedQuotes?: boolean;
  /**
   * The code's language. A supported one (see `SYNTAX_LANGUAGES`, aliases such as `ts`, `py`, `rs`) is
   * parsed with its tree-sitter grammar; no language, or an unknown one, keeps dsrs's bracket/quote scan.
   */
  readonly language?: string;
  /** Read the code from this output field. Default: `code`, `output`, `result`, `content`, then the first string field. */
  readonly field?: string;
  /** Default `"syntax"`. */
  readonly name?: string;
}

const CODE_FIELDS = ["code", "output", "result", "content"] as const;

/**
 * dsrs's scan: over code points, a bracket stack plus one "in string" state; a string closes on its own
 * quote unless the previous character is a backslash. Returns the failure message, or undefined.
 * With `quotes` off, quote characters are ordinary; with `brackets` off, brackets are.
 */
export function dsrsBalanceScan(code: string, brackets = true, quotes = true): string | undefined {
  const stack: string[] = [];
  let inString = false;
  let quote = '"';
  let previous = " ";
  for (const char of code) {
    if (inString) {
      if (char === quote && previous !== "\\") inString = false;
    } else if (quotes && (char === '"' || char === "'" || char === "`")) {
      inString = true;
      quote = char;
    } else if (brackets) {
      if (char === "(" || char === "[" || char === "{") stack.push(char);
      else if (char === ")") {
        if (stack.pop() !== "(") return "Unbalanced parentheses";
      } else if (char === "]") {
        if (stack.pop() !== "[") return "Unbalanced brackets";
      } else if (char === "}") {
        if (stack.pop() !== "{") return "Unbalanced braces";
      }
    }
    previous = char;
  }
  if (inString) return "Unclosed string";
  if (stack.length > 0) return `Unclosed brackets: ${debugCharList(stack)}`;
  return undefined;
}

/**
 * Syntax validity of code in the output (dsrs `SyntaxMetric`).
 *
 * Details:
 * - Code: with `field`, that field's string (missing/non-string → `""` → `fail("No code found")`).
 *   Without: the first of `code`, `output`, `result`, `content` that is a string is checked at once, even
 *   when empty (an empty string scans as balanced: 1.0); else the first string field, or
 *   `fail("No code found")` when it is empty or there is none.
 * - No language or an unknown one: dsrs's scan, bit for bit — `"Unbalanced parentheses"`,
 *   `"Unbalanced brackets"`, `"Unbalanced braces"` (chosen by the closer), `"Unclosed string"` (checked
 *   first), `Unclosed brackets: ['(', '[']`.
 * - A supported language: the tree-sitter parse decides, e.g.
 *   `Syntax error (Rust) at line 1, column 22: missing ";"`. JSON follows serde_json's rules. The two
 *   `checkBalanced*` flags only shape the dsrs scan.
 *
 * Gotchas: the dsrs scan looks one character back for escapes (`"a\\"` stays open), treats apostrophes in
 * prose or comments as quotes and knows no comments, regexes or char literals; set a language to avoid
 * that. The first parse loads web-tree-sitter and the grammar (outside Node, see `configureTreeSitter`).
 *
 * @example
 * await new SyntaxMetric().evaluate({}, { code: "{)" });                     // "Unbalanced parentheses"
 * await new SyntaxMetric({ language: "python" }).evaluate({}, { code: "x = 1  # it's fine" }); // 1.0
 */
export class SyntaxMetric implements Metric {
  readonly name: string;
  readonly tier = "proxy" as const;
  readonly costEstimate = 0;
  readonly checkBalancedBrackets: boolean;
  readonly checkBalancedQuotes: boolean;
  /** The language as given. */
  readonly language: string | undefined;
  /** The parser used, or undefined for the dsrs scan. */
  readonly parserLanguage: SyntaxLanguage | undefined;
  readonly field: string | undefined;

  constructor(options?: SyntaxMetricOptions) {
    const o = checkOptionsObject(options, "options", "SyntaxMetric", {
      checkBalancedBrackets: true,
      checkBalancedQuotes: true,
      language: true,
      field: true,
      name: true,
    });
    this.checkBalancedBrackets = checkBoolean(o.checkBalancedBrackets, true, "options.checkBalancedBrackets");
    this.checkBalancedQuotes = checkBoolean(o.checkBalancedQuotes, true, "options.checkBalancedQuotes");
    this.language = optionalString(o.language, "options.language");
    this.parserLanguage = resolveLanguage(this.language);
    this.field = optionalString(o.field, "options.field");
    this.name = o.name === undefined ? "syntax" : checkString(o.name, "options.name");
  }

  private options(): SyntaxMetricOptions {
    return {
      checkBalancedBrackets: this.checkBalancedBrackets,
      checkBalancedQuotes: this.checkBalancedQuotes,
      language: this.language,
      field: this.field,
      name: this.name,
    };
  }

  /** dsrs `language(lang)`: here it selects the parser. */
  withLanguage(language: string): SyntaxMetric {
    return new SyntaxMetric({ ...this.options(), language });
  }

  /** dsrs `in_field(name)`. */
  inField(field: string): SyntaxMetric {
    return new SyntaxMetric({ ...this.options(), field });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): SyntaxMetric {
    return new SyntaxMetric({ ...this.options(), name });
  }

  /** The code dsrs would check, or undefined for `fail("No code found")`. */
  selectCode(output: MetricInput): string | undefined {
    if (this.field !== undefined) {
      const code = stringField(output, this.field);
      return code === "" ? undefined : code;
    }
    for (const name of CODE_FIELDS) {
      const value = fieldValue(output, name);
      if (typeof value === "string") return value;
    }
    const first = fieldEntries(output).find(([, value]) => typeof value === "string");
    const code = first === undefined ? "" : (first[1] as string);
    return code === "" ? undefined : code;
  }

  async evaluate(_input: MetricInput, output: MetricInput): Promise<MetricScore> {
    const code = this.selectCode(output);
    if (code === undefined) return MetricScore.fail("No code found");
    if (this.parserLanguage !== undefined) {
      const problem = await checkSyntax(code, this.parserLanguage);
      return problem === undefined ? MetricScore.perfect() : MetricScore.fail(problem.message);
    }
    const failure = dsrsBalanceScan(code, this.checkBalancedBrackets, this.checkBalancedQuotes);
    return failure === undefined ? MetricScore.perfect() : MetricScore.fail(failure);
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
