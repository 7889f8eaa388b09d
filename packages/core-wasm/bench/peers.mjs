// The benchmark's peers that are not dependencies of this package, loaded at run time from their
// registries' own packages (nothing of theirs is copied into this repository):
//
// - promptfoo's BLEU (`calculateBleuScore` in src/assertions/bleu.ts, MIT): promptfoo is a large
//   application whose bundle does not export it, so `npm pack promptfoo@VERSION` fetches its tarball
//   once into the OS temp folder and the functions are taken verbatim from the bundled chunk that
//   defines them (getNGrams, the brevity penalty, tokenize, the n-gram counter and calculateBleuScore).
//   promptfoo's ROUGE (src/assertions/rouge.ts) is `js-rouge`'s n/l/s with default options, which the
//   benchmark measures directly.
// - sacreBLEU 2.6.0 (Python): run as a child process when `python3 -c "import sacrebleu"` works, timing
//   CPU seconds (`time.process_time()`) of one pass over the same pairs.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

const PYTHON = `
import json, sys, time
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")][: int(sys.argv[2])]
out = {"version": sacrebleu.__version__, "python": sys.version.split()[0]}
def run(name, metric):
    metric.sentence_score(rows[0]["hyp"], rows[0]["refs"])
    t = time.process_time()
    for r in rows:
        metric.sentence_score(r["hyp"], r["refs"])
    out[name] = len(rows) / (time.process_time() - t)
run("bleu", BLEU(effective_order=True))
run("chrf", CHRF())
run("chrf++", CHRF(word_order=2))
run("ter", TER())
print(json.dumps(out))
`;

/** sacreBLEU's pairs/s (CPU time) on the first `count` pairs of `file`, or a reason they are missing. */
export function runSacrebleu(file, count) {
  const r = spawnSync("python3", ["-c", PYTHON, file, String(count)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr || "").trim().split("\n").pop();
    return { reason: `sacreBLEU not run (python3 with sacrebleu: ${why})` };
  }
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
