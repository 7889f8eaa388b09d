/**
 * `@evalkern/metrics/registry/rules`: DSPy, evalwire and autoevals rule metrics whose own signature is not
 * `(hypothesis, references, options)`, wrapped so that it is — the functions the registry's rule specs
 * name (`{ metric: "module", module: "@evalkern/metrics/registry/rules", export, call: "pair" }`).
 *
 * Every wrapper is synchronous; evaluators are constructed once per option set, not once per row. They
 * live in `./groups/`, one module per group: the registry loads only the group of a rule on its first
 * use (`loadMetrics`), so a rule that needs no Python `re` port loads without it. This module gathers
 * them for callers (and worker threads) that name the public subpath.
 */
export { answerExactMatch, answerPassageMatch } from "./groups/dspy.js";
export {
  evalwireExactMatch,
  evalwireContains,
  evalwireMembership,
  evalwireJsonMatch,
  evalwireNumericTolerance,
} from "./groups/evalwire.js";
export { evalwireRegex } from "./groups/evalwire-regex.js";
export { numericDiff, jsonDiff } from "./groups/autoevals.js";
export { autoevalsExactMatch, validJson } from "./groups/autoevals-json.js";
