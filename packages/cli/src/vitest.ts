/**
 * `@evalkern/cli/vitest`: kept for compatibility. The vitest matchers live in the small package
 * `@evalkern/vitest` (which needs only `@evalkern/metrics` and `@evalkern/core-wasm`); importing this
 * module imports that one, so `expect` gets `toScoreAtLeast` / `toScoreAtMost` the same way.
 *
 * @example
 * import { expect, test } from "vitest";
 * import "@evalkern/vitest"; // or, as before, "@evalkern/cli/vitest"
 */
import "@evalkern/vitest";

export { evalScore, evalkernMatchers, type MatcherMetric, type ScoreOptions } from "@evalkern/vitest";
