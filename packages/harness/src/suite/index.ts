// `evalkern test` as a library: promptfoo-style suite files loaded, run and graded.
export * from "./types.js";
export { loadSuite, loadSuiteSync, parseSuite, assertionFromString } from "./load.js";
export {
  runSuite,
  runSuiteCase,
  suiteCases,
  suiteNeeds,
  suiteGenerator,
  aggregateOutcomes,
  type SuiteGenerator,
  type RunSuiteOptions,
  type SuiteCase,
} from "./run.js";
export {
  evaluateAssertion,
  resolveAssertionType,
  knownAssertionTypes,
  typeNeedsJudge,
  type AssertionContext,
  type AssertionKind,
  type ResolvedType,
} from "./assertions.js";
export { renderTemplate, templateVars, templateProblem } from "./template.js";
