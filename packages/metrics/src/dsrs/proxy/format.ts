// dsrs `FormatMetric` (proxy.rs:11-94, docs/spec/dsrs.md §2.1).
import { evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { fieldEntries, fieldValue } from "../fields.js";
import { checkBoolean, checkOptionsObject, checkString, optionalString } from "../options.js";
import { rustTrim } from "../rust.js";
import { isSerdeJson } from "../serde-json.js";

export interface FormatMetricOptions {
  /** Fail with "Output is empty" when no field has content. Default true (dsrs `new()`). */
  readonly requireNonEmpty?: boolean;
  /** Check that string fields that look like JSON (`{`/`[` after trimming) parse. Default false. */
  readonly requireValidJson?: boolean;
  /** Check only this output field. Default: every field (dsrs has no field option). */
  readonly field?: string;
  /** Default `"format"`. */
  readonly name?: string;
}

/**
 * Checks that the output is non-empty and, optionally, that JSON-looking string fields are valid JSON
 * under serde_json's rules (dsrs `FormatMetric`).
 *
 * Details:
 * - Non-empty: some field is a non-string value (null, false, 0, [] and {} all count) or a string that is
 *   non-empty after trimming Unicode White_Space; otherwise `fail("Output is empty")`.
 * - JSON: for each string field whose trimmed text starts with `{` or `[`, the untrimmed text must parse;
 *   otherwise `fail("Field '<name>' contains invalid JSON")`.
 * - Tier proxy, cost 0, confidence 1.0; the input is ignored.
 *
 * Gotchas: U+FEFF is content (not White_Space) and U+0085 is not; a string starting with U+00A0 then `{…}`
 * is checked and fails, because serde_json only skips JSON whitespace.
 *
 * @example
 * const score = await new FormatMetric({ requireValidJson: true }).evaluate({}, { data: "{invalid json}" });
 * score.details; // "Field 'data' contains invalid JSON"
 */
export class FormatMetric implements Metric {
  readonly name: string;
  readonly tier = "proxy" as const;
  readonly costEstimate = 0;
  readonly requireNonEmpty: boolean;
  readonly requireValidJson: boolean;
  readonly field: string | undefined;

  constructor(options?: FormatMetricOptions) {
    const o = checkOptionsObject(options, "options", "FormatMetric", {
      requireNonEmpty: true,
      requireValidJson: true,
      field: true,
      name: true,
    });
    this.requireNonEmpty = checkBoolean(o.requireNonEmpty, true, "options.requireNonEmpty");
    this.requireValidJson = checkBoolean(o.requireValidJson, false, "options.requireValidJson");
    this.field = optionalString(o.field, "options.field");
    this.name = o.name === undefined ? "format" : checkString(o.name, "options.name");
  }

  private options(): FormatMetricOptions {
    return { requireNonEmpty: this.requireNonEmpty, requireValidJson: this.requireValidJson, field: this.field, name: this.name };
  }

  /** dsrs `with_json_check()`: a copy with the JSON check on. */
  withJsonCheck(): FormatMetric {
    return new FormatMetric({ ...this.options(), requireValidJson: true });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): FormatMetric {
    return new FormatMetric({ ...this.options(), name });
  }

  /** Check only `field` (the seed's documented `field` option). */
  inField(field: string): FormatMetric {
    return new FormatMetric({ ...this.options(), field });
  }

  async evaluate(_input: MetricInput, output: MetricInput): Promise<MetricScore> {
    return this.evaluateSync(output);
  }

  /** The same check, synchronously. */
  evaluateSync(output: MetricInput): MetricScore {
    let entries: Array<[string, unknown]>;
    if (this.field === undefined) entries = fieldEntries(output);
    else {
      const value = fieldValue(output, this.field);
      entries = value === undefined ? [] : [[this.field, value]];
    }
    if (this.requireNonEmpty) {
      const hasContent = entries.some(([, value]) => typeof value !== "string" || rustTrim(value) !== "");
      if (!hasContent) return MetricScore.fail("Output is empty");
    }
    if (this.requireValidJson) {
      for (const [name, value] of entries) {
        if (typeof value !== "string") continue;
        const trimmed = rustTrim(value);
        if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && !isSerdeJson(value)) {
          return MetricScore.fail(`Field '${name}' contains invalid JSON`);
        }
      }
    }
    return MetricScore.perfect();
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
