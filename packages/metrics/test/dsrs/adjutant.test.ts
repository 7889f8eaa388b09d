// docs/spec/dsrs.md §5: the Adjutant task metrics, f32-exact.
import { describe, expect, it } from "vitest";
import {
  ACTIONABLE_VERBS,
  combinedMetric,
  Example,
  Prediction,
  subtaskExecutionMetric,
  subtaskPlanningMetric,
  synthesisMetric,
  toolStepUtilityMetric,
} from "../../src/dsrs/index.js";
import {
  hasActionableInstructions,
  hasValidActionTypes,
  hasValidTargetPaths,
  isBooleanLike,
  isCalibrated,
  isSubstantiveText,
  isValidEditOrCommand,
  isValidJsonArray,
  isValidResultJson,
  isValidSubtasksJson,
  subtaskList,
} from "../../src/dsrs/adjutant.js";

const sub = (action: unknown, target: unknown, instruction: unknown, extra: Record<string, unknown> = {}) => ({
  id: "1",
  action,
  target,
  instruction,
  ...extra,
});

const GOOD_PLAN = JSON.stringify([
  sub("read", "src/main.rs", "Read the entry point"),
  sub("edit", "src/lib.rs", "Add the new function"),
  sub("bash", "", "Run cargo test"),
]);

