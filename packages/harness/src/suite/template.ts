// Prompt and assertion-value templates of suite files: promptfoo renders them with Nunjucks; we take the
// part suites use — `{{ var }}`, dotted paths `{{ doc.title }}` and the `dump` filter (`{{ var | dump }}`,
// JSON) — and refuse the rest (tags `{% %}`, comments `{# #}`, other filters) instead of rendering them wrong.
// A missing variable is an error, where Nunjucks would silently render an empty string.
import { getPath } from "../bulk/records.js";
import { SuiteError } from "../errors.js";

const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|\s*([A-Za-z_]\w*)\s*)?\}\}/g;

/** The reason a template cannot be rendered by this subset, or undefined. */
export function templateProblem(template: string): string | undefined {
  if (/\{%|\{#/.test(template)) return "Nunjucks tags ({% %}) and comments ({# #}) are not supported: only {{ var }} and {{ var | dump }}";
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!/^[A-Za-z_$][\w$]*(\.[\w$]+)*$/.test(m[1]!)) return `{{ ${m[1]} }}: only variable names and dotted paths are supported`;
    if (m[2] !== undefined && m[2] !== "dump") return `{{ ${m[1]} | ${m[2]} }}: only the dump filter is supported`;
  }
  return undefined;
}

/** The variables a template reads (the first part of each dotted path). */
export function templateVars(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!.split(".")[0]!))];
}

/** The first variable path of `template` that `vars` does not have, or undefined. */
export function missingVar(template: string, vars: Readonly<Record<string, unknown>>): string | undefined {
  for (const m of template.matchAll(PLACEHOLDER)) {
    const v = getPath(vars, m[1]!);
    if (typeof v === "symbol" || v === undefined) return m[1]!;
  }
  return undefined;
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Render `template` with `vars`: `{{ x }}` is the value (strings as they are, objects and lists as JSON),
 * `{{ x | dump }}` its JSON. A missing variable is a `SuiteError` naming it.
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (_all, path: string, filter: string | undefined) => {
    const v = getPath(vars, path);
    if (typeof v === "symbol" || v === undefined) {
      throw new SuiteError("template", `the template reads {{ ${path} }}, which the test's vars do not have`);
    }
    return filter === "dump" ? JSON.stringify(v) : text(v);
  });
}
