// The benchmark's peers that are not dependencies of this package, loaded at run time from their
// registries' own packages (nothing of theirs is copied into this repository):
//
// - promptfoo's BLEU (`calculateBleuScore` in src/assertions/bleu.ts, MIT): promptfoo is a large
//   application whose bundle does not export it, so `npm pack promptfoo@VERSION` fetches its tarball
//   once into the OS temp folder and the functions are taken verbatim from the bundled chunk that
//   defines them (getNGrams, the brevity penalty, tokenize, the n-gram counter and calculateBleuScore).
//   promptfoo's ROUGE (src/assertions/rouge.ts) is `js-rouge`'s n/l/s with default options, which the
//   benchmark measures directly.
// - sacreBLEU 2.6.0, rouge-score and DSPy's token F1 (Python): see `runPythonReferences` below.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROMPTFOO_VERSION = "0.123.1";

/** promptfoo's `calculateBleuScore(candidate, references)`, or a reason it could not be loaded. */
export function loadPromptfooBleu() {
  try {
    const dir = join(tmpdir(), `evalkern-bench-promptfoo-${PROMPTFOO_VERSION}`);
    if (!existsSync(join(dir, "package", "package.json"))) {
      mkdirSync(dir, { recursive: true });
      const out = execFileSync("npm", ["pack", `promptfoo@${PROMPTFOO_VERSION}`, "--silent"], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      execFileSync("tar", ["xzf", join(dir, out.trim().split("\n").pop()), "-C", dir]);
    }
    const src = join(dir, "package", "dist", "src");
    for (const f of readdirSync(src)) {
      if (!f.endsWith(".js")) continue;
      const text = readFileSync(join(src, f), "utf8");
      const from = text.indexOf("function getNGrams(");
      const bleu = text.indexOf("function calculateBleuScore(");
      if (from < 0 || bleu < from) continue;
      // the end of calculateBleuScore: its body's braces balance (it has no braces in strings)
      let depth = 0;
      let end = text.indexOf("{", text.indexOf(")", text.indexOf("]", bleu)));
      for (; end < text.length; end++) {
        if (text[end] === "{") depth++;
        else if (text[end] === "}" && --depth === 0) break;
      }
      const fn = new Function(`${text.slice(from, end + 1)}\nreturn calculateBleuScore;`)();
      return { fn, name: `promptfoo ${PROMPTFOO_VERSION} calculateBleuScore` };
    }
    return { reason: `calculateBleuScore not found in promptfoo ${PROMPTFOO_VERSION}` };
  } catch (e) {
    return { reason: `promptfoo ${PROMPTFOO_VERSION} could not be fetched with npm pack (${String(e.message ?? e).split("\n")[0]})` };
  }
}

// The Python references of issue 23's target 3, timed in one child process of the benchmark run: sacreBLEU's
// `BLEU(effective_order=True)`, `CHRF()`, `CHRF(word_order=2)`, `TER()` (`sentence_score`, one object reused),
// rouge-score's `RougeScorer(types).score_multi` and DSPy's token F1 (the transcription in
// packages/metrics/bench/dspy-f1.py). None of them is a dependency or is copied into this repository: the
// child finds sacreBLEU and rouge-score on its PYTHONPATH, which `EVALKERN_BENCH_PYTHONPATH` (a path list)
// is put in front of. A reference that does not import is reported as "reference not available: <why>".
// Each one also returns its scores of the first `check` pairs, so the benchmark can show that it times the
// same computation as ours (the reference reproduces our kernels' values, which the golden tests pin).
const PYTHON = `
import importlib.util, json, sys, time
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")][: int(sys.argv[2])]
check = int(sys.argv[3])
rouge_types = sys.argv[4].split(",")
out = {"python": sys.version.split()[0], "rates": {}, "values": {}, "missing": {}}
def run(name, score, value):
    score(rows[0])
    t = time.process_time()
    for r in rows:
        score(r)
    out["rates"][name] = len(rows) / (time.process_time() - t)
    out["values"][name] = [value(score(r)) for r in rows[:check]]
def missing(names, e):
    for n in names:
        out["missing"][n] = f"reference not available: {type(e).__name__}: {e}"
try:
    import sacrebleu
    from sacrebleu.metrics import BLEU, CHRF, TER
    out["sacrebleu"] = sacrebleu.__version__
    for name, m in (("bleu", BLEU(effective_order=True)), ("chrf", CHRF()), ("chrf++", CHRF(word_order=2)), ("ter", TER())):
        run(name, lambda r, m=m: m.sentence_score(r["hyp"], r["refs"]), lambda s: s.score)
except Exception as e:
    missing(["bleu", "chrf", "chrf++", "ter"], e)
try:
    from rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(rouge_types, use_stemmer=False)
    run("rouge", lambda r: scorer.score_multi(r["refs"], r["hyp"]), lambda s: [s[t].fmeasure for t in rouge_types])
except Exception as e:
    missing(["rouge"], e)
try:
    spec = importlib.util.spec_from_file_location("dspy_f1", sys.argv[5])
    dspy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dspy)
    run("f1", lambda r: dspy.F1(r["hyp"], r["refs"]), float)
except Exception as e:
    missing(["f1"], e)
print(json.dumps(out))
`;

/** The child's environment: `EVALKERN_BENCH_PYTHONPATH` in front of any PYTHONPATH. */
export function pythonEnv() {
  const extra = process.env.EVALKERN_BENCH_PYTHONPATH;
  if (!extra) return process.env;
  const rest = process.env.PYTHONPATH;
  return { ...process.env, PYTHONPATH: rest ? `${extra}:${rest}` : extra };
}

const DSPY_F1_PY = fileURLToPath(new URL("../../metrics/bench/dspy-f1.py", import.meta.url));

/**
 * The Python references' pairs/s (CPU time) on the first `count` pairs of `file`, their scores of the first
 * `check` pairs, and for each one that could not run, why (`missing`); `reason` when python3 itself failed.
 */
export function runPythonReferences(file, count, { check = 500, rougeTypes = ["rouge1", "rouge2", "rougeL", "rougeLsum"] } = {}) {
  const args = ["-c", PYTHON, file, String(count), String(check), rougeTypes.join(","), DSPY_F1_PY];
  const r = spawnSync("python3", args, { encoding: "utf8", maxBuffer: 1 << 26, env: pythonEnv() });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr || "").trim().split("\n").pop();
    return { reason: `reference not available: python3 failed (${why})` };
  }
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