describe("helpers (§5.1)", () => {
  it("subtask list: a string parsed as a JSON array, an array as is, else empty", () => {
    expect(subtaskList("[1, 2]")).toEqual([1, 2]);
    expect(subtaskList([3])).toEqual([3]);
    expect(subtaskList('{"a": 1}')).toEqual([]);
    expect(subtaskList("not json")).toEqual([]);
    expect(subtaskList({ a: 1 })).toEqual([]);
    expect(subtaskList(5)).toEqual([]);
  });

  it("valid subtasks JSON: every element an object with id, action, target, instruction (any values); [] passes", () => {
    expect(isValidSubtasksJson("[]")).toBe(true);
    expect(isValidSubtasksJson([])).toBe(true);
    expect(isValidSubtasksJson('[{"id": null, "action": 1, "target": [], "instruction": {}}]')).toBe(true);
    expect(isValidSubtasksJson('[{"id": 1, "action": "read", "target": "a.rs"}]')).toBe(false);
    expect(isValidSubtasksJson("[1]")).toBe(false);
    expect(isValidSubtasksJson('{"id": 1}')).toBe(false);
    expect(isValidSubtasksJson("")).toBe(false);
    expect(isValidSubtasksJson(7)).toBe(false);
  });

  it("valid action types: non-empty, each exactly read, edit or bash", () => {
    expect(hasValidActionTypes([sub("read", "a.rs", "x"), sub("bash", "", "x")])).toBe(true);
    expect(hasValidActionTypes([])).toBe(false);
    expect(hasValidActionTypes([sub("Read", "a.rs", "x")])).toBe(false);
    expect(hasValidActionTypes([sub("write", "a.rs", "x")])).toBe(false);
    expect(hasValidActionTypes([{ id: 1 }])).toBe(false);
  });

  it("valid target paths", () => {
    expect(hasValidTargetPaths([sub("read", "src/a", "x")])).toBe(true);
    expect(hasValidTargetPaths([sub("edit", "README.md", "x")])).toBe(true);
    expect(hasValidTargetPaths([sub("read", "a\tb.rs", "x")])).toBe(true);
    expect(hasValidTargetPaths([sub("read", "my file.rs", "x")])).toBe(false);
    expect(hasValidTargetPaths([sub("read", "http://x.io/a", "x")])).toBe(false);
    expect(hasValidTargetPaths([sub("read", "Makefile", "x")])).toBe(false);
    expect(hasValidTargetPaths([sub("edit", 5, "x")])).toBe(false);
    expect(hasValidTargetPaths([{ id: 1, action: "bash" }])).toBe(true);
    expect(hasValidTargetPaths([sub("grep", "a.rs", "x")])).toBe(false);
    expect(hasValidTargetPaths([])).toBe(false);
  });

  it("actionable instructions: a lowercase prefix test with no word boundary", () => {
    expect(ACTIONABLE_VERBS).toHaveLength(32);
    expect(hasActionableInstructions([sub("read", "a.rs", "Address the bug")])).toBe(true);
    expect(hasActionableInstructions([sub("read", "a.rs", "settle it")])).toBe(true);
    expect(hasActionableInstructions([sub("read", "a.rs", "EXECUTE now")])).toBe(true);
    expect(hasActionableInstructions([sub("read", "a.rs", " add leading space")])).toBe(false);
    expect(hasActionableInstructions([sub("read", "a.rs", "Please add")])).toBe(false);
    expect(hasActionableInstructions([sub("read", "a.rs", 5)])).toBe(false);
    expect(hasActionableInstructions([])).toBe(false);
  });

  it("valid result JSON: strings must parse as any JSON value; non-strings pass unless null", () => {
    expect(isValidResultJson("null")).toBe(true);
    expect(isValidResultJson("42")).toBe(true);
    expect(isValidResultJson('""')).toBe(true);
    expect(isValidResultJson("hello")).toBe(false);
    expect(isValidResultJson("")).toBe(false);
    expect(isValidResultJson({ a: 1 })).toBe(true);
    expect(isValidResultJson(false)).toBe(true);
    expect(isValidResultJson(null)).toBe(false);
  });

  it("valid edit or command", () => {
    expect(isValidEditOrCommand('{"old_string": "a", "new_string": "b"}')).toBe(true);
    expect(isValidEditOrCommand('{"old_string": "a"}')).toBe(false);
    expect(isValidEditOrCommand('{"command": null}')).toBe(true);
    expect(isValidEditOrCommand({ command: "ls" })).toBe(true);
    expect(isValidEditOrCommand('"file contents"')).toBe(true);
    expect(isValidEditOrCommand('""')).toBe(false);
    expect(isValidEditOrCommand("plain text")).toBe(false);
    expect(isValidEditOrCommand('[{"command": 1}]')).toBe(false);
    expect(isValidEditOrCommand(42)).toBe(false);
  });

  it("substantive text counts UTF-8 bytes without trimming", () => {
    expect(isSubstantiveText("ééé", 6)).toBe(true);
    expect(isSubstantiveText("éé", 6)).toBe(false);
    expect(isSubstantiveText("      ", 6)).toBe(true);
    expect(isSubstantiveText(123456, 6)).toBe(false);
  });

  it("valid JSON array", () => {
    expect(isValidJsonArray("[]")).toBe(true);
    expect(isValidJsonArray(["a"])).toBe(true);
    expect(isValidJsonArray("{}")).toBe(false);
    expect(isValidJsonArray("")).toBe(false);
  });

  it("calibrated: numbers or Rust-parsed strings in [0, 1]; NaN fails, -0 passes", () => {
    for (const ok of [0, 1, 0.5, -0, "0.5", "1", "1.", ".5", "00.5", "-0", "1e-400", "+0.25"]) expect(isCalibrated(ok)).toBe(true);
    for (const bad of [1.01, -0.1, Number.NaN, " 0.5", "0.5 ", "", "nan", "inf", "1e400", "0x1", true, null, [0.5]]) {
      expect(isCalibrated(bad)).toBe(false);
    }
  });

  it("boolean strings: exact lowercase forms, no trimming; JSON booleans accepted", () => {
    for (const ok of [true, false, "true", "FALSE", "True"]) expect(isBooleanLike(ok)).toBe(true);
    for (const bad of [" true", "yes", "1", 1, null, ""]) expect(isBooleanLike(bad)).toBe(false);
  });
});

describe("subtaskPlanningMetric", () => {
  it("scores 0.25 per check", () => {
    expect(subtaskPlanningMetric(undefined, { subtasks: GOOD_PLAN })).toBe(1);
    expect(subtaskPlanningMetric(undefined, { subtasks: JSON.parse(GOOD_PLAN) })).toBe(1);
    expect(subtaskPlanningMetric(undefined, { subtasks: "[]" })).toBe(0.25);
    expect(subtaskPlanningMetric(undefined, { subtasks: "garbage" })).toBe(0);
    expect(subtaskPlanningMetric(undefined, {})).toBe(0);
    expect(subtaskPlanningMetric(undefined, { subtasks: JSON.stringify([sub("read", "my file", "please read")]) })).toBe(0.5);
    expect(subtaskPlanningMetric(undefined, { subtasks: JSON.stringify([{ action: "read", target: "a.rs", instruction: "Read" }]) })).toBe(
      0.75,
    );
  });

  it("ignores the example and accepts Predictions", () => {
    const prediction = Prediction.from({ subtasks: GOOD_PLAN });
    expect(subtaskPlanningMetric(Example.from({ anything: 1 }), prediction)).toBe(1);
  });
});

