// BYOB prompt templates: Python `str.format(**row)` with `{field}` placeholders, `{{`/`}}` escapes,
// values rendered with Python `str()`, plus dotted fields (`{choices.text}`, `{meta.0}`) resolved in
// nested rows (Python would try attribute access on a dict and fail). Jinja2 templates (`{%`, `{#`) are
// not supported and are rejected up front.
import { EvalkernError, InvalidArgumentError } from "@evalkern/core-wasm";
import { pyStr } from "@evalkern/metrics/python";
import { getPath } from "../bulk/records.js";

/** A placeholder had no value in the row (Python's KeyError; `message` is `str(KeyError)`). */
export class MissingFieldError extends EvalkernError {
  override name = "MissingFieldError";
  override readonly code: string = "MISSING_FIELD";
  constructor(readonly field: string) {
    super(`'${field}'`);
  }
}

type Part = { literal: string } | { field: string; spec: string };

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let lit = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === "{") {
      if (template[i + 1] === "{") {
        lit += "{";
        i++;
        continue;
      }
      const close = template.indexOf("}", i);
      if (close < 0) throw new InvalidArgumentError(`prompt template: single '{' encountered at ${i}`, { argument: "prompt" });
      const inner = template.slice(i + 1, close);
      if (inner.includes("{"))
        throw new InvalidArgumentError(`prompt template: nested '{' in a placeholder at ${i}`, { argument: "prompt" });
      let field = inner;
      let spec = "";
      const bang = inner.indexOf("!");
      const colon = inner.indexOf(":");
      if (bang >= 0 && (colon < 0 || bang < colon)) {
        const conv = inner.slice(bang + 1, colon < 0 ? undefined : colon);
        if (conv !== "s")
          throw new InvalidArgumentError(`prompt template: conversion !${conv} is not supported (only !s)`, { argument: "prompt" });
        field = inner.slice(0, bang);
        spec = colon < 0 ? "" : inner.slice(colon + 1);
      } else if (colon >= 0) {
        field = inner.slice(0, colon);
        spec = inner.slice(colon + 1);
      }
      if (field === "")
        throw new InvalidArgumentError("prompt template: positional '{}' placeholders need positional arguments; name the field", {
          argument: "prompt",
        });
      if (spec !== "") throw new InvalidArgumentError(`prompt template: format spec ':${spec}' is not supported`, { argument: "prompt" });
      if (lit) parts.push({ literal: lit });
      lit = "";
      // Python's `{a[0]}` indexing, written here as a dotted path too
      parts.push({ field: field.replace(/\[(\w+)\]/g, ".$1"), spec });
      i = close;
      continue;
    }
    if (c === "}") {
      if (template[i + 1] === "}") {
        lit += "}";
        i++;
        continue;
      }
      throw new InvalidArgumentError(`prompt template: single '}' encountered at ${i}`, { argument: "prompt" });
    }
    lit += c;
  }
  if (lit) parts.push({ literal: lit });
  return parts;
}

/** True when BYOB would render the template with Jinja2 (block tags or comments). */
export function isJinja(template: string): boolean {
  return template.includes("{%") || template.includes("{#");
}

/** A compiled template: `render(row)` throws `MissingFieldError` for an absent field. */
export interface Template {
  readonly source: string;
  readonly fields: readonly string[];
  render(row: Readonly<Record<string, unknown>>): string;
}

/**
 * Compile a BYOB prompt template.
 * @example compileTemplate("Q: {question}\nChoices: {choices.text}").render(row)
 */
export function compileTemplate(source: string, argument = "prompt"): Template {
  if (typeof source !== "string") throw new InvalidArgumentError(`${argument} must be a string`, { argument });
  if (isJinja(source)) {
    throw new InvalidArgumentError(
      `${argument} looks like a Jinja2 template ({% or {#): only Python format templates with {field} placeholders are supported`,
      { argument },
    );
  }
  const parts = parse(source);
  return {
    source,
    fields: parts.flatMap((p) => ("field" in p ? [p.field] : [])),
    render(row) {
      let out = "";
      for (const p of parts) {
        if ("literal" in p) out += p.literal;
        else {
          const v = getPath(row, p.field);
          if (typeof v === "symbol") throw new MissingFieldError(p.field);
          out += pyStr(v);
        }
      }
      return out;
    },
  };
}
