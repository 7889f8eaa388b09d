// DeepEval TextToImageMetric and ImageEditingMetric (README-deepeval.md "Image metrics"): a generated
// (or edited) image judged for semantic consistency with the prompt and for perceptual quality.
import { pyFloatRepr } from "@evalkern/metrics/python";
import { InvalidArgumentError } from "@evalkern/metrics";
import {
  LLMTestCaseParams,
  parseMultimodalString,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
  type MLLMImage,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { assertImageSupport } from "../images.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, withCount } from "./schema.js";

/** `{score: [s1, ...], reasoning}` with exactly `count` scores, each 0–10. */
function scoreListSchema(name: string, count: number) {
  const shape = z.object({ score: z.array(z.number().min(0).max(10)), reasoning: z.string() });
  return judgeSchema(name, withCount(shape, "score", count, count === 1 ? "the criterion" : "criterion"));
}

const ONE_SCORE = scoreListSchema("semantic_consistency", 1);
const EDIT_SCORES = scoreListSchema("semantic_consistency", 2);
const QUALITY_SCORES = scoreListSchema("perceptual_quality", 2);

/** The texts and the images of a multimodal field, apart. */
export function splitParts(value: string | null): { texts: string[]; images: MLLMImage[] } {
  const texts: string[] = [];
  const images: MLLMImage[] = [];
  for (const part of parseMultimodalString(value ?? "")) {
    if (typeof part === "string") texts.push(part);
    else images.push(part);
  }
  return { texts, images };
}

/** DeepEval's image-count check: a metric that judges one output image refuses any other count. */
export function requireImageCount(metric: string, field: "input" | "output", images: readonly MLLMImage[], count: number): void {
  if (images.length === count) return;
  throw new InvalidArgumentError(
    `Can only evaluate test cases with '${count}' ${field} images using the '${metric}' metric. \`${images.length}\` found.`,
    { argument: field === "input" ? "input" : "actualOutput", expected: `${count} image(s)`, actual: String(images.length) },
  );
}

const QUALITY_PROMPT = (image: MLLMImage): string =>
  `You are rating an AI-generated image for how well it was made, regardless of what it shows.

Give two scores from 0 to 10:
1. Naturalness: 0 when the scene looks plainly unnatural (impossible lighting or shadows, a ` +
  `wrong sense of distance or scale); 10 when it looks entirely natural.
2. Artifacts: 0 when large parts are distorted, blurred, scratched, watermarked, or show ` +
  `malformed faces or body parts, or subjects that do not fit together; 10 when there are no ` +
  `artifacts at all.

Return the two scores as a list in that order: "score": [naturalness, artifacts].

${jsonOnly('{"score": [<0-10>, <0-10>], "reasoning": "<why>"}')}

Image:
${image}`;

/** Score and reason of the two sub-judgements: sqrt(min(SC) · min(PQ)) / 10. */
abstract class GeneratedImageMetric extends JudgeMetric {
  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  /** Checks of `input` before any call (ImageEditing: exactly one original image). */
  protected checkInput(_testCase: LLMTestCase): void {}

  /** The semantic-consistency call for this metric. */
  protected abstract consistency(
    testCase: LLMTestCase,
    output: MLLMImage,
    signal: AbortSignal | undefined,
  ): Promise<{ score: number[]; reasoning: string }>;

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    assertImageSupport(this.model, this.name);
    const { images } = splitParts(testCase.actualOutput);
    requireImageCount(this.name, "output", images, 1);
    this.checkInput(testCase);
    const output = images[0] as MLLMImage;
    const [sc, pq] = await this.gatherPair(
      () => this.consistency(testCase, output, signal),
      () => this.judge(QUALITY_SCORES, QUALITY_PROMPT(output), { signal }),
    );
    const minSc = Math.min(...sc.score);
    const minPq = Math.min(...pq.score);
    return {
      score: Math.sqrt(minSc * minPq) / 10,
      reason: () =>
        `The score is ${(this.score ?? 0).toFixed(2)}: the lowest semantic-consistency score was ${pyFloatRepr(minSc)} and the lowest ` +
        `perceptual-quality score was ${pyFloatRepr(minPq)} (out of 10).\nSemantic consistency: ` +
        `${sc.reasoning}\nPerceptual quality: ${pq.reasoning}`,
      verboseSteps: [
        `Semantic Consistency Scores:\n[${sc.score.map(pyFloatRepr).join(", ")}]`,
        `Semantic Consistency Reasoning:\n${sc.reasoning}`,
        `Perceptual Quality Scores:\n[${pq.score.map(pyFloatRepr).join(", ")}]`,
        `Perceptual Quality Reasoning:\n${pq.reasoning}`,
      ],
    };
  }
}