describe("subtaskExecutionMetric (f32, run)", () => {
  const reasoning = "x".repeat(20);
  it("0.33 + 0.33 = 0.6600000262260437; 0.33 + 0.34 = 0.6700000166893005; all three = 1.0", () => {
    expect(subtaskExecutionMetric(undefined, { result: '{"command": "ls"}' })).toBe(0.6600000262260437);
    expect(subtaskExecutionMetric(undefined, { result: "42", reasoning })).toBe(0.6700000166893005);
    expect(subtaskExecutionMetric(undefined, { result: '{"command": "ls"}', reasoning })).toBe(1);
  });

  it("single checks are the f32 weights", () => {
    expect(subtaskExecutionMetric(undefined, { result: "42" })).toBe(Math.fround(0.33));
    expect(subtaskExecutionMetric(undefined, { reasoning })).toBe(Math.fround(0.34));
    expect(subtaskExecutionMetric(undefined, { result: "not json", reasoning: "x".repeat(19) })).toBe(0);
  });
});

describe("synthesisMetric", () => {
  const full = { success: "true", summary: "Fixed the parser bug.", modified_files: '["src/a.rs"]', confidence: 0.9 };
  it("scores 0.25 per check", () => {
    expect(synthesisMetric(undefined, full)).toBe(1);
    expect(synthesisMetric(undefined, { ...full, success: true, modified_files: [], confidence: "0.9" })).toBe(1);
    expect(synthesisMetric(undefined, { ...full, success: " true" })).toBe(0.75);
    expect(synthesisMetric(undefined, { ...full, summary: "short" })).toBe(0.75);
    expect(synthesisMetric(undefined, { ...full, modified_files: "src/a.rs" })).toBe(0.75);
    expect(synthesisMetric(undefined, { ...full, confidence: 1.5 })).toBe(0.75);
    expect(synthesisMetric(undefined, {})).toBe(0);
  });
});

describe("toolStepUtilityMetric", () => {
  it("scores 0.25 per check", () => {
    const full = { step_utility: "0.7", should_continue: false, next_action_hint: "run it", confidence: 1 };
    expect(toolStepUtilityMetric(undefined, full)).toBe(1);
    expect(toolStepUtilityMetric(undefined, { ...full, step_utility: -0.5 })).toBe(0.75);
    expect(toolStepUtilityMetric(undefined, { ...full, should_continue: "no" })).toBe(0.75);
    expect(toolStepUtilityMetric(undefined, { ...full, next_action_hint: "go" })).toBe(0.75);
    expect(toolStepUtilityMetric(undefined, { ...full, confidence: "NaN" })).toBe(0.75);
    expect(toolStepUtilityMetric(undefined, {})).toBe(0);
  });
});

describe("combinedMetric (f32, run)", () => {
  it("1.0 × 0.6 + 0.25 × 0.4 = 0.7000000476837158", () => {
    const prediction = { subtasks: GOOD_PLAN, summary: "A long enough summary." };
    expect(subtaskPlanningMetric(undefined, prediction)).toBe(1);
    expect(synthesisMetric(undefined, prediction)).toBe(0.25);
    expect(combinedMetric(undefined, prediction)).toBe(0.7000000476837158);
  });

  it("excludes the execution metric and reads one prediction for both parts", () => {
    expect(combinedMetric(undefined, { subtasks: GOOD_PLAN, result: '{"command": "x"}', reasoning: "r".repeat(30) })).toBe(
      Math.fround(0.6),
    );
    const all = { subtasks: GOOD_PLAN, success: true, summary: "A long enough summary.", modified_files: [], confidence: 0.5 };
    expect(combinedMetric(undefined, all)).toBe(1);
    expect(combinedMetric(undefined, {})).toBe(0);
  });
});
