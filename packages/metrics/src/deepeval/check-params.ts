// DeepEval's required-parameter checks (`deepeval/metrics/utils.py`): same order, same messages.
// The message is stored on `metric.error` before the error is thrown, as DeepEval does.
import { InvalidArgumentError } from "../errors.js";
import { ArenaTestCase, assertSharedInputs } from "./arena-test-case.js";
import { ConversationalTestCase } from "./conversational-test-case.js";
import { MissingTestCaseParamsError } from "./errors.js";
import { LLMTestCase } from "./llm-test-case.js";
import { LLM_TEST_CASE_FIELD, LLMTestCaseParams, MultiTurnParams, isLLMTestCaseParam, isMultiTurnParam } from "./params.js";
import { describeValue, englishList } from "./python-compat.js";

/** What the checks need from a metric: its display name, and a place to record the error. */
export interface ParamCheckTarget {
  readonly name: string;
  error: string | null;
}

function rejectUnknownParams(params: readonly unknown[], isParam: (p: unknown) => boolean, kind: string): void {
  params.forEach((param, index) => {
    if (!isParam(param)) {
      throw new InvalidArgumentError(`${describeValue(param)} is not a ${kind}`, {
        argument: "params",
        index,
        expected: kind,
        actual: describeValue(param),
      });
    }
  });
}

/**
 * Check that `testCase` is an `LLMTestCase` with every field in `params` present.
 *
 * Details: as DeepEval's `check_llm_test_case_params`: a non-`LLMTestCase` is rejected
 * (InvalidArgumentError, DeepEval's ValueError); when `actual_output` is required, `""` is rejected
 * with `'actual_output' cannot be empty for the '<metric>' metric`; then every required field that is
 * null/undefined is listed in one `MissingTestCaseParamsError`:
 * `'a' cannot be None for the '<metric>' metric`, `'a' and 'b' …`, `'a', 'b', and 'c' …`.
 *
 * Gotchas: empty lists (`retrievalContext: []`) count as present. The message says `None`, as
 * DeepEval's does, so logs and dashboards match.
 *
 * @example
 * checkLLMTestCaseParams(testCase, [LLMTestCaseParams.INPUT, LLMTestCaseParams.EXPECTED_OUTPUT], metric);
 */
export function checkLLMTestCaseParams(
  testCase: unknown,
  params: readonly LLMTestCaseParams[],
  metric: ParamCheckTarget,
): asserts testCase is LLMTestCase {
  rejectUnknownParams(params, isLLMTestCaseParam, "LLMTestCaseParams value");
  if (!LLMTestCase.isInstance(testCase)) {
    const message =
      `Unable to evaluate test cases that are not of type 'LLMTestCase' ` + `using the non-conversational '${metric.name}' metric.`;
    metric.error = message;
    throw new InvalidArgumentError(message, {
      argument: "testCase",
      expected: "LLMTestCase",
      actual: describeValue(testCase),
    });
  }
  if (params.includes(LLMTestCaseParams.ACTUAL_OUTPUT) && testCase.actualOutput === "") {
    const message = `'actual_output' cannot be empty for the '${metric.name}' metric`;
    metric.error = message;
    throw new MissingTestCaseParamsError(message, [LLMTestCaseParams.ACTUAL_OUTPUT]);
  }
  const missing = params.filter((param) => {
    const value: unknown = testCase[LLM_TEST_CASE_FIELD[param]];
    return value === null || value === undefined;
  });
  if (missing.length > 0) {
    const message = `${englishList(missing.map((p) => `'${p}'`))} cannot be None for the '${metric.name}' metric`;
    metric.error = message;
    throw new MissingTestCaseParamsError(message, missing);
  }
}

/** The conversation-level fields a conversational metric can require, in DeepEval's check order. */
const CONVERSATION_LEVEL: readonly [MultiTurnParams, keyof ConversationalTestCase][] = [
  [MultiTurnParams.EXPECTED_OUTCOME, "expectedOutcome"],
  [MultiTurnParams.SCENARIO, "scenario"],
  [MultiTurnParams.METADATA, "metadata"],
  [MultiTurnParams.TAGS, "tags"],
  [MultiTurnParams.CHATBOT_ROLE, "chatbotRole"],
  // DeepEval stops here; a metric that lists these would otherwise run without them.
  [MultiTurnParams.CONTEXT, "context"],
  [MultiTurnParams.USER_DESCRIPTION, "userDescription"],
];

/**
 * Check that `testCase` is a `ConversationalTestCase` with the conversation-level fields in `params`
 * (and `chatbotRole` when `requireChatbotRole`) present, and at least one turn.
 *
 * Details: DeepEval's `check_conversational_test_case_params`: one error per check, in order
 * `expected_outcome`, `scenario`, `metadata`, `tags`, `chatbot_role`, then `'turns' in conversational
 * test case cannot be empty.`; each message is `'<param>' in a conversational test case cannot be
 * empty for the '<metric>' metric.`. Turn-level parameters (`role`, `content`, `retrieval_context`,
 * `tools_called`) are not checked here, as upstream.
 *
 * Gotchas: evalkern also checks `context` and `user_description` when listed, and `chatbot_role` when
 * listed in `params`; DeepEval checks neither of the first two and `chatbot_role` only by flag.
 */
export function checkConversationalTestCaseParams(
  testCase: unknown,
  params: readonly MultiTurnParams[],
  metric: ParamCheckTarget,
  requireChatbotRole = false,
): asserts testCase is ConversationalTestCase {
  rejectUnknownParams(params, isMultiTurnParam, "MultiTurnParams value");
  if (!ConversationalTestCase.isInstance(testCase)) {
    const message =
      `Unable to evaluate test cases that are not of type 'ConversationalTestCase' ` + `using the conversational '${metric.name}' metric.`;
    metric.error = message;
    throw new InvalidArgumentError(message, {
      argument: "testCase",
      expected: "ConversationalTestCase",
      actual: describeValue(testCase),
    });
  }
  for (const [param, field] of CONVERSATION_LEVEL) {
    const required = params.includes(param) || (param === MultiTurnParams.CHATBOT_ROLE && requireChatbotRole);
    const value: unknown = testCase[field];
    if (required && (value === null || value === undefined)) {
      const message = `'${param}' in a conversational test case cannot be empty for the '${metric.name}' metric.`;
      metric.error = message;
      throw new MissingTestCaseParamsError(message, [param]);
    }
  }
  // Unreachable for a validated ConversationalTestCase; kept for objects that bypassed the constructor.
  if (testCase.turns.length === 0) {
    const message = "'turns' in conversational test case cannot be empty.";
    metric.error = message;
    throw new MissingTestCaseParamsError(message, ["turns"]);
  }
}

/**
 * Check an arena: every contestant has the same `input` and `expectedOutput`, then each contestant's
 * test case passes `checkLLMTestCaseParams` (DeepEval `check_arena_test_case_params`).
 */
export function checkArenaTestCaseParams(
  arenaTestCase: unknown,
  params: readonly LLMTestCaseParams[],
  metric: ParamCheckTarget,
): asserts arenaTestCase is ArenaTestCase {
  if (!ArenaTestCase.isInstance(arenaTestCase)) {
    const actual = describeValue(arenaTestCase);
    throw new InvalidArgumentError(`Expected ArenaTestCase, got ${actual}`, {
      argument: "testCase",
      expected: "ArenaTestCase",
      actual,
    });
  }
  const cases = arenaTestCase.contestants.map((c) => c.testCase);
  assertSharedInputs(cases);
  for (const testCase of cases) checkLLMTestCaseParams(testCase, params, metric);
}
