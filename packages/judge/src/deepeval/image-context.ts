// DeepEval ImageCoherenceMetric, ImageHelpfulnessMetric and ImageReferenceMetric (README-deepeval.md
// "Image metrics"): each image of an answer judged against the text right above and below it.
import { InvalidArgumentError } from "@evalkern/metrics";
import {
  LLMTestCaseParams,
  MLLMImage,
  parseMultimodalString,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
  type MultimodalPart,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { assertImageSupport } from "../images.js";
import { JudgeMetricConfigError } from "./errors.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema } from "./schema.js";

const imageScoreSchema = judgeSchema("image_score", z.object({ score: z.number().min(0).max(10), reasoning: z.string() }));

/** Options of the image-in-context metrics. */
export interface ImageContextMetricOptions extends JudgeMetricOptions {
  /** Characters of text kept above (the last ones) and below (the first ones) each image; absent = all. */
  readonly maxContextSize?: number | null;
}

const OPTION_KEYS: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "maxContextSize"];

/**
 * The text nearest above and below the image at `index` (DeepEval `get_image_context`): the closest
 * text part on each side, skipping images; `maxContextSize` keeps the last / first characters.
 */
export function imageContext(
  parts: readonly MultimodalPart[],
  index: number,
  maxContextSize: number | null,
): { above: string | null; below: string | null } {
  let above: string | null = null;
  let below: string | null = null;
  for (let i = index - 1; i >= 0; i--) {
    const part = parts[i];
    if (typeof part === "string") {
      above = maxContextSize ? [...part].slice(-maxContextSize).join("") : part;
      break;
    }
  }
  for (let i = index + 1; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part === "string") {
      below = maxContextSize ? [...part].slice(0, maxContextSize).join("") : part;
      break;
    }
  }
  return { above, below };
}

/** One 0–10 judgement per image of `actualOutput`; score = mean(score / 10). */
abstract class ImageContextMetric extends JudgeMetric {
  readonly maxContextSize: number | null;

  constructor(options: ImageContextMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
    const size = options.maxContextSize ?? null;
    if (size !== null && (typeof size !== "number" || !Number.isInteger(size) || size <= 0)) {
      throw new JudgeMetricConfigError("maxContextSize", `${this.name}: 'maxContextSize' must be a positive integer or null`);
    }
    this.maxContextSize = size;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  /** What the judge is asked about one image, given its surrounding text. */
  protected abstract task(above: string, below: string): string;

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    assertImageSupport(this.model, this.name);
    const parts = parseMultimodalString(testCase.actualOutput ?? "");
    const indices = parts.flatMap((part, i) => (MLLMImage.isInstance(part) ? [i] : []));
    if (indices.length === 0) {
      throw new InvalidArgumentError(
        `The test case must have at least one image in the \`actual_output\` to calculate ${this.name} score`,
        {
          argument: "actualOutput",
          expected: "at least one image",
          actual: "none",
        },
      );
    }
    const contexts = indices.map((i) => imageContext(parts, i, this.maxContextSize));
    const results = await this.gather(
      indices.map((index, n) => () => {
        const { above, below } = contexts[n] as { above: string | null; below: string | null };
        const prompt =
          `${this.task(above ?? "(none)", below ?? "(none)")}\n\n` +
          `${jsonOnly('{"score": <integer 0-10>, "reasoning": "<why>"}')}\n\nImage:\n${parts[index]}`;
        return this.judge(imageScoreSchema, prompt, { signal });
      }),
    );
    const scores = results.map((r) => r.score / 10);
    const many = scores.length > 1;
    return {
      score: scores.reduce((a, b) => a + b, 0) / scores.length,
      reason: results.map((r, i) => `Image ${i + 1}: ${r.reasoning}`).join("\n"),
      verboseSteps: [
        ...results.map((r, i) => {
          const { above, below } = contexts[i] as { above: string | null; below: string | null };
          const image = many ? `Image ${i + 1}` : "Image";
          const label = many ? `Image ${i + 1} ` : "";
          return (
            (above ? `Context Above ${image}: ${above.slice(0, 20)}...\n` : "") +
            (below ? `Context Below ${image}: ${below.slice(0, 20)}...\n` : "") +
            `${label}Score: ${scores[i]}\n${label}Reason: ${r.reasoning}`
          );
        }),
        ...(many ? [`Score (Average): ${scores.reduce((a, b) => a + b, 0) / scores.length}`] : []),
      ],
    };
  }
}

function contextBlock(above: string, below: string): string {
  return `Text above the image:\n${above}\n\nText below the image:\n${below}`;
}

/**
 * How well each image of the answer fits the text around it (DeepEval `ImageCoherenceMetric`).
 * `actualOutput` holds text and at least one image; `input` is required as in DeepEval.
 *
 * Details: one judge call per image, sent the image and the nearest text part above and below it
 * (`maxContextSize` characters of each, all by default): a 0–10 coherence score. Score = mean of
 * score/10 over the images; threshold 0.5; strict mode scores below 1 as 0. The reason lists the
 * judge's reasoning per image.
 *
 * @example
 * const metric = new ImageCoherenceMetric({ model: judge });
 * await metric.aMeasure(new LLMTestCase({ input: "Explain photosynthesis", actualOutput: `Leaves… ${diagram} …as shown.` }));
 */
export class ImageCoherenceMetric extends ImageContextMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = OPTION_KEYS;

  override get name(): string {
    return "Image Coherence";
  }

  protected task(above: string, below: string): string {
    return (
      `You are reviewing a document that mixes text and images. Rate from 0 to 10 how coherent the ` +
      `image below is with the text around it: 0–3 unrelated or barely related, 4–6 partly related ` +
      `with unrelated elements, 7–9 closely related, 10 a perfect match that strengthens the text. Be strict.

${contextBlock(above, below)}`
    );
  }
}

/**
 * How much each image of the answer helps a reader understand the text around it (DeepEval
 * `ImageHelpfulnessMetric`). Same shape and formula as {@link ImageCoherenceMetric}.
 *
 * @example
 * const metric = new ImageHelpfulnessMetric({ model: judge, maxContextSize: 500 });
 */
export class ImageHelpfulnessMetric extends ImageContextMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = OPTION_KEYS;

  override get name(): string {
    return "Image Helpfulness";
  }

  protected task(above: string, below: string): string {
    return (
      `You are reviewing a document that mixes text and images. Rate from 0 to 10 how much the image ` +
      `below helps a reader understand the text around it: 0–3 no or almost no help, 4–6 some help ` +
      `with extraneous detail, 7–9 clearly helpful, 10 makes the text fully clear. Be strict.

${contextBlock(above, below)}`
    );
  }
}

/**
 * Whether the text around each image refers to and explains it properly (DeepEval
 * `ImageReferenceMetric`). Same shape and formula as {@link ImageCoherenceMetric}.
 *
 * @example
 * const metric = new ImageReferenceMetric({ model: judge });
 */
export class ImageReferenceMetric extends ImageContextMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = OPTION_KEYS;

  override get name(): string {
    return "Image Reference";
  }

  protected task(above: string, below: string): string {
    return (
      `You are reviewing a document that mixes text and images. Rate from 0 to 10 how well the text ` +
      `around the image below refers to and explains it: 0 not mentioned at all, 1–3 referred to only ` +
      `implicitly and wrongly, 4–6 referred to explicitly but improperly or only implicitly, 7–9 ` +
      `referred to explicitly and mostly correctly, 10 referred to explicitly, placed and explained ` +
      `entirely correctly. Be strict.

${contextBlock(above, below)}`
    );
  }
}
