// CSV for the CLI's own files. Reading: the bulk scorer's streaming reader (`CsvSplitter` of
// @evalkern/harness), so that input rows are read record for record as the scorer read them (scored rows
// are joined back to their input rows by position).
export { CsvSplitter, type CsvRecord } from "@evalkern/harness/bulk";
// The CSV writer lives in @evalkern/harness (which writes scored rows); re-exported for the CLI's own files.
// `csvCell` neutralises text cells a spreadsheet would run as formulas (OWASP), never numbers.
export { csvCell, csvField, csvLine } from "@evalkern/harness/bulk";
