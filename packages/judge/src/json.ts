// Tolerant JSON extraction from model text (docs/spec/judges.md §1.8 `trimAndLoadJson`, §10.2): strict parse first,
// then code fences, reasoning blocks and prose are stripped, the outermost object is taken, a missing
// final brace is added and trailing commas are removed.

/** Outcome of {@link extractJson}. `repaired` is true when anything beyond a plain `JSON.parse` was needed. */
export type JsonExtraction =
  | { readonly ok: true; readonly value: unknown; readonly repaired: boolean }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Only closing what the reply left open (a cut-off reply) would have made it parse. */
      readonly incomplete?: true;
    };

export interface ExtractJsonOptions {
  /**
   * Close a cut-off reply (append the missing `}`, close open strings, arrays and objects). Default
   * true. The judge turns it off under a structured-output request: a reply that needs closing was cut
   * off, and closing it can invent a value (`"precision":0` of a cut `0.85`).
   */
  readonly complete?: boolean;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Remove commas that directly precede `}` or `]` (ignoring whitespace), outside string literals. */
export function stripTrailingCommas(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += text[i + 1] ?? "";
        i++;
      } else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    if (ch === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] === "}" || text[j] === "]") continue;
    }
    out += ch;
  }
  return out;
}

/**
 * Close what a cut-off object left open: an unterminated string, then every open `{`/`[` in reverse
 * order. Only used after every other reading failed.
 */
export function closeOpenBrackets(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return undefined;
    }
  }
  if (stack.length === 0) return undefined;
  let out = text.slice(start).replace(/,\s*$/, "");
  if (inString) out += '"';
  return out + stack.reverse().join("");
}

function candidates(text: string): string[] {
  const list: string[] = [];
  // Reasoning models may emit a <think> block first (promptfoo/promptfoo#5283).
  const withoutThink = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const fence = /```(?:json|JSON|jsonc)?\s*\n?([\s\S]*?)```/g;
  for (const match of withoutThink.matchAll(fence)) list.push((match[1] as string).trim());
  list.push(withoutThink);
  return list;
}

function outermost(text: string, complete: boolean): string | undefined {
  const start = text.indexOf("{");
  if (start < 0) {
    const arrayStart = text.indexOf("[");
    const arrayEnd = text.lastIndexOf("]");
    return arrayStart >= 0 && arrayEnd > arrayStart ? text.slice(arrayStart, arrayEnd + 1) : undefined;
  }
  const end = text.lastIndexOf("}");
  // DeepEval appends the missing closing brace of a reply cut short by one character.
  if (end > start) return text.slice(start, end + 1);
  return complete ? `${text.slice(start)}}` : undefined;
}

/**
 * Parse JSON out of model text.
 *
 * Details: in order — `JSON.parse` of the trimmed text; the same for each fenced code block and for the
 * text without `<think>` blocks; the substring from the first `{` to the last `}` (a `}` is appended when
 * there is none, as DeepEval does); each of these again with trailing commas removed; finally with open
 * strings, arrays and objects closed.
 *
 * Gotchas: this repairs syntax only. Whether the value fits the schema is for the validator to decide.
 * The judge calls it with `complete: false` under a structured-output request: a reply that parses only
 * once closed (`{"precision":0`) comes back `{ ok: false, incomplete: true }` and is re-asked, then
 * reported as truncated — closing it could turn a cut `0.85` into a 0, or a half list of verdicts into
 * a valid one. A reply cut at the token limit (`finish_reason = length`) is truncated whatever it parses to.
 *
 * @example
 * extractJson('Sure! ```json\n{"score": 1,}\n```'); // { ok: true, value: { score: 1 }, repaired: true }
 */
export function extractJson(text: string, options: ExtractJsonOptions = {}): JsonExtraction {
  const complete = options.complete !== false;
  if (typeof text !== "string") return { ok: false, reason: "reply is not text" };
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: "empty reply" };
  const direct = tryParse(trimmed);
  if (direct.ok) return { ok: true, value: direct.value, repaired: false };
  const tried = new Set<string>([trimmed]);
  const attempts: string[] = [];
  for (const candidate of candidates(trimmed)) {
    attempts.push(candidate);
    const inner = outermost(candidate, complete);
    if (inner !== undefined) attempts.push(inner);
  }
  for (const pass of [false, true]) {
    for (const attempt of attempts) {
      const source = pass ? stripTrailingCommas(attempt) : attempt;
      if (!pass && tried.has(source)) continue;
      tried.add(source);
      const parsed = tryParse(source);
      if (parsed.ok) return { ok: true, value: parsed.value, repaired: true };
    }
  }
  if (!complete) {
    // would closing it have parsed? then it is a cut-off reply, and says so
    if (extractJson(trimmed).ok) {
      return { ok: false, reason: "the reply's JSON is cut off (it parses only with its open brackets closed)", incomplete: true };
    }
  } else {
    for (const attempt of attempts) {
      const closed = closeOpenBrackets(attempt);
      if (closed === undefined) continue;
      const parsed = tryParse(stripTrailingCommas(closed));
      if (parsed.ok) return { ok: true, value: parsed.value, repaired: true };
    }
  }
  return { ok: false, reason: trimmed.includes("{") ? "reply contains no valid JSON object" : "reply contains no JSON object" };
}
