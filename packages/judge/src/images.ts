// Images in judge prompts. A DeepEval prompt is one string; the images of a multimodal test case sit
// in it as slugs (`[DEEPEVAL:IMAGE:<id>]`, MLLMImage's string form). Here a prompt becomes the user
// message's content: plain text when it names no image, else text and `image_url` parts in order,
// after checking that the judge accepts images (a judge known not to fails before any request).
import { imageById, parseMultimodalString, type MLLMImage } from "@evalkern/metrics/deepeval";
import { UnsupportedCapabilityError } from "./errors.js";
import type { JudgeContentPart, JudgeModel } from "./model.js";

// Model families known to take image input (OpenAI vision models, Claude 3+, Gemini, Pixtral, LLaVA,
// Qwen-VL, Llama 3.2 Vision) and known text-only ones; an unknown name is "unknown" and images are sent.
const TEXT_ONLY = new RegExp(
  String.raw`^(gpt-3\.5|gpt-4(-0314|-0613|-32k)?$|o1-mini|o3-mini|text-|davinci|babbage|` +
    "deepseek-(chat|reasoner|coder)|mistral-(tiny|small|medium)-?[0-9]*$)",
  "i",
);
const VISION = new RegExp(
  String.raw`^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-5|chatgpt-4o|o1(-20|$)|o3(-20|$|-pro)|o4-mini|` +
    String.raw`claude-(3|sonnet-4|opus-4|haiku-4)|gemini|pixtral|llava|qwen[0-9.]*-?vl|llama-3\.2-[0-9]+b-vision|` +
    "grok-[0-9.]+-vision)",
  "i",
);

/** Whether a model name is known to accept images: true, false, or undefined when the name is not known. */
export function knownImageSupport(model: string): boolean | undefined {
  const name = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  if (VISION.test(name)) return true;
  if (TEXT_ONLY.test(name)) return false;
  return undefined;
}

/** The live images a prompt names by slug, in order. */
export function promptImages(prompt: string): MLLMImage[] {
  if (!prompt.includes("[DEEPEVAL:")) return [];
  return parseMultimodalString(prompt, imageById).filter((part): part is MLLMImage => typeof part !== "string");
}

/** Refuse images for a judge known not to take them, naming the judge and the way to declare support. */
export function assertImageSupport(model: JudgeModel, metric: string | undefined): void {
  if (model.capabilities?.supportsImages !== false) return;
  throw new UnsupportedCapabilityError(
    "images",
    `${metric ?? "the judge call"}: the test case holds images but the judge '${model.name}' does not accept image input ` +
      "(capabilities.supportsImages is false): use a vision model, or set capabilities.supportsImages: true if it does",
  );
}

/**
 * The content of the user message for `prompt`: the prompt itself when it names no image; otherwise
 * its text pieces and `image_url` parts in order (remote URLs as given, local files, Blobs and inline
 * data as `data:` URLs). Throws `UnsupportedCapabilityError` for a judge known not to take images, and
 * `ImageTooLargeError` / `ImageUnavailableError` for an image that cannot be sent, before any request.
 */
export async function promptContent(model: JudgeModel, prompt: string, metric?: string): Promise<string | JudgeContentPart[]> {
  if (promptImages(prompt).length === 0) return prompt;
  assertImageSupport(model, metric);
  const parts = parseMultimodalString(prompt, imageById);
  return Promise.all(
    parts.map(
      async (part): Promise<JudgeContentPart> =>
        typeof part === "string" ? { type: "text", text: part } : { type: "image_url", image_url: { url: await part.resolveUrl() } },
    ),
  );
}
