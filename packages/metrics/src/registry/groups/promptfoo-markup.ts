// Rule group "promptfoo-markup" (see ../rules.ts): XML (fast-xml-parser) and HTML (parse5) assertions.
export { isXml, containsXml, isHtml, containsHtml } from "../../promptfoo/markup.js";
