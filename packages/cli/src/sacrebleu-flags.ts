// sacreBLEU spells some short flags with several letters after one dash (-tok, -lc, -sv); commander reads
// "-tok" as -t -o -k. They are rewritten to their long forms before parsing, for `evalkern sacrebleu` only
// (a light module: every command line passes through it).

/** sacreBLEU's flags of more than one letter after a single dash, which commander cannot parse, and their long forms. */
const LONG_FORMS: Readonly<Record<string, string>> = {
  "-tok": "--tokenize",
  "-lc": "--lowercase",
  "-sv": "--smooth-value",
  "-cc": "--chrf-char-order",
  "-cw": "--chrf-word-order",
  "-nc": "--no-color",
  "-sh": "--short",
  "-nr": "--num-refs",
  "-sl": "--sentence-level",
  "-ci": "--confidence",
  "-cin": "--confidence-n",
};

/** `argv` with sacreBLEU's multi-letter short flags (`-tok`, `-lc`, …) spelled long, after the `sacrebleu` command only. */
export function expandSacrebleuFlags(argv: readonly string[]): string[] {
  const at = argv.findIndex((a) => !a.startsWith("-"));
  if (at < 0 || argv[at] !== "sacrebleu") return [...argv];
  return [...argv.slice(0, at + 1), ...argv.slice(at + 1).map((a) => LONG_FORMS[a] ?? a)];
}
