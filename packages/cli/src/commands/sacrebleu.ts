// `evalkern sacrebleu REF... -i HYP -m bleu chrf ter`: sacreBLEU's command line on plain-text files, with
// its flags, its corpus scores and its output lines (`-f json` by default, `-f text`, `-b`, `-w`), for
// people who type sacreBLEU commands. The files are read by the harness's text-pair reader and scored by
// its streaming bulk scorer; the metrics and their sacreBLEU signatures come from the registry.
import { pyFloatRepr, pyFormatFixed } from "@evalkern/metrics/python";
import type { StreamSummary } from "@evalkern/harness/bulk";
import { inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { scoreTextPairs } from "../io/text-pairs.js";
import type { MetricArgument } from "../metric-options.js";
import { resolveMetric, type ResolvedMetric } from "../metric-registry.js";

export type SacrebleuMetric = "bleu" | "chrf" | "ter";

export interface SacrebleuOptions {
  readonly refs: readonly string[];
  /** The hypothesis file(s) of `-i`; none (or `-`) reads stdin. */
  readonly input?: readonly string[] | undefined;
  readonly metrics: readonly SacrebleuMetric[];
  readonly scoreOnly: boolean;
  readonly width: number;
  readonly format: string;
  readonly tokenize?: string | undefined;
  readonly smoothMethod: string;
  readonly smoothValue?: number | undefined;
  readonly lowercase: boolean;
  readonly chrfCharOrder: number;
  readonly chrfWordOrder: number;
  readonly chrfBeta: number;
  readonly chrfWhitespace: boolean;
  readonly chrfLowercase: boolean;
  readonly chrfEpsSmoothing: boolean;
  readonly terCaseSensitive: boolean;
  readonly terAsianSupport: boolean;
  readonly terNoPunct: boolean;
  readonly terNormalized: boolean;
  readonly workers?: number | undefined;
  /** `SACREBLEU_FORMAT`, which overrides `--format` in sacreBLEU. */
  readonly formatFromEnv?: string | undefined;
}

export interface SacrebleuIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stdin?: AsyncIterable<Uint8Array | string>;
}

const SUPPORTED_TOKENIZERS = ["13a", "intl", "zh", "char", "none"];
const SACREBLEU_TOKENIZERS = [...SUPPORTED_TOKENIZERS, "ja-mecab", "ko-mecab", "spm", "flores101", "flores200"];

/** The registry metrics the flags describe (sacreBLEU's option names mapped to ours). */
function sacrebleuMetrics(o: SacrebleuOptions): { args: MetricArgument[]; resolved: ResolvedMetric[] } {
  const tokenize = o.tokenize ?? "13a";
  if (!SUPPORTED_TOKENIZERS.includes(tokenize)) {
    const known = SACREBLEU_TOKENIZERS.includes(tokenize);
    const why = known ? "this sacreBLEU tokenizer is not available in evalkern" : "unknown tokenizer";
    throw usageError(`--tokenize ${tokenize}: ${why}; choose one of ${SUPPORTED_TOKENIZERS.join(", ")}`);
  }
  const options: Record<SacrebleuMetric, Record<string, unknown>> = {
    bleu: {
      tokenize,
      lowercase: o.lowercase,
      smoothMethod: o.smoothMethod,
      ...(o.smoothValue !== undefined ? { smoothValue: o.smoothValue } : {}),
    },
    chrf: {
      charOrder: o.chrfCharOrder,
      wordOrder: o.chrfWordOrder,
      beta: o.chrfBeta,
      whitespace: o.chrfWhitespace,
      lowercase: o.chrfLowercase,
      epsSmoothing: o.chrfEpsSmoothing,
    },
    ter: { caseSensitive: o.terCaseSensitive, asianSupport: o.terAsianSupport, noPunct: o.terNoPunct, normalized: o.terNormalized },
  };
  // sacreBLEU keeps one of each metric and reports them in sorted order (BLEU, chrF, TER)
  const names = [...new Set(o.metrics)].sort();
  const args = names.map((name) => ({ raw: `${name} (from the sacreBLEU flags)`, name, options: options[name] }));
  return { args, resolved: args.map(resolveMetric) };
}

/** A sacreBLEU line's parts from our full signature: the score name and the sacreBLEU signature (up to `version:`). */
export function sacrebleuParts(signature: string): { name: string; signature: string } {
  const fields = signature.split("|");
  const end = fields.findIndex((f) => f.startsWith("version:"));
  if (end < 1) throw new Error(`internal: no sacreBLEU signature in ${signature}`);
  return { name: fields[0]!, signature: fields.slice(1, end + 1).join("|") };
}

/** BLEU's verbose part: `76.1/67.5/62.4/58.3 (BP = 0.981 ratio = 0.982 hyp_len = 51076 ref_len = 52030)`. */
function bleuVerbose(details: Record<string, unknown>): string {
  const precisions = (details.precisions as number[]).map((p) => pyFormatFixed(p, 1)).join("/");
  const bp = pyFormatFixed(details.bp as number, 3);
  const ratio = pyFormatFixed(details.ratio as number, 3);
  return `${precisions} (BP = ${bp} ratio = ${ratio} hyp_len = ${details.sysLen as number} ref_len = ${details.refLen as number})`;
}

