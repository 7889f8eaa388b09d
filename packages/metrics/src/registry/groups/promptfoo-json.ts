// Rule group "promptfoo-json" (see ../rules.ts): contains-json and the OpenAI call checks (ajv for schemas).
export { containsJson, isValidOpenaiFunctionCall, isValidOpenaiToolsCall } from "../../promptfoo/json.js";
