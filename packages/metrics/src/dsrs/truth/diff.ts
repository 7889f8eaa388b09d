// dsrs `DiffMetric` (truth.rs:257-417, docs/spec/dsrs.md §3.2), with `AstEquivalent` implemented (new behaviour)
// and `Semantic` delegated to an injected judge.
import { checkMsats, evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { InvalidArgumentError } from "../../errors.js";
import { JudgeRequiredError } from "../errors.js";
import { fieldValue } from "../fields.js";
import { checkOptionsObject, checkString, optionalString, optionalUnsigned } from "../options.js";
import { formatFixed1, rustSplitWhitespace } from "../rust.js";
import { compareSyntaxTrees } from "../syntax/check.js";
import { LANGUAGE_LABELS, resolveLanguage, SYNTAX_LANGUAGES, type SyntaxLanguage } from "../syntax/languages.js";

/** dsrs `DiffStrictness`. */
export type DiffStrictness = "Exact" | "NormalizedWhitespace" | "AstEquivalent" | "Semantic";

const STRICTNESSES: readonly DiffStrictness[] = ["Exact", "NormalizedWhitespace", "AstEquivalent", "Semantic"];

/** dsrs: choosing `Semantic` sets the cost to 50 msats. */
export const SEMANTIC_DIFF_COST_MSATS = 50;

/** What a `Semantic` judge sees. */
export interface SemanticDiffRequest {
  readonly expected: string;
  readonly actual: string;
  readonly input: MetricInput;
  readonly output: MetricInput;
}

/**
 * A judge for `Semantic` strictness, e.g. built on `@evalkern/judge`. A number becomes
 * `MetricScore.new(n).withCost(costMsats)`; a `MetricScore` is used as returned.
 */
export type SemanticDiffJudge = (request: SemanticDiffRequest) => Promise<MetricScore | number> | MetricScore | number;

export interface DiffMetricOptions {
  /** Default `"NormalizedWhitespace"` (dsrs's enum default). */
  readonly strictness?: DiffStrictness;
  /** Read the actual text from this output field. Default: the first existing of `output`, `result`, `answer`. */
  readonly field?: string;
  /** Default `"diff"`. */
  readonly name?: string;
  /** The language `AstEquivalent` parses both texts as (required for it; see `SYNTAX_LANGUAGES`). */
  readonly language?: string;
  /** Required for `Semantic`: the judge that decides equivalence. */
  readonly semanticJudge?: SemanticDiffJudge;
  /** Cost in msats. Default 0, or 50 with `Semantic` (dsrs). */
  readonly costMsats?: number;
}

/**
 * dsrs's `strsim_like_ratio` (not a Levenshtein ratio despite its comment): 1.0 for equal strings, 0.0
 * if either is empty, else |A ∩ B| / |A ∪ B| over the sets of distinct code points.
 */
export function charSetSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a === "" || b === "") return 0;
  const setA = new Set(a);
  const setB = new Set(b);
  let intersection = 0;
  for (const char of setA) if (setB.has(char)) intersection++;
  return intersection / (setA.size + setB.size - intersection);
}

/** `split_whitespace().join(" ")` with Unicode White_Space. */
export function normalizeWhitespace(text: string): string {
  return rustSplitWhitespace(text).join(" ");
}

function expectedText(input: MetricInput): string {
  // Fallback to `gold` only when `expected` is absent: `{ expected: 5, gold: "x" }` gives "".
  const expected = fieldValue(input, "expected", "input");
  const value = expected !== undefined ? expected : fieldValue(input, "gold", "input");
  return typeof value === "string" ? value : "";
}

function actualText(output: MetricInput, field: string | undefined): string {
  if (field !== undefined) {
    const value = fieldValue(output, field);
    return typeof value === "string" ? value : "";
  }
  for (const name of ["output", "result", "answer"]) {
    const value = fieldValue(output, name);
    if (value !== undefined) return typeof value === "string" ? value : "";
  }
  return "";
}

/**
 * Compares the output with the expected text from the input (dsrs `DiffMetric`).
 *
 * Details:
 * - Expected: `input.expected` if present, else `input.gold` (a present non-string gives `""`). Actual:
 *   the first present of `output`, `result`, `answer` (or `field`); non-string → `""`.
 * - Expected `""` → 0.5, `"No expected output to compare against"`, cost 0, for every strictness.
 * - `Exact`: code-point equality, else `fail("Exact match failed")`.
 * - `NormalizedWhitespace`: whitespace runs collapsed; equal → 1.0, else the character-set similarity with
 *   `"Normalized comparison: 33.3% similar"` (one decimal, ties to even).
 * - `AstEquivalent` (dsrs: a 0.5 TODO): both texts parsed as `language`; equal trees ignoring layout,
 *   comments, `;`, trailing commas and JS/Python quote style → 1.0; different → 0.0 with the position;
 *   unparsable output → 0.0; unparsable expected text → 0.5 (nothing to compare against).
 * - `Semantic` (dsrs: a 0.5 TODO): the `semanticJudge`; without one, construction throws
 *   `JudgeRequiredError` pointing to `@evalkern/judge`.
 * - Tier truth; confidence 1.0 in every built-in branch.
 *
 * Gotchas: different texts can score 1.0 under `NormalizedWhitespace` (`"aaab"` vs `"ab"`), then with the
 * details `"Normalized comparison: 100.0% similar"`. A field named `code` is never read.
 *
 * @example
 * const score = await new DiffMetric().evaluate({ expected: "abc" }, { output: "abd" });
 * score.value;   // 0.5
 * score.details; // "Normalized comparison: 50.0% similar"
 */
