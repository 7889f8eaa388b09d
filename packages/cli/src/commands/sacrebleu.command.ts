import { type Command, Option } from "commander";
import { type CommandContext, nonNegativeInt, nonNegativeNumber, positiveInt } from "./command.js";

/** `evalkern sacrebleu`: sacreBLEU's own command line (flags, output, signatures) on plain-text files. */
export function registerSacrebleu(program: Command, ctx: CommandContext): void {
  program
    .command("sacrebleu")
    .summary("sacreBLEU's command line on plain-text files: REF... -i HYP -m bleu chrf ter")
    .description(
      "Score one system's plain-text output (one segment per line) against line-aligned reference files with sacreBLEU's flags " +
        "and output: the same corpus scores, signatures and lines as sacreBLEU 2.6.0 (JSON by default, -f text, -b, -w). " +
        "Lines are read as sacreBLEU reads them (split at \\n, trailing whitespace removed, empty lines kept).",
    )
    .argument("[refs...]", "reference files, one per reference, line-aligned with the hypotheses (- reads stdin)")
    .option("-i, --input <file...>", "the hypothesis file (- or none: stdin)")
    .addOption(new Option("-m, --metrics <name...>", "metrics (space-separated)").choices(["bleu", "chrf", "ter"]).default(["bleu"]))
    .option("-b, --score-only", "print only the computed score")
    .option("-w, --width <n>", "decimals of the printed scores", nonNegativeInt("--width"), 1)
    .addOption(
      new Option("-f, --format <format>", "output format (overridden by $SACREBLEU_FORMAT, as in sacreBLEU)")
        .choices(["json", "text", "latex"])
        .default("json"),
    )
    .option("--tokenize <name>", "BLEU tokenizer: 13a (default), intl, zh, char, none (sacreBLEU's -tok)")
    .addOption(new Option("-s, --smooth-method <method>", "BLEU smoothing").choices(["exp", "floor", "add-k", "none"]).default("exp"))
    .option(
      "--smooth-value <x>",
      "BLEU smoothing value for floor (default 0.1) and add-k (default 1) (sacreBLEU's -sv)",
      nonNegativeNumber("--smooth-value"),
    )
    .option("--lowercase", "case-insensitive BLEU (sacreBLEU's -lc)")
    .option("--chrf-char-order <n>", "chrF character n-gram order (-cc)", positiveInt("--chrf-char-order"), 6)
    .option("--chrf-word-order <n>", "chrF word n-gram order; 2 is chrF++ (-cw)", nonNegativeInt("--chrf-word-order"), 0)
    .option("--chrf-beta <n>", "chrF recall weight", positiveInt("--chrf-beta"), 2)
    .option("--chrf-whitespace", "include whitespace in chrF character n-grams")
    .option("--chrf-lowercase", "case-insensitive chrF")
    .option("--chrf-eps-smoothing", "chrF epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order")
    .option("--ter-case-sensitive", "case-sensitive TER")
    .option("--ter-asian-support", "TER: special treatment of Asian characters")
    .option("--ter-no-punct", "TER: remove punctuation")
    .option("--ter-normalized", "TER: basic normalisation and tokenisation")
    .option("--workers <n>", "worker threads (default and maximum: all cores)", positiveInt("--workers"))
    .option("--no-color", "accepted for sacreBLEU's -nc (evalkern sacrebleu prints no colours)")
    .addOption(new Option("--short").hideHelp())
    .addOption(new Option("--num-refs <n>").hideHelp())
    .addOption(new Option("--sentence-level").hideHelp())
    .addOption(new Option("--confidence").hideHelp())
    .addOption(new Option("--confidence-n <n>").hideHelp())
    .addOption(new Option("-t, --test-set <name>").hideHelp())
    .addHelpText(
      "after",
      "\nsacreBLEU's multi-letter short flags work too: -tok, -lc, -sv, -cc, -cw.\n\nExamples:\n" +
        "  evalkern sacrebleu ref.txt -i hyp.txt -m bleu chrf ter\n  evalkern sacrebleu ref1.txt ref2.txt -i hyp.txt -b -w 2\n" +
        "  cat hyp.txt | evalkern sacrebleu ref.txt -tok intl -f text\n",
    )
    .action(async (refs: string[], o: Record<string, unknown>) => {
      const { sacrebleuCommand, refuseUnavailable } = await import("./sacrebleu.js");
      refuseUnavailable(o);
      const exit = await sacrebleuCommand(
        {
          refs,
          input: o.input as string[] | undefined,
          metrics: o.metrics as ("bleu" | "chrf" | "ter")[],
          scoreOnly: o.scoreOnly === true,
          width: o.width as number,
          format: o.format as string,
          tokenize: o.tokenize as string | undefined,
          smoothMethod: o.smoothMethod as string,
          smoothValue: o.smoothValue as number | undefined,
          lowercase: o.lowercase === true,
          chrfCharOrder: o.chrfCharOrder as number,
          chrfWordOrder: o.chrfWordOrder as number,
          chrfBeta: o.chrfBeta as number,
          chrfWhitespace: o.chrfWhitespace === true,
          chrfLowercase: o.chrfLowercase === true,
          chrfEpsSmoothing: o.chrfEpsSmoothing === true,
          terCaseSensitive: o.terCaseSensitive === true,
          terAsianSupport: o.terAsianSupport === true,
          terNoPunct: o.terNoPunct === true,
          terNormalized: o.terNormalized === true,
          workers: o.workers as number | undefined,
          formatFromEnv: process.env.SACREBLEU_FORMAT,
        },
        { stdout: ctx.io.stdout, ...(ctx.io.stdin ? { stdin: ctx.io.stdin } : {}) },
      );
      ctx.setExitCode(exit);
    });
}
