// Python's `\N{NAME}` lookup table (Unicode 14.0.0), decoded on first use.
import { NAMES, VOCABULARY } from "./unicode-names.generated.js";

let index: Map<string, number> | undefined;

function build(): Map<string, number> {
  const map = new Map<string, number>();
  const vocabulary = VOCABULARY.split(" ");
  let previous: string[] = [];
  let code = -1;
  for (const line of NAMES.split("\n")) {
    const [delta = "", shared = "0", words = ""] = line.split(",");
    code += delta === "" ? 1 : parseBase62(delta);
    const current = previous.slice(0, Number(shared));
    if (words !== "") for (const word of words.split(".")) current.push(vocabulary[parseBase62(word)] as string);
    previous = current;
    const hex = code.toString(16).toUpperCase().padStart(4, "0");
    const last = current.length - 1;
    const name = current.map((word, i) => (i === last && word.endsWith("#") ? word.slice(0, -1) + hex : word)).join(" ");
    map.set(name, code);
  }
  return map;
}

function parseBase62(text: string): number {
  let value = 0;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    value = value * 62 + (c <= 0x39 ? c - 0x30 : c >= 0x61 ? c - 0x61 + 10 : c - 0x41 + 36);
  }
  return value;
}

/** The code point named `upperName` (already upper-cased), or undefined. */
export function unicodeNameToCodePoint(upperName: string): number | undefined {
  index ??= build();
  return index.get(upperName);
}
