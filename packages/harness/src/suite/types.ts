// The suite model of `evalkern test` (a promptfoo-style `tests:` / `assert:` file) after loading: every
// test with `defaultTest` merged in, CSV/JSONL tests expanded, prompts and providers normalised.

/** One assertion: a promptfoo type name (with an optional `not-` prefix), a registry metric or a judge metric. */
export interface SuiteAssertion {
  readonly type: string;
  /** promptfoo's `value`: the expected text, a pattern, a list, a rubric... (strings are templated with the vars). */
  readonly value?: unknown;
  /** Pass mark on a 0–1 scale (for metrics and model-graded types). */
  readonly threshold?: number;
  /** Weight in the test's weighted score (default 1; 0 = reported, never failing). */
  readonly weight?: number;
  /** Name the score is reported under (promptfoo's named scores). */
  readonly metric?: string;
  /** Options of the metric or assertion type (registry metric options, judge metric options...). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** promptfoo's `assert-set`: a group with its own threshold whose result counts as one assertion. */
export interface SuiteAssertionSet {
  readonly type: "assert-set";
  readonly assert: readonly SuiteAssertion[];
  readonly threshold?: number;
  readonly weight?: number;
  readonly metric?: string;
}

export type SuiteAssertionOrSet = SuiteAssertion | SuiteAssertionSet;

/** One test after `defaultTest` merge. */
export interface SuiteTest {
  readonly description: string;
  readonly vars: Readonly<Record<string, unknown>>;
  /** A given output: the test is graded on it and nothing is generated. */
  readonly output?: string;
  readonly assert: readonly SuiteAssertionOrSet[];
  /** Test-level pass rule: pass when the weighted score reaches it (else: every assertion must pass). */
  readonly threshold?: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Where the test was written (`evals.yaml tests[2]`, `tests.csv row 3`), for messages. */
  readonly source: string;
}

/** An OpenAI-compatible model that generates outputs from the prompts. */
export interface SuiteProvider {
  /** promptfoo-style id, e.g. `openai:chat:gpt-4o-mini`. */
  readonly id: string;
  readonly label: string;
  readonly model: string;
  /** `chat` (`/v1/chat/completions`) or `completion` (`/v1/completions`). */
  readonly kind: "chat" | "completion";
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export interface SuitePrompt {
  readonly raw: string;
  readonly label: string;
}

export interface Suite {
  readonly description?: string;
  /** The suite file, when loaded from one. */
  readonly path?: string;
  readonly prompts: readonly SuitePrompt[];
  readonly providers: readonly SuiteProvider[];
  readonly tests: readonly SuiteTest[];
}

/** The result of one assertion (or of an `assert-set`, with its children). */
export interface AssertionOutcome {
  readonly type: string;
  readonly pass: boolean;
  /** promptfoo's score in [0, 1] (after `not-` inversion), what the weighted test score averages. */
  readonly score: number;
  /** The metric's own value when it has one (BLEU on 0–100, a judge score...). */
  readonly value?: number | null;
  readonly threshold?: number;
  readonly weight: number;
  readonly metric?: string;
  readonly reason: string;
  /** Set when the assertion could not be evaluated (a failed judge call...): never a made-up score. */
  readonly error?: string;
  readonly children?: readonly AssertionOutcome[];
}

export type TestStatus = "pass" | "fail" | "error";

/** One test run: a test, with a prompt and provider when its output was generated. */
export interface TestOutcome {
  /** Position of the test in the suite (after expansion). */
  readonly index: number;
  readonly description: string;
  readonly source: string;
  readonly provider?: string;
  readonly prompt?: string;
  readonly vars: Readonly<Record<string, unknown>>;
  /** The output graded (null when it could not be generated). */
  readonly output: string | null;
  readonly status: TestStatus;
  readonly pass: boolean;
  readonly score: number;
  readonly reason: string;
  readonly namedScores: Readonly<Record<string, number>>;
  readonly assertions: readonly AssertionOutcome[];
  readonly durationMs: number;
  readonly error?: string;
}

export interface SuiteResult {
  readonly description?: string;
  readonly tests: readonly TestOutcome[];
  readonly stats: { readonly total: number; readonly passed: number; readonly failed: number; readonly errors: number };
  readonly durationMs: number;
}