/**
 * How well a generated image follows its text prompt and how well it is made (DeepEval
 * `TextToImageMetric`). The test case's `input` is the prompt (its text; images in it are ignored) and
 * `actualOutput` holds exactly one image.
 *
 * Details: two judge calls, both sent the image: semantic consistency (one 0–10 score for following
 * the prompt) and perceptual quality (naturalness and artifacts, 0–10 each). Score
 * `sqrt(min(SC) · min(PQ)) / 10`; threshold 0.5; strict mode scores below 1 as 0. The reason is
 * composed from the two judgements (no reason call).
 *
 * @example
 * const metric = new TextToImageMetric({ model: judge });
 * await metric.aMeasure(new LLMTestCase({ input: "A red bicycle by a lake", actualOutput: `${image}` }));
 */
export class TextToImageMetric extends GeneratedImageMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  override get name(): string {
    return "Text to Image";
  }

  protected consistency(testCase: LLMTestCase, output: MLLMImage, signal: AbortSignal | undefined) {
    const prompt = splitParts(testCase.input).texts.join("\n");
    return this.judge(
      ONE_SCORE,
      `You are rating an AI-generated image against the text prompt it was generated from.

Give one score from 0 to 10 for how closely the image follows the prompt: 0 when it does not ` +
        `follow it at all, 10 when it follows it perfectly. Return it as a one-item list: "score": [score].

Text prompt:
${prompt}

${jsonOnly('{"score": [<0-10>], "reasoning": "<why>"}')}

Image:
${output}`,
      { signal },
    );
  }
}

/**
 * How well an edited image carries out an editing instruction without over-editing, and how well it is
 * made (DeepEval `ImageEditingMetric`). `input` holds the instruction and exactly one original image;
 * `actualOutput` exactly one edited image.
 *
 * Details: as {@link TextToImageMetric}, but the semantic-consistency call is sent both images and
 * gives two scores (editing success, and how little was changed beyond the edit). Score
 * `sqrt(min(SC) · min(PQ)) / 10`; threshold 0.5; strict mode scores below 1 as 0.
 *
 * @example
 * const metric = new ImageEditingMetric({ model: judge });
 * await metric.aMeasure(new LLMTestCase({ input: ["Make the sky purple", original], actualOutput: [edited] }));
 */
export class ImageEditingMetric extends GeneratedImageMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  override get name(): string {
    return "Image Editing";
  }

  protected override checkInput(testCase: LLMTestCase): void {
    requireImageCount(this.name, "input", splitParts(testCase.input).images, 1);
  }

  protected consistency(testCase: LLMTestCase, output: MLLMImage, signal: AbortSignal | undefined) {
    const { texts, images } = splitParts(testCase.input);
    return this.judge(
      EDIT_SCORES,
      `You are rating an image edit. The first image below is the original; the second is the edited ` +
        `version, which should carry out the editing instruction.

Give two scores from 0 to 10:
1. Editing success: 0 when the edited image does not carry out the instruction at all, 10 when it carries it out perfectly.
2. Over-editing: 0 when the edited image is a completely different picture from the original, ` +
        `10 when it is recognisably the original with only the change asked for.

Return them as a list in that order: "score": [success, over_editing].

Editing instruction:
${texts.join("\n")}

${jsonOnly('{"score": [<0-10>, <0-10>], "reasoning": "<why>"}')}

Images:
${images[0]}
${output}`,
      { signal },
    );
  }
}
