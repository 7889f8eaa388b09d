// dsrs `LengthMetric` (proxy.rs:220-335, docs/spec/dsrs.md §2.3).
import { evaluateBatch, MetricScore, type Metric, type MetricInput } from "../../contracts/dsrs-metric.js";
import { stringField, stringFieldValues } from "../fields.js";
import { checkBoolean, checkOptionsObject, checkString, optionalString, optionalUnsigned } from "../options.js";
import { utf8ByteLength } from "../rust.js";

export interface LengthMetricOptions {
  /** Inclusive minimum, in UTF-8 bytes (dsrs calls them "chars"). */
  readonly minChars?: number;
  /** Inclusive maximum, in UTF-8 bytes. `minChars > maxChars` is accepted, as in dsrs. */
  readonly maxChars?: number;
  /** Measure only this output field (missing or non-string → 0). Default: the sum over string fields. */
  readonly field?: string;
  /** Default `"length"`. */
  readonly name?: string;
  /**
   * Graded score near the bounds, as dsrs's docs promise but its code never did: below the minimum
   * `length / minChars`, above the maximum `maxChars / length`. Default false: dsrs's 1.0 / 0.0.
   */
  readonly partialCredit?: boolean;
}

/**
 * Output length bounds in UTF-8 bytes (dsrs `LengthMetric`).
 *
 * Details: minimum first, `fail("Output too short: <len> < <min> chars")`, then maximum,
 * `fail("Output too long: <len> > <max> chars")`, else 1.0. Both bounds are inclusive; with no bounds
 * every output passes, even an empty one. With `partialCredit` the value is graded and the details stay.
 *
 * Gotchas: lengths are UTF-8 bytes, not UTF-16 units: `"éé"` is 4, `"😀"` is 4.
 *
 * @example
 * const score = await new LengthMetric({ minChars: 10 }).evaluate({}, { text: "Short" });
 * score.details; // "Output too short: 5 < 10 chars"
 */
export class LengthMetric implements Metric {
  readonly name: string;
  readonly tier = "proxy" as const;
  readonly costEstimate = 0;
  readonly minChars: number | undefined;
  readonly maxChars: number | undefined;
  readonly field: string | undefined;
  readonly partialCredit: boolean;

  constructor(options?: LengthMetricOptions) {
    const o = checkOptionsObject(options, "options", "LengthMetric", {
      minChars: true,
      maxChars: true,
      field: true,
      name: true,
      partialCredit: true,
    });
    this.minChars = optionalUnsigned(o.minChars, "options.minChars");
    this.maxChars = optionalUnsigned(o.maxChars, "options.maxChars");
    this.field = optionalString(o.field, "options.field");
    this.name = o.name === undefined ? "length" : checkString(o.name, "options.name");
    this.partialCredit = checkBoolean(o.partialCredit, false, "options.partialCredit");
  }

  private options(): LengthMetricOptions {
    return { minChars: this.minChars, maxChars: this.maxChars, field: this.field, name: this.name, partialCredit: this.partialCredit };
  }

  /** dsrs `min(n)`. */
  min(chars: number): LengthMetric {
    return new LengthMetric({ ...this.options(), minChars: chars });
  }

  /** dsrs `max(n)`. */
  max(chars: number): LengthMetric {
    return new LengthMetric({ ...this.options(), maxChars: chars });
  }

  /** dsrs `between(min, max)`. */
  between(min: number, max: number): LengthMetric {
    return new LengthMetric({ ...this.options(), minChars: min, maxChars: max });
  }

  /** dsrs `in_field(name)`. */
  inField(field: string): LengthMetric {
    return new LengthMetric({ ...this.options(), field });
  }

  /** dsrs `with_name(name)`. */
  withName(name: string): LengthMetric {
    return new LengthMetric({ ...this.options(), name });
  }

  /** Turn the graded score near the bounds on (or off). Not in dsrs. */
  withPartialCredit(enabled = true): LengthMetric {
    return new LengthMetric({ ...this.options(), partialCredit: enabled });
  }

  /** The measured length of `output` in UTF-8 bytes. */
  measure(output: MetricInput): number {
    if (this.field !== undefined) return utf8ByteLength(stringField(output, this.field));
    let total = 0;
    for (const text of stringFieldValues(output)) total += utf8ByteLength(text);
    return total;
  }

  async evaluate(_input: MetricInput, output: MetricInput): Promise<MetricScore> {
    return this.evaluateSync(output);
  }

  evaluateSync(output: MetricInput): MetricScore {
    const length = this.measure(output);
    if (this.minChars !== undefined && length < this.minChars) {
      const details = `Output too short: ${length} < ${this.minChars} chars`;
      return this.partialCredit ? MetricScore.new(length / this.minChars).withDetails(details) : MetricScore.fail(details);
    }
    if (this.maxChars !== undefined && length > this.maxChars) {
      const details = `Output too long: ${length} > ${this.maxChars} chars`;
      return this.partialCredit ? MetricScore.new(this.maxChars / length).withDetails(details) : MetricScore.fail(details);
    }
    return MetricScore.perfect();
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
