// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. `\N{name}` escapes of the `re` port.

// ---------------------------------------------------------------------------------------------------
// \N{name}: unicodedata.lookup for a built-in subset (see the generator) plus the algorithmic names

export type { UnicodeNameResolver } from "../char-names.js";
/** `unicodedata.lookup` as `\N{...}` uses it (one implementation for patterns and literals). */
export { lookupUnicodeName as lookupName } from "../char-names.js";
