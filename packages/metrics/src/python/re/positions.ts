// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. Position facts of the `re` port.
import type { At } from "./resolve.js";
import { rsHas } from "./sets.js";
import { ASCII_WORD, uni } from "./unicode.js";

// ---------------------------------------------------------------------------------------------------
// Position facts (the same for both engines)

export const NL = 10;

export function atHolds(at: At, cps: readonly number[], i: number): boolean {
  const n = cps.length;
  switch (at) {
    case "BEGINNING":
      return i === 0;
    case "BEGINNING_LINE":
      return i === 0 || cps[i - 1] === NL;
    case "END":
      return i === n || (i === n - 1 && cps[i] === NL);
    case "END_LINE":
      return i === n || cps[i] === NL;
    case "END_STRING":
      return i === n;
    case "UNI_BOUNDARY":
    case "UNI_NON_BOUNDARY":
    case "BOUNDARY":
    case "NON_BOUNDARY": {
      if (n === 0) return false; // _sre: \b and \B never match in an empty string
      const w = at === "UNI_BOUNDARY" || at === "UNI_NON_BOUNDARY" ? uni().word : ASCII_WORD;
      const before = i > 0 && rsHas(w, cps[i - 1]!);
      const after = i < n && rsHas(w, cps[i]!);
      return at === "UNI_BOUNDARY" || at === "BOUNDARY" ? before !== after : before === after;
    }
  }
}
