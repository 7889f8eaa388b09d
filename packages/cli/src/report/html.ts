// The report's HTML renderer lives in `@evalkern/harness/report` (shared with the web app).
export { escapeHtml, histogramSvg, renderReport } from "@evalkern/harness/report";
