// Adjutant's task metrics (crates/adjutant/src/dspy/metrics.rs, docs/spec/dsrs.md §5): fixed-weight structural
// checks on a prediction, summed in f32. The example is ignored; a missing field reads as "" (§0.2).
import type { FieldSource } from "../contracts/example.js";
import { hasKey, isJsonObject, predictionGet } from "./fields.js";
import { f32, parseRustF64, utf8ByteLength } from "./rust.js";
import { parseJsonSerde } from "./serde-json.js";

/** `(example, prediction) → f32` in [0, 1]. */
export type AdjutantMetric = (example: FieldSource | undefined, prediction: FieldSource) => number;

/** The 32 verbs an actionable instruction starts with (lowercased prefix test, no word boundary). */
export const ACTIONABLE_VERBS: readonly string[] = Object.freeze([
  "add",
  "create",
  "update",
  "modify",
  "remove",
  "delete",
  "implement",
  "write",
  "read",
  "run",
  "test",
  "fix",
  "change",
  "refactor",
  "move",
  "rename",
  "install",
  "configure",
  "set",
  "define",
  "import",
  "export",
  "build",
  "deploy",
  "check",
  "verify",
  "ensure",
  "understand",
  "analyze",
  "find",
  "search",
  "execute",
]);

const VALID_ACTIONS = new Set(["read", "edit", "bash"]);

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  const result = parseJsonSerde(text);
  return result.ok ? { ok: true, value: result.value } : { ok: false };
}

/** The subtask list: a string parsed as a JSON array, or an array; anything else is empty. */
export function subtaskList(value: unknown): readonly unknown[] {
  if (typeof value === "string") {
    const result = parsed(value);
    return result.ok && Array.isArray(result.value) ? result.value : [];
  }
  return Array.isArray(value) ? value : [];
}

/** Every element is an object with `id`, `action`, `target`, `instruction` (any values). `[]` passes. */
export function isValidSubtasksJson(value: unknown): boolean {
  let list: unknown;
  if (typeof value === "string") {
    const result = parsed(value);
    if (!result.ok) return false;
    list = result.value;
  } else list = value;
  if (!Array.isArray(list)) return false;
  return list.every(
    (item) => isJsonObject(item) && hasKey(item, "id") && hasKey(item, "action") && hasKey(item, "target") && hasKey(item, "instruction"),
  );
}

function stringAt(item: unknown, key: string): string {
  if (!isJsonObject(item)) return "";
  const value = item[key];
  return typeof value === "string" ? value : "";
}

/** Non-empty, and every `action` is exactly `read`, `edit` or `bash`. */
export function hasValidActionTypes(subtasks: readonly unknown[]): boolean {
  return (
    subtasks.length > 0 && subtasks.every((item) => isJsonObject(item) && typeof item.action === "string" && VALID_ACTIONS.has(item.action))
  );
}

/** Non-empty; `read`/`edit` targets contain `/` or `.`, no ASCII space, and do not start with `http`; `bash` is free. */
export function hasValidTargetPaths(subtasks: readonly unknown[]): boolean {
  return (
    subtasks.length > 0 &&
    subtasks.every((item) => {
      const action = stringAt(item, "action");
      const target = stringAt(item, "target");
      if (action === "read" || action === "edit") {
        return (target.includes("/") || target.includes(".")) && !target.includes(" ") && !target.startsWith("http");
      }
      return action === "bash";
    })
  );
}

/** Non-empty, and every `instruction` is a string whose lowercase form starts with an actionable verb. */
export function hasActionableInstructions(subtasks: readonly unknown[]): boolean {
  return (
    subtasks.length > 0 &&
    subtasks.every((item) => {
      if (!isJsonObject(item) || typeof item.instruction !== "string") return false;
      const lower = item.instruction.toLowerCase();
      return ACTIONABLE_VERBS.some((verb) => lower.startsWith(verb));
    })
  );
}

/** A string must parse as any JSON value; a non-string passes unless it is null. */
export function isValidResultJson(value: unknown): boolean {
  if (typeof value === "string") return parsed(value).ok;
  return value !== null;
}

/** `old_string` and `new_string`, or `command`, or a non-empty JSON string (a read result). */
export function isValidEditOrCommand(value: unknown): boolean {
  let data = value;
  if (typeof value === "string") {
    const result = parsed(value);
    if (!result.ok) return false;
    data = result.value;
  }
  if (hasKey(data, "old_string") && hasKey(data, "new_string")) return true;
  if (hasKey(data, "command")) return true;
  return typeof data === "string" && data !== "";
}

