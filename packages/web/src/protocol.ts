// Messages between the page and its workers (structured clone; big buffers are transferred).
import type { ChunkInput, ChunkResult, MemoryRun, NormalizedMetric, ReportManifestLike, ResolvedFields, RowsOutput } from "./types.js";

export interface ScoreInit {
  readonly type: "init";
  readonly specs: readonly NormalizedMetric[];
  readonly fields: ResolvedFields;
  readonly rows: RowsOutput;
}

export type ToScoreWorker =
  | ScoreInit
  | { readonly type: "chunk"; readonly id: number; readonly input: ChunkInput }
  | { readonly type: "warm" };

export type FromScoreWorker =
  | { readonly type: "ready" }
  | { readonly type: "result"; readonly id: number; readonly result: ChunkResult }
  | { readonly type: "error"; readonly id?: number; readonly message: string };

/** One scored input, as the stats worker needs it. */
export interface ScoredInput {
  readonly run: MemoryRun;
  readonly manifest: ReportManifestLike;
  /** The scored JSONL (input rows with their scores). */
  readonly output: Blob;
}

export interface StatsRequest {
  readonly type: "finish";
  readonly system: ScoredInput;
  readonly baseline?: ScoredInput;
  readonly resamples: number;
  readonly seed: number;
  readonly by?: readonly string[];
  readonly title?: string;
  /** Resampling workers to use (one per core). */
  readonly workers?: number;
}

export type FromStatsWorker =
  | { readonly type: "warm" }
  | { readonly type: "progress"; readonly phase: string; readonly done: number; readonly total: number }
  | {
      readonly type: "done";
      /** metric → column → CI, per input. */
      readonly ci: Record<string, Record<string, { lower: number; upper: number; ci: number }>>;
      readonly baselineCi?: Record<string, Record<string, { lower: number; upper: number; ci: number }>>;
      readonly html: string;
      readonly sliceFields: readonly string[];
    }
  | { readonly type: "error"; readonly message: string };
