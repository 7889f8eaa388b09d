// The variable substitution of autoevals' templates (mustache with autoevals' value rendering,
// js/render-messages.ts) and of promptfoo's rubric prompts (nunjucks with objects as JSON): `{{name}}`,
// `{{{name}}}`, `{{& name}}` and `{{ dotted.name }}`. Sections and partials are refused rather than
// rendered wrongly: the built-in templates use none, and a user template with one would silently lose text.
import { JudgeConfigError } from "../errors.js";

const TAG = /\{\{\{\s*([^{}]*?)\s*\}\}\}|\{\{\s*(&\s*)?([^{}]*?)\s*\}\}/g;

/** A chat message (`{ role, content }`) as autoevals formats one inside a prompt. */
function isMessage(value: unknown): value is { role: string; content: unknown } {
  return typeof value === "object" && value !== null && typeof (value as { role?: unknown }).role === "string" && "content" in value;
}

function messageText(message: { role: string; content: unknown }): string {
  const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  return `${message.role}: ${content}`;
}

/**
 * A value as it appears in a rendered prompt: strings as they are, a chat message as `role: content`,
 * a list of chat messages one per line, anything else as JSON; absent and null values render empty (as
 * mustache renders them).
 */
export function renderValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length > 0 && value.every(isMessage)) return value.map(messageText).join("\n");
  if (isMessage(value)) return messageText(value);
  return JSON.stringify(value) ?? "";
}

function lookup(vars: Readonly<Record<string, unknown>>, path: string): unknown {
  if (path === ".") return undefined;
  let current: unknown = vars;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Substitute `{{name}}`-style variables of `template` from `vars` (see {@link renderValue}); an unknown
 * name renders empty, as in mustache and nunjucks. Section (`{{#x}}`, `{{^x}}`), partial (`{{> x}}`)
 * and other mustache tags are a `JudgeConfigError`.
 *
 * @example renderTemplate("Q: {{{input}}} A: {{ output }}", { input: "2+2?", output: 4 }) // "Q: 2+2? A: 4"
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, unknown>>): string {
  if (typeof template !== "string") {
    throw new JudgeConfigError("a prompt template must be a string", { argument: "promptTemplate", actual: typeof template });
  }
  return template.replace(TAG, (whole, triple: string | undefined, _amp: string | undefined, plain: string | undefined) => {
    const name = (triple ?? plain ?? "").trim();
    if (!/^[A-Za-z_$][\w$]*(\.[\w$]+)*$/.test(name)) {
      throw new JudgeConfigError(`unsupported template tag ${whole}: only variables such as {{name}} or {{{name}}} are substituted`, {
        argument: "promptTemplate",
        actual: whole,
      });
    }
    return renderValue(lookup(vars, name));
  });
}
