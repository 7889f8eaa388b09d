// JUnit XML of an `evalkern test` run, the format CI systems read (GitLab, Jenkins, GitHub test reporters):
// `testsuites` > `testsuite` > `testcase`, a failed test with `<failure>`, a test that could not be run
// (no output, a failed judge call) with `<error>`, counts and times in seconds. Text is escaped for XML 1.0:
// the five entities, and characters XML 1.0 cannot carry (most C0 controls, lone surrogates) as U+FFFD.
import type { AssertionOutcome, SuiteResult, TestOutcome } from "@evalkern/harness";

/** `value` escaped for XML text and attribute values. */
export function xmlEscape(value: string): string {
  return value
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      "\uFFFD",
    )
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testName(t: TestOutcome): string {
  return [t.description, t.provider, t.prompt].filter((x) => x !== undefined).join(" · ");
}

function assertionLines(outcomes: readonly AssertionOutcome[], indent = ""): string[] {
  return outcomes.flatMap((a) => [
    `${indent}${a.pass ? "PASS" : "FAIL"} ${a.type} (score ${a.score.toFixed(4)}): ${a.reason}`,
    ...assertionLines(a.children ?? [], `${indent}  `),
  ]);
}

function testCase(t: TestOutcome, className: string): string {
  const open = `    <testcase name="${xmlEscape(testName(t))}" classname="${xmlEscape(className)}" time="${seconds(t.durationMs)}"`;
  if (t.status === "pass") return `${open}/>`;
  const tag = t.status === "error" ? "error" : "failure";
  const details = [...assertionLines(t.assertions), "", `output: ${t.output ?? "(none)"}`].join("\n");
  const type = t.status === "error" ? "EvalError" : "AssertionFailure";
  return `${open}>\n      <${tag} message="${xmlEscape(t.reason)}" type="${type}">${xmlEscape(details)}</${tag}>\n    </testcase>`;
}

/** The JUnit XML document of a suite run; `name` names the suite (the suite file). */
export function junitXml(result: SuiteResult, name: string): string {
  const { total, failed, errors } = result.stats;
  const counts = `tests="${total}" failures="${failed}" errors="${errors}" skipped="0" time="${seconds(result.durationMs)}"`;
  const suiteName = xmlEscape(result.description ?? name);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="evalkern test" ${counts}>`,
    `  <testsuite name="${suiteName}" ${counts}>`,
    ...result.tests.map((t) => testCase(t, result.description ?? name)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
