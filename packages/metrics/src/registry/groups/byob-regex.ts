// Rule group "byob-regex" (see ../rules.ts): NeMo BYOB's scorers that run Python `re` patterns
// (python/regex.ts with re2js, and the Unicode name table behind `\N{...}`).
export { regexMatch } from "../../byob/regex-match.js";
export { mcqLetterExtract } from "../../byob/mcq-letter.js";
