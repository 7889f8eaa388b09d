// Types shared by the page and the workers.
export type { ChunkInput, ChunkResult, MemoryRun, NormalizedMetric, ResolvedFields, RowsOutput, BadRow } from "@evalkern/harness/browser";
export type { ReportManifest as ReportManifestLike, RunMetric } from "@evalkern/harness/report";
