// Issue 15 "Done when": fast-check fuzzing of every public entry point of core-wasm with at least
// 100,000 generated inputs each (in Node; EVALKERN_FUZZ_SCALE scales the counts, Deno and the browser
// run a tenth unless it is set): arbitrary Unicode strings (lone surrogates, NUL, combining marks,
// long runs), valid and invalid option objects, arbitrary numbers as statistics. Asserted: every throw
// is an EvalkernError with a stable `code` (and never `KERNEL_ABORT`/`OUT_OF_MEMORY` on these small
// inputs), no result holds NaN or ±Infinity, and the module's memory is small at the end.
//
// Inputs are counted per entry point: a per-call function gets one input per call, a batch function
// one per item of the batch. The properties below give each entry point its share; the last test
// checks the counts. Failing inputs are shrunk and reported by fast-check with the seed to replay
// (EVALKERN_FUZZ_SEED).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import * as k from "../src/index.js";
import { EvalkernError } from "../src/index.js";
import { kernels } from "../src/kernel.js";
import { detectedRuntime } from "./runtime.js";

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
const SCALE = Number(env.EVALKERN_FUZZ_SCALE ?? (detectedRuntime() === "node" ? 1 : 0.1));
const SEED = env.EVALKERN_FUZZ_SEED === undefined ? undefined : Number(env.EVALKERN_FUZZ_SEED);
/** Inputs each entry point must receive. */
const TARGET = Math.ceil(100_000 * SCALE);
/** Per property: a few seconds on an idle core, minutes on a loaded CI machine (never a deadline). */
const TIMEOUT = 1_800_000;
const params = (numRuns: number, round = 0): fc.Parameters<unknown> => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED + round }) });

const inputs = new Map<string, number>();
let started = 0;

beforeAll(async () => {
  await k.ready();
  started = performance.now();
});

afterAll(() => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const cpu = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.();
  const cpuText = cpu ? `, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU in this worker` : "";
  console.log(
    `[fuzz] ${inputs.size} entry points, ${[...inputs.values()].reduce((a, b) => a + b, 0)}` +
      ` inputs in ${seconds} s${cpuText} (scale ${SCALE})`,
  );
});

// ---------------------------------------------------------------------------------------------------
// Checks

function finite(value: unknown, depth = 0): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value === null || typeof value !== "object" || depth > 4) return true;
  if (ArrayBuffer.isView(value)) {
    const a = value as unknown as ArrayLike<number>;
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
    return true;
  }
  for (const v of Object.values(value as Record<string, unknown>)) if (!finite(v, depth + 1)) return false;
  return true;
}

/** Calls `f` as entry point `name` with `count` inputs; throws (for fast-check to shrink) on a bad outcome. */
function call(name: string, count: number, f: () => unknown): unknown {
  inputs.set(name, (inputs.get(name) ?? 0) + count);
  let result: unknown;
  try {
    result = f();
  } catch (error) {
    if (!EvalkernError.isInstance(error)) throw new Error(`${name}: untyped error ${String(error)}`, { cause: error });
    const code = (error as EvalkernError).code;
    if (typeof code !== "string" || code === "" || code === "EVALKERN_ERROR")
      throw new Error(`${name}: error without a code: ${String(error)}`);
    if (code === "KERNEL_ABORT" || code === "OUT_OF_MEMORY") throw new Error(`${name}: ${code} on a small input: ${String(error)}`);
    return undefined;
  }
  if (!finite(result))
    throw new Error(
      `${name}: non-finite result ${JSON.stringify(result, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v))}`,
    );
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries

const PIECES = [
  "",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\0",
  "\uD800",
  "\uDC00",
  "\uDBFF\uDFFF",
  "\uFFFD",
  "\uFEFF",
  "\u200B",
  "\u0130",
  "\u212A",
  "ß",
  "ΣΑΣ",
  "ς",
  "e\u0301",
  "\uFB01",
  "東京",
  "。",
  "，",
  "😀",
  "👨‍👩‍👧",
  "\u00A0",
  "\u2028",
  "\u3000",
  "\u0085",
  "a",
  "A",
  "the",
  "cat",
  "The cat sat.",
  "1,000",
  "3.14",
  "-",
  "'s",
  "n't",
  "&amp;",
  "<skipped>",
  "İstanbul",
  "ǅ",
  "\u0345",
  "ΐ",
  "\uFDFA",
  "\u1E9E",
  "Ⅻ",
  "١٢٣",
  "\u0000\u0000",
  "a.b",
  "U.S.A.",
  "--",
  "...",
  "\\",
  '"',
  "'",
  "\u00AD",
  "\u034F",
  "\u1100\u1161\u11A8",
  "ﾊﾟ",
  "\uDB40\uDC01",
];

const piece = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);

