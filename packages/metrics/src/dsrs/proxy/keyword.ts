// dsrs `KeywordMetric` (proxy.rs:96-218, docs/spec/dsrs.md §2.2).
import { evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { stringField, stringFieldValues } from "../fields.js";
import { checkOptionsObject, checkString, checkStringList, optionalString } from "../options.js";
import { debugStringList } from "../rust.js";

export interface KeywordMetricOptions {
  /** Keywords that should all appear (case-insensitive substrings). Default []. */
  readonly required?: readonly string[];
  /** Keywords that must not appear; the first hit fails. Default []. */
  readonly forbidden?: readonly string[];
  /** Search only this output field. Default: all string fields joined with one space. */
  readonly field?: string;
  /** Default `"keywords"`. */
  readonly name?: string;
}

/**
 * Required and forbidden keywords, as lowercase substrings of the output (dsrs `KeywordMetric`).
 *
 * Details:
 * - Text: the `field`'s string (missing or non-string → `""`), or all string fields joined with `" "`;
 *   lowercased with the full Unicode mapping.
 * - Forbidden first, in list order: `fail("Contains forbidden keyword: <keyword as given>")`.
 * - Then value = found / required.length (duplicates count separately); with missing keywords the details
 *   are `Missing keywords: ["two", "four"]` (Rust `Debug` of the list). No required keywords → 1.0.
 *
 * Gotchas: plain substring matching, no word boundaries (`"tes"` matches `"Testing"`); an empty forbidden
 * keyword is in every text, so `forbidden: [""]` always fails.
 *
 * @example
 * const score = await new KeywordMetric({ required: ["one", "two", "three"] }).evaluate({}, { text: "one three" });
 * score.value;   // 0.6666666666666666
 * score.details; // 'Missing keywords: ["two"]'
 */
export class KeywordMetric implements Metric {
  readonly name: string;
  readonly tier = "proxy" as const;
  readonly costEstimate = 0;
  readonly required: readonly string[];
  readonly forbidden: readonly string[];
  readonly field: string | undefined;

  constructor(options?: KeywordMetricOptions) {
    const o = checkOptionsObject(options, "options", "KeywordMetric", { required: true, forbidden: true, field: true, name: true });
    this.required = checkStringList(o.required, "options.required");
    this.forbidden = checkStringList(o.forbidden, "options.forbidden");
    this.field = optionalString(o.field, "options.field");
    this.name = o.name === undefined ? "keywords" : checkString(o.name, "options.name");
  }

  private options(): KeywordMetricOptions {
    return { required: this.required, forbidden: this.forbidden, field: this.field, name: this.name };
  }

  /** dsrs `require(list)`: **replaces** the required list (dsrs's doc says "add"; the code replaces). */
  require(keywords: readonly string[]): KeywordMetric {
    return new KeywordMetric({ ...this.options(), required: keywords });
  }

  /** dsrs `forbid(list)`: replaces the forbidden list. */
  forbid(keywords: readonly string[]): KeywordMetric {
    return new KeywordMetric({ ...this.options(), forbidden: keywords });
  }

  /** dsrs `in_field(name)`. */
  inField(field: string): KeywordMetric {
    return new KeywordMetric({ ...this.options(), field });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): KeywordMetric {
    return new KeywordMetric({ ...this.options(), name });
  }

  async evaluate(_input: MetricInput, output: MetricInput): Promise<MetricScore> {
    return this.evaluateSync(output);
  }

  evaluateSync(output: MetricInput): MetricScore {
    const text = (this.field === undefined ? stringFieldValues(output).join(" ") : stringField(output, this.field)).toLowerCase();
    for (const keyword of this.forbidden) {
      if (text.includes(keyword.toLowerCase())) return MetricScore.fail(`Contains forbidden keyword: ${keyword}`);
    }
    if (this.required.length === 0) return MetricScore.perfect();
    let found = 0;
    const missing: string[] = [];
    for (const keyword of this.required) {
      if (text.includes(keyword.toLowerCase())) found++;
      else missing.push(keyword);
    }
    const score = MetricScore.new(found / this.required.length);
    return missing.length === 0 ? score : score.withDetails(`Missing keywords: ${debugStringList(missing)}`);
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
