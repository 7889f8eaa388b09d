// `--by FIELD` is checked against the rows: a field that no row has (a typo, `--by lnag`) is a usage
// error naming the fields that were seen, never an empty or "(none)"-only slice table.
import { didYouMean } from "@evalkern/metrics/registry";
import { usageError } from "./errors.js";

/** Collects which `--by` fields occur and which top-level fields the rows have. */
export class ByFieldCheck {
  readonly #by: readonly string[];
  readonly #found = new Set<string>();
  readonly #seen = new Set<string>();

  constructor(by: readonly string[]) {
    this.#by = by;
  }

  /** Record one row; `has(field)` tells whether the row has `field` (dotted paths included). */
  row(row: Readonly<Record<string, unknown>>, has: (field: string) => boolean): void {
    if (this.#by.length === 0) return;
    if (this.#seen.size < 200) for (const k of Object.keys(row)) this.#seen.add(k);
    for (const f of this.#by) if (!this.#found.has(f) && has(f)) this.#found.add(f);
  }

  /** Throw the usage error (exit 2) for the first `--by` field that no row has. */
  check(fieldsToHide: ReadonlySet<string> = new Set()): void {
    for (const f of this.#by) {
      if (this.#found.has(f)) continue;
      const seen = [...this.#seen].filter((k) => !k.startsWith("_") && !fieldsToHide.has(k));
      const hint = didYouMean(f, seen);
      throw usageError(
        `--by ${JSON.stringify(f)}: no row has this field${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; the fields ` +
          `seen are: ${seen.join(", ") || "(none)"}`,
      );
    }
  }
}
