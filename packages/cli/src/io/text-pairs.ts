// Plain-text input of the CLI (`score --hyp/--ref`, `evalkern sacrebleu`): one hypothesis file and one
// file per reference, line-aligned, read in lockstep by the harness (`readTextPairs`) and scored by its
// streaming form of bulk scoring (`scoreStream`: the same worker threads, chunking and statistics as
// `scoreFile`). Nothing is copied to disk: with an output, each scored row is written as it arrives.
// `-` names stdin (one file at most).
import {
  normalizeMetrics,
  readTextPairs,
  rowLayout,
  scoreStream,
  type MetricSpec,
  type RowScore,
  type StreamSummary,
  type TextSource,
} from "@evalkern/harness/bulk";
import { usageError } from "../errors.js";
import { requireFile } from "./records.js";
import { AtomicWriter } from "./writer.js";

export interface TextPairFiles {
  readonly hyp: string;
  readonly refs: readonly string[];
}

export interface TextPairScoreOptions extends TextPairFiles {
  readonly metrics: readonly MetricSpec[];
  readonly workers?: number | undefined;
  readonly bootstrap: false | { readonly resamples: number; readonly seed: number };
  /** JSONL rows `{"hyp","refs",<metric>…}` (or `_error`), written atomically; none when undefined. */
  readonly output?: string | undefined;
  readonly stdin?: AsyncIterable<Uint8Array | string>;
}

/** The readers' sources: paths checked to be files, `-` as stdin (once). */
export function textSources(
  files: TextPairFiles,
  stdin: AsyncIterable<Uint8Array | string>,
): { hypothesis: TextSource; references: TextSource[] } {
  const all = [files.hyp, ...files.refs];
  if (all.filter((f) => f === "-").length > 1) throw usageError("stdin (-) can stand for one file only");
  const source = (f: string, what: string): TextSource => {
    if (f === "-") return { name: "<stdin>", stream: stdin };
    requireFile(f, what);
    return f;
  };
  return { hypothesis: source(files.hyp, "hypothesis file"), references: files.refs.map((r) => source(r, "reference file")) };
}

/** Score parallel text files; returns the stream's summary (rows, corpus scores, CIs, signatures). */
export async function scoreTextPairs(o: TextPairScoreOptions): Promise<StreamSummary> {
  const sources = textSources(o, o.stdin ?? process.stdin);
  const specs = normalizeMetrics(o.metrics);
  const layouts = specs.map((s) => rowLayout(s));
  const pairs: { hyp: string; refs: string[] }[] = [];
  // rows are written with the text they were scored on: keep each pair until its scores come back
  async function* remembered() {
    for await (const p of readTextPairs(sources)) {
      if (o.output) pairs.push(p);
      yield p;
    }
  }
  const workers = o.workers !== undefined ? { workers: o.workers } : {};
  const stream = scoreStream(remembered(), { metrics: o.metrics, ...workers, bootstrap: o.bootstrap });
  const writer = o.output ? new AtomicWriter(o.output) : undefined;
  try {
    for await (const r of stream) if (writer) writer.write(`${rowJson(pairs.shift()!, r, layouts)}\n`);
    const summary = await stream.summary;
    writer?.commit();
    return summary;
  } catch (e) {
    writer?.abort();
    throw e;
  }
}

/** One output row: the pair, then one object per metric (as `score` writes JSONL rows), or `_error`. */
function rowJson(pair: { hyp: string; refs: string[] }, r: RowScore, layouts: readonly ReturnType<typeof rowLayout>[]): string {
  const row: Record<string, unknown> = { hyp: pair.hyp, refs: pair.refs };
  if (!r.ok) row._error = { line: r.index + 1, code: r.error.code, message: r.error.message };
  else
    for (const l of layouts) {
      const m: Record<string, number> = { score: r.scores[l.headline]! };
      for (const c of l.columns) m[c.key] = r.scores[c.column]!;
      row[l.name] = m;
    }
  return JSON.stringify(row);
}