/** A string of at least `min` UTF-8 bytes (no trimming). */
export function isSubstantiveText(value: unknown, min: number): boolean {
  return typeof value === "string" && utf8ByteLength(value) >= min;
}

/** A string that parses as a JSON array, or an array. */
export function isValidJsonArray(value: unknown): boolean {
  if (typeof value === "string") {
    const result = parsed(value);
    return result.ok && Array.isArray(result.value);
  }
  return Array.isArray(value);
}

/** A number in [0, 1], or a string that parses as f64 (Rust rules) into [0, 1]. NaN fails; −0 passes. */
export function isCalibrated(value: unknown): boolean {
  let number: number | undefined;
  if (typeof value === "number") number = value;
  else if (typeof value === "string") number = parseRustF64(value);
  return number !== undefined && number >= 0 && number <= 1;
}

/** A JSON boolean, or a string whose lowercase form is exactly `true` or `false` (no trimming). */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === "boolean") return true;
  if (typeof value !== "string") return false;
  const lower = value.toLowerCase();
  return lower === "true" || lower === "false";
}

const W025 = f32(0.25);
const W033 = f32(0.33);
const W034 = f32(0.34);
const W06 = f32(0.6);
const W04 = f32(0.4);

function sumChecks(checks: ReadonlyArray<readonly [boolean, number]>): number {
  let score = 0;
  for (const [passed, weight] of checks) if (passed) score = f32(score + weight);
  return score;
}

/**
 * Adjutant `subtask_planning_metric`: valid subtasks JSON, valid action types, valid target paths and
 * actionable instructions, 0.25 each, from `subtasks`.
 *
 * @example
 * subtaskPlanningMetric(undefined, { subtasks: '[{"id":"1","action":"read","target":"src/a.rs","instruction":"Read it"}]' }); // 1
 */
export const subtaskPlanningMetric: AdjutantMetric = (_example, prediction) => {
  const raw = predictionGet(prediction, "subtasks");
  const subtasks = subtaskList(raw);
  return sumChecks([
    [isValidSubtasksJson(raw), W025],
    [hasValidActionTypes(subtasks), W025],
    [hasValidTargetPaths(subtasks), W025],
    [hasActionableInstructions(subtasks), W025],
  ]);
};

/**
 * Adjutant `subtask_execution_metric`: valid `result` JSON (0.33), a valid edit or command in `result`
 * (0.33), `reasoning` of at least 20 bytes (0.34); f32 sums such as 0.6600000262260437.
 */
export const subtaskExecutionMetric: AdjutantMetric = (_example, prediction) => {
  const result = predictionGet(prediction, "result");
  return sumChecks([
    [isValidResultJson(result), W033],
    [isValidEditOrCommand(result), W033],
    [isSubstantiveText(predictionGet(prediction, "reasoning"), 20), W034],
  ]);
};

/**
 * Adjutant `synthesis_metric`: boolean `success`, `summary` of at least 15 bytes, `modified_files` a JSON
 * array, calibrated `confidence`; 0.25 each.
 */
export const synthesisMetric: AdjutantMetric = (_example, prediction) =>
  sumChecks([
    [isBooleanLike(predictionGet(prediction, "success")), W025],
    [isSubstantiveText(predictionGet(prediction, "summary"), 15), W025],
    [isValidJsonArray(predictionGet(prediction, "modified_files")), W025],
    [isCalibrated(predictionGet(prediction, "confidence")), W025],
  ]);

/**
 * Adjutant `tool_step_utility_metric`: calibrated `step_utility`, boolean `should_continue`,
 * `next_action_hint` of at least 6 bytes, calibrated `confidence`; 0.25 each.
 */
export const toolStepUtilityMetric: AdjutantMetric = (_example, prediction) =>
  sumChecks([
    [isCalibrated(predictionGet(prediction, "step_utility")), W025],
    [isBooleanLike(predictionGet(prediction, "should_continue")), W025],
    [isSubstantiveText(predictionGet(prediction, "next_action_hint"), 6), W025],
    [isCalibrated(predictionGet(prediction, "confidence")), W025],
  ]);

/**
 * Adjutant `combined_metric`: planning × 0.6 + synthesis × 0.4 in f32 (execution is per-subtask and left
 * out); 1.0 and 0.25 give 0.7000000476837158.
 */
export const combinedMetric: AdjutantMetric = (example, prediction) =>
  f32(f32(subtaskPlanningMetric(example, prediction) * W06) + f32(synthesisMetric(example, prediction) * W04));