export class DiffMetric implements Metric {
  readonly name: string;
  readonly tier = "truth" as const;
  readonly strictness: DiffStrictness;
  readonly field: string | undefined;
  readonly language: string | undefined;
  readonly parserLanguage: SyntaxLanguage | undefined;
  readonly semanticJudge: SemanticDiffJudge | undefined;
  readonly costMsats: number;

  constructor(options?: DiffMetricOptions) {
    const o = checkOptionsObject(options, "options", "DiffMetric", {
      strictness: true,
      field: true,
      name: true,
      language: true,
      semanticJudge: true,
      costMsats: true,
    });
    const strictness = o.strictness ?? "NormalizedWhitespace";
    if (!STRICTNESSES.includes(strictness)) {
      throw new InvalidArgumentError(`options.strictness must be one of ${STRICTNESSES.join(", ")}`, {
        argument: "options.strictness",
        actual: String(strictness),
      });
    }
    this.strictness = strictness;
    this.field = optionalString(o.field, "options.field");
    this.name = o.name === undefined ? "diff" : checkString(o.name, "options.name");
    this.language = optionalString(o.language, "options.language");
    this.parserLanguage = resolveLanguage(this.language);
    if (o.semanticJudge !== undefined && typeof o.semanticJudge !== "function") {
      throw new InvalidArgumentError("options.semanticJudge must be a function", { argument: "options.semanticJudge" });
    }
    this.semanticJudge = o.semanticJudge;
    this.costMsats = optionalUnsigned(o.costMsats, "options.costMsats") ?? (strictness === "Semantic" ? SEMANTIC_DIFF_COST_MSATS : 0);
    if (strictness === "AstEquivalent" && this.parserLanguage === undefined) {
      throw new InvalidArgumentError(`DiffMetric "AstEquivalent" needs a supported options.language (${SYNTAX_LANGUAGES.join(", ")})`, {
        argument: "options.language",
        actual: String(this.language),
      });
    }
    if (strictness === "Semantic" && this.semanticJudge === undefined) {
      throw new JudgeRequiredError(
        this.name,
        'DiffMetric strictness "Semantic" needs a judge: dsrs only returns a 0.5 placeholder here. Use a ' +
          "judge-backed metric from @evalkern/judge, or pass options.semanticJudge.",
      );
    }
  }

  /** `costEstimate` = the cost (dsrs `cost_estimate()` = `cost_msats`). */
  get costEstimate(): number {
    return this.costMsats;
  }

  private options(): DiffMetricOptions {
    return {
      strictness: this.strictness,
      field: this.field,
      name: this.name,
      language: this.language,
      semanticJudge: this.semanticJudge,
      costMsats: this.costMsats,
    };
  }

  /**
   * dsrs `with_strictness(s)`. Choosing `Semantic` sets the cost to 50; choosing another strictness later
   * keeps it (as in dsrs). Set `language` before `AstEquivalent` and `semanticJudge` before `Semantic`.
   */
  withStrictness(strictness: DiffStrictness): DiffMetric {
    const costMsats = strictness === "Semantic" ? SEMANTIC_DIFF_COST_MSATS : this.costMsats;
    return new DiffMetric({ ...this.options(), strictness, costMsats });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): DiffMetric {
    return new DiffMetric({ ...this.options(), name });
  }

  /** Read the actual text from `field`. */
  inField(field: string): DiffMetric {
    return new DiffMetric({ ...this.options(), field });
  }

  /** The language for `AstEquivalent`. */
  withLanguage(language: string): DiffMetric {
    return new DiffMetric({ ...this.options(), language });
  }

  /** The judge for `Semantic`. */
  withSemanticJudge(judge: SemanticDiffJudge): DiffMetric {
    return new DiffMetric({ ...this.options(), semanticJudge: judge });
  }

  /** Set the cost in msats. */
  withCost(costMsats: number): DiffMetric {
    return new DiffMetric({ ...this.options(), costMsats: checkMsats(costMsats, "costMsats") });
  }

  async evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore> {
    const expected = expectedText(input);
    const actual = actualText(output, this.field);
    if (expected === "") return MetricScore.new(0.5).withDetails("No expected output to compare against");
    switch (this.strictness) {
      case "Exact":
        return expected === actual ? MetricScore.perfect() : MetricScore.fail("Exact match failed");
      case "NormalizedWhitespace": {
        const a = normalizeWhitespace(expected);
        const b = normalizeWhitespace(actual);
        if (a === b) return MetricScore.perfect();
        const similarity = charSetSimilarity(a, b);
        return MetricScore.new(similarity).withDetails(`Normalized comparison: ${formatFixed1(similarity * 100)}% similar`);
      }
      case "AstEquivalent":
        return this.astEquivalent(expected, actual);
      case "Semantic": {
        const judged = await (this.semanticJudge as SemanticDiffJudge)({ expected, actual, input, output });
        return typeof judged === "number" ? MetricScore.new(judged).withCost(this.costMsats) : judged;
      }
    }
  }

  private async astEquivalent(expected: string, actual: string): Promise<MetricScore> {
    const language = this.parserLanguage as SyntaxLanguage;
    const label = LANGUAGE_LABELS[language];
    const result = await compareSyntaxTrees(expected, actual, language);
    switch (result.kind) {
      case "equal":
        return MetricScore.perfect().withCost(this.costMsats);
      case "different":
        return MetricScore.fail(
          `${label} syntax trees differ: first difference at line ${result.line}, column ${result.column} of the output`,
        ).withCost(this.costMsats);
      case "actual-invalid":
        return MetricScore.fail(`Output does not parse: ${result.problem.message}`).withCost(this.costMsats);
      case "expected-invalid":
        return MetricScore.new(0.5)
          .withDetails(`Expected output does not parse, nothing to compare against: ${result.problem.message}`)
          .withCost(this.costMsats);
    }
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