/** A text: mostly a few pieces; sometimes a long run of one piece (up to a few thousand units). */
const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.array(piece, { maxLength: 10 }).map((a) => a.join(" ".repeat(a.length & 1))) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "a ", "\0", " ", "\uD800", "東", "ab\n", "x\n\n", "é", "\u0301"), fc.integer({ min: 0, max: 1500 }))
      .map(([c, n]) => c.repeat(n)),
  },
);

/** Usually a valid value, sometimes anything at all. */
const orAnything = <T>(arb: fc.Arbitrary<T>, weight = 24): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight, arbitrary: arb as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
  );

const refsArb = orAnything(fc.array(orAnything(text, 60), { minLength: 1, maxLength: 3 }));
const item = fc.record({ hyp: orAnything(text, 60), refs: refsArb });
const batch = fc.array(item, { minLength: 1, maxLength: 6 });

const anyNumber = fc.oneof(
  fc.integer({ min: -2, max: 40 }),
  fc.double(),
  fc.constantFrom(0, 1, 2 ** 53, 2 ** 53 + 2, -1, 1e308, Number.NaN, Number.POSITIVE_INFINITY, -0, 0.5),
);

const bleuOptions = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      {
        tokenize: fc.constantFrom("13a", "intl", "zh", "char", "none"),
        lowercase: fc.boolean(),
        smoothMethod: fc.constantFrom("exp", "floor", "add-k", "none"),
        smoothValue: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyNumber),
        maxNgramOrder: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: anyNumber }),
        effectiveOrder: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc.record({ tokenize: fc.anything(), lowercase: fc.anything(), smoothMethod: fc.anything() }, { requiredKeys: [] }),
  },
);

const chrfOptions = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      {
        charOrder: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 8 }) }, { weight: 1, arbitrary: anyNumber }),
        wordOrder: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: anyNumber }),
        beta: fc.oneof(fc.integer({ min: 0, max: 4 }), anyNumber),
        lowercase: fc.boolean(),
        whitespace: fc.boolean(),
        epsSmoothing: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
);

const ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8", "rouge9", "rougeL", "rougeLsum"];
const rougeOptions = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      { types: orAnything(fc.subarray(ROUGE_TYPES, { minLength: 0 }), 12), useStemmer: orAnything(fc.boolean()) },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
);

const f1Options = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ mode: orAnything(fc.constantFrom("dspy", "byob")), hotpot: orAnything(fc.boolean()) }, { requiredKeys: [] }),
  },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
);

const dprOptions = fc.oneof(
  { weight: 10, arbitrary: fc.record({ normalizeText: orAnything(fc.boolean()) }, { requiredKeys: [] }) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
);

/** Statistics rows: sometimes possible (counts within totals), sometimes arbitrary numbers. */
const statRow = (width: number): fc.Arbitrary<number[]> =>
  fc.oneof(
    fc.array(fc.integer({ min: 0, max: 60 }), { minLength: width, maxLength: width }),
    fc.array(anyNumber, { minLength: width, maxLength: width }),
    fc.array(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 60 }) }, { weight: 1, arbitrary: anyNumber }), {
      minLength: width,
      maxLength: width,
    }),
  );

// ---------------------------------------------------------------------------------------------------
// Properties

const hypsOf = (b: { hyp: unknown }[]): string[] => b.map((x) => x.hyp) as string[];
const refsOf = (b: { refs: unknown }[]): string[][] => b.map((x) => x.refs) as string[][];
/** Inputs a batch call receives: its items (at least one, for a call that is refused up front). */
const n = (b: readonly unknown[]): number => Math.max(1, b.length);

