// Rule group "byob" (see ../rules.ts): NeMo BYOB's scorers that run no regular expression; their specs
// name the public `@evalkern/metrics/byob`, this module is only what the registry loads for them.
export { exactMatch, contains, f1Token, bleu, rouge, chrf } from "../../byob/text.js";
export { gsm8kAnswer } from "../../byob/gsm8k.js";
export { booleanYesno } from "../../byob/boolean-yesno.js";