/** One metric's result as sacreBLEU's `Score.format(width, score_only, signature, is_json)` writes it. */
export function formatSacrebleuScore(
  r: { name: string; signature: string; score: number; verbose: string },
  width: number,
  scoreOnly: boolean,
  json: boolean,
): string {
  const sc = pyFormatFixed(r.score, width);
  if (scoreOnly) return sc;
  if (!json) return `${r.name}|${r.signature} = ${sc}${r.verbose ? ` ${r.verbose}` : ""}`;
  // json.dumps(d, indent=1, ensure_ascii=False): the score is float(sc), printed as Python prints a float
  const entries: [string, string][] = [
    ["name", JSON.stringify(r.name)],
    ["score", pyFloatRepr(Number(sc))],
    ["signature", JSON.stringify(r.signature)],
  ];
  if (r.verbose) entries.push(["verbose_score", JSON.stringify(r.verbose)]);
  for (const param of r.signature.split("|")) {
    const colon = param.indexOf(":");
    entries.push([param.slice(0, colon), JSON.stringify(param.slice(colon + 1))]);
  }
  return `{\n${entries.map(([k, v]) => ` ${JSON.stringify(k)}: ${v}`).join(",\n")}\n}`;
}

/** sacreBLEU's `print_single_results`: a JSON list for several results, text lines aligned at " = ". */
export function printSacrebleuResults(results: readonly string[], json: boolean): string {
  if (json) return results.length > 1 ? `[\n${results.join(",\n")}\n]\n` : `${results[0]}\n`;
  if (results.length === 1) return `${results[0]}\n`;
  const out: string[] = [];
  const aligned: { left: number; line: string }[] = [];
  for (const line of results) {
    const eq = line.indexOf("=");
    if (eq < 0) out.push(line);
    else aligned.push({ left: eq - 1, line });
  }
  const w = Math.max(0, ...aligned.map((a) => a.left));
  for (const a of aligned) out.push(`${a.line.slice(0, a.left).padStart(w)}${a.line.slice(a.left)}`);
  return `${out.join("\n")}\n`;
}

function checkFormat(o: SacrebleuOptions): "json" | "text" {
  const env = o.formatFromEnv?.toLowerCase();
  const format = env === "json" || env === "text" || env === "latex" ? env : o.format;
  if (format === "latex") {
    throw usageError("--format latex is sacreBLEU's multi-system table; evalkern sacrebleu scores one system (json or text)");
  }
  if (format !== "json" && format !== "text") throw usageError(`--format must be json or text, not ${JSON.stringify(format)}`);
  return format;
}

/** The lines sacreBLEU prints for this summary. */
export function sacrebleuOutput(
  resolved: readonly ResolvedMetric[],
  summary: StreamSummary,
  o: Pick<SacrebleuOptions, "width" | "scoreOnly">,
  json: boolean,
): string {
  const results = resolved.map((m) => {
    const s = summary.metrics[m.name];
    const score = s?.scores[m.name];
    if (!s || score === undefined) throw new Error(`internal: the scorer's summary has no score ${m.name}`);
    const parts = sacrebleuParts(s.signature);
    const verbose = m.definition.name === "bleu" ? bleuVerbose(s.details) : "";
    return formatSacrebleuScore({ ...parts, score, verbose }, o.width, o.scoreOnly, json);
  });
  return printSacrebleuResults(results, json);
}

/** sacreBLEU flags that `evalkern sacrebleu` recognises but does not offer: a usage error naming what to use. */
export function refuseUnavailable(flags: Record<string, unknown>): void {
  const unavailable: [string, string, string][] = [
    ["short", "--short (-sh)", "the full signature is printed"],
    ["numRefs", "--num-refs (-nr)", "give one file per reference"],
    ["sentenceLevel", "--sentence-level (-sl)", "evalkern score --hyp/--ref writes every line's scores"],
    ["confidence", "--confidence (-ci)", "evalkern score --hyp/--ref --score-only prints 95% bootstrap CIs"],
    ["confidenceN", "--confidence-n (-cin)", "evalkern score --resamples"],
    ["testSet", "--test-set (-t)", "download the test set and give its reference file"],
  ];
  for (const [key, flag, instead] of unavailable) {
    if (flags[key] !== undefined) throw usageError(`${flag} is not available in evalkern sacrebleu: ${instead}`);
  }
}

/** Run `evalkern sacrebleu`; returns the exit code. */
export async function sacrebleuCommand(o: SacrebleuOptions, io: SacrebleuIo): Promise<number> {
  const json = checkFormat(o);
  if (o.refs.length === 0) {
    throw usageError(
      "give the reference file(s) before -i, as sacreBLEU takes them: evalkern sacrebleu ref.txt -i hyp.txt (test sets, -t, " +
        "are not available)",
    );
  }
  const inputs = o.input && o.input.length ? o.input : ["-"];
  if (inputs.length > 1) throw usageError(`-i takes one system here (got ${inputs.length}); compare systems with evalkern compare`);
  if (!Number.isSafeInteger(o.width) || o.width < 0 || o.width > 20) {
    throw usageError(`--width must be an integer from 0 to 20 (decimals of the scores), got ${o.width}`);
  }
  const { args, resolved } = sacrebleuMetrics(o);
  let summary: StreamSummary;
  try {
    summary = await scoreTextPairs({
      hyp: inputs[0]!,
      refs: o.refs,
      metrics: resolved.map((m) => m.spec),
      workers: o.workers,
      bootstrap: false,
      ...(io.stdin ? { stdin: io.stdin } : {}),
    });
  } catch (e) {
    throw mapHarnessError(e, args);
  }
  if (summary.rows.records === 0) throw inputError(`${inputs[0] === "-" ? "stdin" : inputs[0]} has no lines to score`);
  if (summary.rows.bad > 0) {
    const samples = summary.rows.badSamples.slice(0, 5).map((b) => `  line ${b.line + 1}: ${b.message}`);
    throw inputError(`${summary.rows.bad} of ${summary.rows.records} lines could not be scored:\n${samples.join("\n")}`);
  }
  io.stdout.write(sacrebleuOutput(resolved, summary, o, json === "json"));
  return 0;
}
