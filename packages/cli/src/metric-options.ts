// `--metric name:key=value` arguments: the metric name, then options separated by ":" (or ","); a value
// with commas that are not followed by `key=` is a list (`rouge:types=rouge1,rougeL:useStemmer=true`).
// Values are read as JSON where they parse (numbers, booleans, null, arrays, objects), else as strings.
import { usageError } from "./errors.js";

export interface MetricArgument {
  /** As typed, for messages. */
  readonly raw: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** A scalar option value: JSON when it parses (`2`, `true`, `[1,2]`, `"x"`), else the text itself. */
export function parseValue(text: string): unknown {
  const t = text.trim();
  if (t === "") return "";
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return t;
  }
}

function splitTopLevel(text: string, separators: string): string[] {
  // separators inside [...] / {...} / "..." (a JSON value) do not split
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && separators.includes(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Parse one `--metric` argument.
 *
 * @example
 * parseMetricArgument("chrf:wordOrder=2")                  // { name: "chrf", options: { wordOrder: 2 } }
 * parseMetricArgument("rouge:types=rouge1,rougeL,useStemmer=true")
 * // { name: "rouge", options: { types: ["rouge1", "rougeL"], useStemmer: true } }
 */
export function parseMetricArgument(raw: string): MetricArgument {
  const text = raw.trim();
  const colon = text.indexOf(":");
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (name === "")
    throw usageError(`--metric ${JSON.stringify(raw)}: the metric name is missing (e.g. --metric bleu or --metric chrf:wordOrder=2)`);
  const options: Record<string, unknown> = {};
  if (colon < 0) return { raw, name, options };
  const rest = text.slice(colon + 1);
  let key: string | undefined;
  let values: string[] = [];
  const flush = () => {
    if (key === undefined) return;
    options[key] = values.length === 1 ? parseValue(values[0]!) : values.map(parseValue);
  };
  for (const piece of splitTopLevel(rest, ":,")) {
    const eq = piece.indexOf("=");
    const startsOption = eq > 0 && /^[A-Za-z_][\w.-]*$/.test(piece.slice(0, eq).trim());
    if (startsOption) {
      flush();
      key = piece.slice(0, eq).trim();
      if (Object.prototype.hasOwnProperty.call(options, key))
        throw usageError(`--metric ${JSON.stringify(raw)}: option ${JSON.stringify(key)} is given twice`);
      values = [piece.slice(eq + 1)];
    } else if (key !== undefined && piece.trim() !== "") {
      values.push(piece);
    } else if (piece.trim() !== "") {
      throw usageError(`--metric ${JSON.stringify(raw)}: expected key=value after "${name}:", got ${JSON.stringify(piece)}`);
    }
  }
  flush();
  return { raw, name, options };
}
