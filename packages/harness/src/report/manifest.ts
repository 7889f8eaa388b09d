// A run's manifest (`<output>.evalkern/run.json`): what `evalkern score`, `judge` and `merge` write beside
// their output rows, what `report`, `compare` and `score --resume` read, and what the web app hands the
// report. One home for its types; the per-metric entries of a bulk run are built by `runMetrics`
// (./run-metrics.ts, kept out of the light `/report` entry because it loads the metric registry).
/** One output column of a metric: the raw scorer column and its key in the metric's output object. */
export interface MetricColumn {
  readonly column: string;
  readonly key: string;
}

/** Where the rows hold what a judge metric checks the output against, when it is not the expected output. */
export interface JudgedAgainst {
  /** Field paths of the row, tried in order (every one found is shown). */
  readonly paths: readonly string[];
  /** How the report names it ("retrieval context", "context"). */
  readonly label: string;
}

/** A metric of a run, as its manifest records it (`evalkern score`/`judge`, the web app). */
export interface RunMetric {
  /** Output key of the metric's object in every row. */
  readonly name: string;
  /** Registry name (`bleu`, `faithfulness`, ...). */
  readonly metric: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly scale: 100 | 1;
  /** Keys of the metric's row object besides `score` (empty for one-number metrics). */
  readonly columns: readonly MetricColumn[];
  /** The column reported as `score`. */
  readonly headline: string;
  readonly higherIsBetter: boolean;
  readonly signature: string;
  /** Corpus-level score per column (BLEU/chrF/TER from summed statistics, others means). */
  readonly corpus: Readonly<Record<string, number>>;
  /** 95% bootstrap CI per column. */
  readonly ci?: Readonly<Record<string, { readonly lower: number; readonly upper: number; readonly ci: number }>>;
  /** Judge runs: how many measurements took each scoring path (a fallback is never silent). */
  readonly scoringPaths?: Readonly<Record<string, number>>;
  /** Judge metrics checked against a context rather than the expected output (the report shows it as the reference). */
  readonly judgedAgainst?: JudgedAgainst;
}

/** What identifies a file without reading it. */
export interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly dev: number;
}

/** What a finished score run was computed from (`RunManifest.finished`): `--resume` answers "already done" with it. */
export interface FinishedRecord {
  readonly job: string;
  readonly jobParts: Readonly<Record<string, unknown>>;
  readonly contentHash: string;
  readonly input: FileIdentity;
  readonly output: FileIdentity;
  readonly statistics: FileIdentity | null;
  readonly bootstrap: { readonly resamples: number; readonly seed: number } | false;
}

export interface RunManifest {
  readonly version: 1;
  readonly kind: "score" | "judge";
  readonly tool: string;
  readonly createdAt: string;
  readonly input: string;
  readonly output: string;
  readonly inputFormat: "jsonl" | "csv";
  readonly outputFormat: "jsonl" | "csv";
  /** CSV/TSV output: written with CSV quoting (absent: yes; TSV output of TSV input is written without). */
  readonly outputQuote?: boolean;
  readonly fields: { readonly hypothesis: string; readonly references: readonly string[]; readonly id?: string | undefined };
  readonly metrics: readonly RunMetric[];
  readonly rows: { readonly records: number; readonly scored: number; readonly bad: number };
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** Bulk scorer summary file (score runs), relative to the sidecar directory. */
  readonly summary?: string;
  readonly elapsedMs: number;
  /** Score runs that finished: what they were computed from, so `--resume` can answer "already done". */
  readonly finished?: FinishedRecord;
  /** Judge runs: the model and usage totals. */
  readonly judge?: Readonly<Record<string, unknown>>;
}

/** What the report reads of a run's manifest (the web app builds only this). */
export type ReportManifest = Pick<
  RunManifest,
  "kind" | "tool" | "createdAt" | "input" | "output" | "outputFormat" | "fields" | "metrics" | "rows" | "judge"
>;