/**
 * Runs `property` until entry point `entry` (the one that gets the fewest inputs per run) has had
 * TARGET inputs: batches are random in length, so the runs needed are not known in advance.
 */
function fuzzUntil<T>(entry: string, property: fc.IProperty<T>): void {
  for (let round = 0; (inputs.get(entry) ?? 0) < TARGET; round++) {
    const missing = TARGET - (inputs.get(entry) ?? 0);
    fc.assert(property, params(Math.ceil(missing / 3), round) as fc.Parameters<T>);
  }
}

describe("fuzz: every public entry point, typed errors and finite results only", () => {
  it(
    "BLEU",
    () => {
      fuzzUntil(
        "sentenceBleu",
        fc.property(batch, bleuOptions, (b, o) => {
          const opts = o as k.BleuOptions;
          for (const x of b) call("sentenceBleu", 1, () => k.sentenceBleu(x.hyp as string, x.refs as string[], opts));
          call("corpusBleu", n(b), () => k.corpusBleu(hypsOf(b), refsOf(b), opts));
          const stats = call("bleuStatisticsBatch", n(b), () => k.bleuStatisticsBatch(hypsOf(b), refsOf(b), opts)) as
            | Float64Array
            | undefined;
          call("sentenceBleuBatch", n(b), () => k.sentenceBleuBatch(hypsOf(b), refsOf(b), opts));
          if (stats) {
            call("bleuScoresFromStatisticsBatch", n(b), () => k.bleuScoresFromStatisticsBatch(stats, opts));
            const N = k.resolveBleuOptions(opts, true).maxNgramOrder;
            const sum = call("sumStatistics", n(b), () => k.sumStatistics(stats, N)) as k.BleuStatistics;
            call("bleuFromStatistics", 1, () => k.bleuFromStatistics(sum, opts));
          }
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "chrF and chrF++",
    () => {
      fuzzUntil(
        "sentenceChrf",
        fc.property(batch, chrfOptions, (b, o) => {
          const opts = o as k.ChrfOptions;
          for (const x of b) call("sentenceChrf", 1, () => k.sentenceChrf(x.hyp as string, x.refs as string[], opts));
          call("corpusChrf", n(b), () => k.corpusChrf(hypsOf(b), refsOf(b), opts));
          const stats = call("chrfStatisticsBatch", n(b), () => k.chrfStatisticsBatch(hypsOf(b), refsOf(b), opts)) as
            | Float64Array
            | undefined;
          call("sentenceChrfBatch", n(b), () => k.sentenceChrfBatch(hypsOf(b), refsOf(b), opts));
          if (stats) {
            call("chrfScoresFromStatisticsBatch", n(b), () => k.chrfScoresFromStatisticsBatch(stats, opts));
            const w = k.chrfStatisticsWidth(opts);
            call("chrfFromStatistics", 1, () => k.chrfFromStatistics(stats.subarray(0, w), opts));
          }
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "ROUGE, token F1, Levenshtein, BYOB LCS",
    () => {
      fuzzUntil(
        "rougeScore",
        fc.property(batch, rougeOptions, f1Options, (b, ro, fo) => {
          for (const x of b) {
            call("rougeScore", 1, () => k.rougeScore(x.hyp as string, x.refs as string[], ro as k.RougeOptions));
            call("tokenF1", 1, () => k.tokenF1(x.hyp as string, x.refs as string[], fo as k.TokenF1Options));
            const r0 = Array.isArray(x.refs) ? (x.refs[0] as string) : (x.refs as string);
            call("levenshteinDistance", 1, () => k.levenshteinDistance(x.hyp as string, r0));
          }
          call("rougeBatch", n(b), () => k.rougeBatch(hypsOf(b), refsOf(b), ro as k.RougeOptions));
          call("tokenF1Batch", n(b), () => k.tokenF1Batch(hypsOf(b), refsOf(b), fo as k.TokenF1Options));
          const firsts = b.map((x) => (Array.isArray(x.refs) ? x.refs[0] : x.refs)) as string[];
          call("levenshteinBatch", n(b), () => k.levenshteinBatch(hypsOf(b), firsts));
          call("byobLcsStatisticsBatch", n(b), () => k.byobLcsStatisticsBatch(hypsOf(b), firsts));
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "TER and shared pair batches",
    () => {
      // TER's shift search is superlinear: long runs stay short here (the limits test covers long input)
      const terText = fc.oneof(
        { weight: 12, arbitrary: fc.array(piece, { maxLength: 10 }).map((a) => a.join(" ")) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom("a ", "a.", "\0", "東", "x\n"), fc.integer({ min: 0, max: 120 }))
            .map(([c, m]) => c.repeat(m)),
        },
      );
      const terItem = fc.record({
        hyp: orAnything(terText, 60),
        refs: orAnything(fc.array(orAnything(terText, 60), { minLength: 1, maxLength: 3 })),
      });
      const terOptions = fc.oneof(
        {
          weight: 10,
          arbitrary: fc.record(
            {
              normalized: orAnything(fc.boolean()),
              noPunct: orAnything(fc.boolean()),
              asianSupport: orAnything(fc.boolean()),
              caseSensitive: orAnything(fc.boolean()),
            },
            { requiredKeys: [] },
          ),
        },
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
      );
      fuzzUntil(
        "sentenceTer",
        fc.property(fc.array(terItem, { minLength: 1, maxLength: 6 }), terOptions, anyNumber, (b, o, num) => {
          const opts = o as k.TerOptions;
          for (const x of b) {
            call("sentenceTer", 1, () => k.sentenceTer(x.hyp as string, x.refs as string[], opts));
            call("terTokenize", 1, () => k.terTokenize(x.hyp as string, opts));
          }
          call("corpusTer", n(b), () => k.corpusTer(hypsOf(b), refsOf(b), opts));
          const stats = call("terStatisticsBatch", n(b), () => k.terStatisticsBatch(hypsOf(b), refsOf(b), opts)) as
            | Float64Array
            | undefined;
          call("sentenceTerBatch", n(b), () => k.sentenceTerBatch(hypsOf(b), refsOf(b), opts));
          call("terScoresFromStatisticsBatch", n(b), () => k.terScoresFromStatisticsBatch(stats ?? Float64Array.of(num, num)));
          call("terFromStatistics", 1, () => k.terFromStatistics({ numEdits: stats?.[0] ?? num, refLength: num }));
          call("terSignature", 1, () => k.terSignature(opts, num));
          call("sharedPairBatch", n(b), () =>
            k.sharedPairBatch(hypsOf(b), refsOf(b), () => [
              k.sentenceBleuBatch(hypsOf(b), refsOf(b)),
              k.sentenceChrfBatch(hypsOf(b), refsOf(b)),
            ]),
          );
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "normalize_text, Python lower/NFD, DPR tokenizer, utf8Length",
    () => {
      const texts = fc.array(orAnything(text, 60), { minLength: 1, maxLength: 6 });
      fuzzUntil(
        "normalizeText",
        fc.property(texts, dprOptions, (t, dopt) => {
          const ts = t as string[];
          for (const s of ts) {
            call("normalizeText", 1, () => k.normalizeText(s));
            call("pythonNfd", 1, () => k.pythonNfd(s));
            call("pythonLower", 1, () => k.pythonLower(s));
            call("pythonLowerSplitJoin", 1, () => k.pythonLowerSplitJoin(s));
            call("dprTokenize", 1, () => k.dprTokenize(s, dopt as k.DprTokenizeOptions));
            call("utf8Length", 1, () => k.utf8Length(s));
          }
          call("normalizeTextBatch", n(ts), () => k.normalizeTextBatch(ts));
          call("pythonNfdBatch", n(ts), () => k.pythonNfdBatch(ts));
          call("pythonLowerBatch", n(ts), () => k.pythonLowerBatch(ts));
          call("dprTokenizeBatch", n(ts), () => k.dprTokenizeBatch(ts, dopt as k.DprTokenizeOptions));
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "multiple-choice argmax",
    () => {
      const question = fc.oneof(
        {
          weight: 12,
          arbitrary: fc.integer({ min: 1, max: 5 }).chain((c) =>
            fc.record({
              choices: fc.array(text, { minLength: c, maxLength: c }),
              logLikelihoods: fc.array(anyNumber, { minLength: c, maxLength: c }),
            }),
          ),
        },
        { weight: 1, arbitrary: fc.record({ choices: fc.anything(), logLikelihoods: fc.anything() }) },
        {
          weight: 1,
          arbitrary: fc.record({
            choices: fc.array(orAnything(text, 4), { maxLength: 3 }),
            logLikelihoods: fc.array(fc.anything(), { maxLength: 3 }),
          }),
        },
      );
      fuzzUntil(
        "multipleChoiceArgmax",
        fc.property(fc.array(question, { minLength: 1, maxLength: 6 }), (qs) => {
          for (const q of qs)
            call("multipleChoiceArgmax", 1, () => k.multipleChoiceArgmax(q.choices as string[], q.logLikelihoods as number[]));
          call("multipleChoiceArgmaxBatch", n(qs), () => k.multipleChoiceArgmaxBatch(qs as k.MultipleChoiceQuestion[]));
        }),
      );
    },
    TIMEOUT,
  );

  it(
    "statistics entry points with arbitrary numbers",
    () => {
      const bleuStats = fc.integer({ min: 1, max: 5 }).chain((N) =>
        fc.record({
          N: fc.constant(N),
          obj: fc.oneof(
            {
              weight: 8,
              arbitrary: statRow(2 + 2 * N).map((r) => ({ sysLen: r[0], refLen: r[1], counts: r.slice(2, 2 + N), totals: r.slice(2 + N) })),
            },
            { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, maxDepth: 2 }) },
          ),
          rows: fc.array(statRow(2 + 2 * N), { minLength: 0, maxLength: 3 }),
        }),
      );
      const chrfStats = fc.record({ C: fc.integer({ min: 0, max: 6 }), W: fc.integer({ min: 0, max: 2 }) }).chain(({ C, W }) =>
        fc.record({
          opts: fc.constant({ charOrder: C, wordOrder: W } as k.ChrfOptions),
          row: orAnything(statRow(3 * (C + W)), 12),
          rows: fc.array(statRow(3 * (C + W)), { minLength: 0, maxLength: 3 }),
        }),
      );
      fc.assert(
        fc.property(bleuStats, chrfStats, bleuOptions, anyNumber, (bs, cs, bo, num) => {
          const opts = { ...(typeof bo === "object" && bo !== null ? bo : {}), maxNgramOrder: bs.N } as k.BleuOptions;
          const flat = Float64Array.from(bs.rows.flat());
          call("bleuFromStatistics", 1, () => k.bleuFromStatistics(bs.obj as k.BleuStatistics, opts));
          call("bleuScoresFromStatisticsBatch", 1, () => k.bleuScoresFromStatisticsBatch(flat, opts));
          call("sumStatistics", 1, () => k.sumStatistics(flat, bs.N));
          call("byobBleuScoresFromStatisticsBatch", 1, () =>
            k.byobBleuScoresFromStatisticsBatch(bs.N === 4 ? flat : Float64Array.from(bs.rows.flat().slice(0, 10))),
          );
          call("chrfFromStatistics", 1, () => k.chrfFromStatistics(cs.row as number[], cs.opts));
          call("chrfScoresFromStatisticsBatch", 1, () => k.chrfScoresFromStatisticsBatch(Float64Array.from(cs.rows.flat()), cs.opts));
          // the helpers around statistics and options
          call("bleuStatisticsWidth", 1, () =>
            k.bleuStatisticsWidth(num > 0.5 ? (bo as k.BleuOptions) : ({ maxNgramOrder: num } as k.BleuOptions)),
          );
          call("chrfStatisticsWidth", 1, () => k.chrfStatisticsWidth(cs.opts));
          call("terStatisticsWidth", 1, () => k.terStatisticsWidth(bo as k.TerOptions));
          call("resolveBleuOptions", 1, () => k.resolveBleuOptions(bo as k.BleuOptions, num > 0));
          call("resolveChrfOptions", 1, () => k.resolveChrfOptions(cs.opts));
          call("bleuSignature", 1, () => k.bleuSignature(bo as k.BleuOptions, num as number, num > 0));
          call("chrfSignature", 1, () => k.chrfSignature(cs.opts, "var"));
          call("kernelSignature", 1, () => k.kernelSignature());
          call("terFromStatistics", 1, () =>
            k.terFromStatistics(
              num > 0.5 ? { numEdits: bs.obj as number, refLength: num } : (bs.obj as { numEdits: number; refLength: number }),
            ),
          );
          call("terScoresFromStatisticsBatch", 1, () =>
            k.terScoresFromStatisticsBatch(Float64Array.from(bs.rows.flat().slice(0, 2 * Math.floor(bs.rows.flat().length / 2)))),
          );
          call("terSignature", 1, () => k.terSignature(bo as k.TerOptions, num as number));
          call("resolveTerOptions", 1, () => k.resolveTerOptions(bo as k.TerOptions));
          call("isReady", 1, () => k.isReady());
        }),
        params(TARGET),
      );
    },
    TIMEOUT,
  );

  it(
    "ready() with arbitrary options keeps the module usable and fails typed",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.anything({ maxDepth: 1 }),
            fc.record({ wasm: fc.oneof(fc.uint8Array({ maxLength: 16 }), fc.anything({ maxDepth: 1 })) }),
          ),
          async (options) => {
            inputs.set("ready", (inputs.get("ready") ?? 0) + 1);
            try {
              await k.ready(options as k.ReadyOptions);
            } catch (error) {
              if (!EvalkernError.isInstance(error) || (error as EvalkernError).code !== "INVALID_ARGUMENT") throw error;
            }
            if (!k.isReady()) throw new Error("the module is no longer ready");
          },
        ),
        // compiling rejected bytes costs an engine round trip: a tenth of the target
        params(Math.ceil(TARGET / 10)),
      );
      await k.ready();
      expect(k.sentenceBleu("a b c d", ["a b c d"]).score).toBe(100.00000000000004);
    },
    TIMEOUT,
  );

  it("every entry point got its inputs, and the module's memory is small at the end", () => {
    const expected = [
      "sentenceBleu",
      "corpusBleu",
      "bleuStatisticsBatch",
      "sentenceBleuBatch",
      "bleuScoresFromStatisticsBatch",
      "sumStatistics",
      "bleuFromStatistics",
      "sentenceChrf",
      "corpusChrf",
      "chrfStatisticsBatch",
      "sentenceChrfBatch",
      "chrfScoresFromStatisticsBatch",
      "chrfFromStatistics",
      "rougeScore",
      "rougeBatch",
      "tokenF1",
      "tokenF1Batch",
      "levenshteinDistance",
      "levenshteinBatch",
      "byobLcsStatisticsBatch",
      "byobBleuScoresFromStatisticsBatch",
      "normalizeText",
      "normalizeTextBatch",
      "pythonNfd",
      "pythonLower",
      "pythonNfdBatch",
      "pythonLowerBatch",
      "pythonLowerSplitJoin",
      "dprTokenize",
      "dprTokenizeBatch",
      "utf8Length",
      "multipleChoiceArgmax",
      "multipleChoiceArgmaxBatch",
      "bleuStatisticsWidth",
      "chrfStatisticsWidth",
      "resolveBleuOptions",
      "resolveChrfOptions",
      "bleuSignature",
      "chrfSignature",
      "kernelSignature",
      "isReady",
      "sentenceTer",
      "terTokenize",
      "corpusTer",
      "terStatisticsBatch",
      "sentenceTerBatch",
      "terScoresFromStatisticsBatch",
      "terFromStatistics",
      "terSignature",
      "resolveTerOptions",
      "sharedPairBatch",
      "terStatisticsWidth",
    ];
    const short = expected.filter((name) => (inputs.get(name) ?? 0) < TARGET);
    expect(short.map((name) => `${name}: ${inputs.get(name) ?? 0}`)).toEqual([]);
    expect(inputs.get("ready") ?? 0).toBeGreaterThanOrEqual(Math.ceil(TARGET / 10));
    expect(kernels().memory.buffer.byteLength).toBeLessThanOrEqual(16 * 2 ** 20);
  });
});
