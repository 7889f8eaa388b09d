// promptfoo's markup assertions as pair rules (promptfoo/promptfoo src/assertions/xml.ts, html.ts):
// `is-xml` / `contains-xml` check well-formedness with fast-xml-parser's validator and the required
// elements (dotted paths) on its parse; `is-html` parses with parse5, an HTML5 parser, and applies
// promptfoo's rules; `contains-html` counts promptfoo's HTML indicators. This module holds the parsers, so
// the registry imports it only when one of these rules is first used.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parse as parseHtml } from "parse5";
import { assertionValue, badValue, jsonish, type Options } from "./values.js";

/** The required elements of an XML assertion: a comma-separated string, a list, or `{ requiredElements }`. */
function requiredElements(type: string, references: readonly string[], options: Options): string[] {
  const raw = options.requiredElements !== undefined ? options.requiredElements : jsonish(assertionValue(references, options));
  if (raw === undefined || raw === null || raw === "") return [];
  const v = typeof raw === "object" && !Array.isArray(raw) ? (raw as { requiredElements?: unknown }).requiredElements : raw;
  if (v === undefined) return [];
  if (typeof v === "string")
    return v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  if (Array.isArray(v)) return v.map(String);
  throw badValue(type, "the required elements must be a comma-separated string, a list, or { requiredElements }");
}

function hasPath(value: unknown, path: readonly string[]): boolean {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return false;
    const next = (cur as Record<string, unknown>)[key];
    if (next === undefined) return false;
    cur = next;
  }
  return true;
}

/** Top-level elements of a parse (the `?xml` declaration and comments are not elements). */
function rootCount(doc: Record<string, unknown>): number {
  let n = 0;
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith("?") && !k.startsWith("#")) n += Array.isArray(v) ? v.length : 1;
  return n;
}

/** A well-formed XML document (exactly one root element, which the validator alone does not check) with every required element path. */
function validXml(text: string, required: readonly string[]): boolean {
  if (XMLValidator.validate(text, { allowBooleanAttributes: true }) !== true) return false;
  const parser = new XMLParser({ allowBooleanAttributes: true, ignoreAttributes: false, parseAttributeValue: true, parseTagValue: true });
  const doc = parser.parse(text) as Record<string, unknown>;
  return rootCount(doc) === 1 && required.every((p) => hasPath(doc, p.split(".")));
}

/** `is-xml`: the whole output is well-formed XML (one root) with the required elements (the value). */
export function isXml(output: string, references: readonly string[], options: Options = {}): boolean {
  const required = requiredElements("is-xml", references, options);
  return output.trim() !== "" && validXml(output.trim(), required);
}

const TAG = /<(\/?)([A-Za-z_:][\w.:-]*)(?:\s(?:"[^"]*"|'[^']*'|[^<>"'])*)?(\/?)>/g;

/** Spans of balanced elements in a text (each element with its matching close tag, or self-closed). */
function elementSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const open: Array<{ name: string; start: number }> = [];
  for (const m of text.matchAll(TAG)) {
    const [whole, closing, name, selfClosing] = m;
    const start = m.index;
    if (selfClosing) spans.push([start, start + whole.length]);
    else if (!closing) open.push({ name: name!, start });
    else if (open.length > 0 && open[open.length - 1]!.name === name) spans.push([open.pop()!.start, start + whole.length]);
    else open.length = 0;
  }
  // outermost first, so a fragment is judged whole before its parts
  return spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
}

/** `contains-xml`: some element in the output is well-formed XML with the required elements (the value). */
export function containsXml(output: string, references: readonly string[], options: Options = {}): boolean {
  const required = requiredElements("contains-xml", references, options);
  return elementSpans(output).some(([a, b]) => validXml(output.slice(a, b), required));
}

/** The HTML5 elements promptfoo's `is-html` recognises (custom elements, with a hyphen, count too). */
const HTML_ELEMENTS = new Set(
  (
    "html head title base link meta style body article section nav aside h1 h2 h3 h4 h5 h6 header footer address p hr pre " +
    "blockquote ol ul li dl dt dd figure figcaption main div a em strong small s cite q dfn abbr ruby rt rp data time code var " +
    "samp kbd sub sup i b u mark bdi bdo span br wbr img iframe embed object param picture source video audio track map area " +
    "svg math script noscript canvas ins del table caption colgroup col tbody thead tfoot tr td th form label input button " +
    "select datalist optgroup option textarea output progress meter fieldset legend details summary dialog menu slot template"
  ).split(" "),
);

interface HtmlNode {
  readonly nodeName: string;
  readonly tagName?: string;
  readonly value?: string;
  readonly childNodes?: readonly HtmlNode[];
}

function findElement(node: HtmlNode, match: (tag: string) => boolean): HtmlNode | undefined {
  if (node.tagName !== undefined && match(node.tagName.toLowerCase())) return node;
  for (const child of node.childNodes ?? []) {
    const found = findElement(child, match);
    if (found) return found;
  }
  return undefined;
}

/**
 * `is-html`: the output is an HTML document or fragment: not empty, not XML (`<?xml`), no bare text at the
 * top level of an implied body, and at least one recognised element that the output itself writes (the
 * html/head/body wrappers an HTML parser adds do not count).
 */
export function isHtml(output: string): boolean {
  const text = output.trim();
  if (text === "" || /^<\?xml/i.test(text)) return false;
  const lower = text.toLowerCase();
  const doc = parseHtml(text) as unknown as HtmlNode;
  const body = findElement(doc, (t) => t === "body");
  const bareText = (n: HtmlNode) => n.nodeName === "#text" && (n.value ?? "").trim() !== "";
  if (body && !lower.includes("<body") && (body.childNodes ?? []).some(bareText)) return false;
  const wrappers = new Set(["html", "head", "body"]);
  return findElement(doc, (t) => !(wrappers.has(t) && !lower.includes(`<${t}`)) && (HTML_ELEMENTS.has(t) || t.includes("-"))) !== undefined;
}

/** promptfoo's HTML indicators and their weights; two points make HTML. */
const INDICATORS = {
  opening: /<[a-zA-Z][a-zA-Z0-9-]*(?:\s[^>]*)?>/,
  closing: /<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/,
  selfClosing: /<[a-zA-Z][a-zA-Z0-9-]*(?:\s[^>]*)?\/>/,
  entity: /&(?:[a-zA-Z]+|#[0-9]+|#x[0-9a-fA-F]+);/,
  doctype: /<!DOCTYPE\s+html/i,
  comment: /<!--[^-]*(?:-[^-]+)*-->/,
  attribute: /\s[a-zA-Z-]+=\s*["'][^"']*["']/,
  commonTag: /<(html|head|body|div|span|p|a|img|h[1-6]|ul|ol|li|table|tr|td|th|form|input|button|script|style|link|meta|br|hr)\b/i,
};

/** `contains-html`: the output has at least two points of HTML indicators (tags, entities, doctype, ...). */
export function containsHtml(output: string): boolean {
  const t = (re: RegExp) => re.test(output);
  const opening = t(INDICATORS.opening);
  const closing = t(INDICATORS.closing);
  let points = opening && closing ? 2 : opening || closing ? 1 : 0;
  if (t(INDICATORS.selfClosing)) points += 1;
  if (t(INDICATORS.entity)) points += 1;
  if (t(INDICATORS.doctype)) points += 2;
  if (t(INDICATORS.comment)) points += 1;
  if (t(INDICATORS.attribute)) points += 1;
  if (t(INDICATORS.commonTag)) points += 2;
  return points >= 2;
}
