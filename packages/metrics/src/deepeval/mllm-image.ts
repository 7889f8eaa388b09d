// DeepEval's `MLLMImage`: an image inside a test-case field. Its string form is a slug,
// `[DEEPEVAL:IMAGE:<id>]`, so an image can sit in a template string (`${image}`) the way DeepEval
// allows; the slug resolves back to the image through a registry. Runtime-neutral: local files are
// read through ./image-file.js, which a browser build swaps for a stand-in (package.json `browser`).
import { InvalidArgumentError } from "../errors.js";
import { ImageTooLargeError, ImageUnavailableError } from "./errors.js";
import { isPlainObject } from "./python-compat.js";
import { fail } from "./validate.js";

/** Largest image (local file, Blob or inline base64) sent to a judge unless `maxBytes` says otherwise: 20 MiB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Matches one slug; group 1 is the id (DeepEval's pattern, PDFs included). */
export const IMAGE_SLUG_PATTERN = /\[DEEPEVAL:(?:IMAGE|PDF):(.*?)\]/g;

/** The object form of an image in JSON (DeepEval's `MLLMImage` fields). */
export interface MLLMImageJSON {
  readonly id: string;
  readonly url?: string | null;
  readonly local?: boolean | null;
  readonly dataBase64?: string | null;
  readonly mimeType?: string | null;
  readonly filename?: string | null;
}

/** What an `MLLMImage` is built from: a URL or local path, inline base64 data with its MIME type, or a Blob. */
export interface MLLMImageInit {
  /** `https://…` (sent as is), a local path or a `file://` URL (read once, sent as a data URL). */
  readonly url?: string | null;
  /** Whether `url` is a local file. Absent: local unless it starts with `http://`, `https://` or `data:`. */
  readonly local?: boolean | null;
  readonly dataBase64?: string | null;
  readonly mimeType?: string | null;
  readonly filename?: string | null;
  /** Browser images (a `File` from an input, a fetched Blob); read once when the judge needs it. */
  readonly blob?: Blob | null;
  /** Size limit of the bytes read or sent (default {@link MAX_IMAGE_BYTES}). */
  readonly maxBytes?: number;
  /** The slug id; absent = a fresh random one. Given when restoring an image from JSON. */
  readonly id?: string;
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  avif: "image/avif",
  heic: "image/heic",
  pdf: "application/pdf",
};

/** The MIME type of a file name by its extension (Python's `mimetypes.guess_type`, the common image types). */
export function guessMimeType(filename: string): string | null {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? null : (MIME_BY_EXTENSION[filename.slice(dot + 1).toLowerCase()] ?? null);
}

// Weak entries: the registry only lets a slug find its image while something (the user's variable, a
// test case) holds it, so a long run does not keep every image it ever built in memory.
const registry = new Map<string, WeakRef<MLLMImage>>();
const cleanup = new FinalizationRegistry<string>((id) => {
  if (registry.get(id)?.deref() === undefined) registry.delete(id);
});

function register(image: MLLMImage): void {
  registry.set(image.id, new WeakRef(image));
  cleanup.register(image, image.id);
}

/** The live image a slug id names, if any. */
export function imageById(id: string): MLLMImage | undefined {
  return registry.get(id)?.deref();
}

function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function lastPathPart(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? "";
}

/** `file:///a/b.png` → `/a/b.png` (percent-decoded); a plain path as is. */
export function localPath(url: string): string {
  if (!url.startsWith("file:")) return url;
  const parsed = new URL(url);
  const path = decodeURIComponent(parsed.pathname);
  return parsed.host ? `//${parsed.host}${path}` : path;
}

/** Base64 of bytes without `Buffer` (browser-safe), in chunks so large images do not overflow the stack. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function text(value: unknown, argument: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new InvalidArgumentError(`MLLMImage: '${argument}' must be a string`, { argument });
  return value;
}

/**
 * An image in a DeepEval test case (DeepEval `MLLMImage`).
 *
 * When to use: put it in `input`, `actualOutput`, `expectedOutput`, `context` or `retrievalContext`,
 * either inside a template string (`` `Describe ${image}` ``) or in a list (`["Describe", image]`); the
 * test case then is multimodal and judge metrics send the image to the judge as an `image_url` part.
 *
 * Details: a remote URL is sent as is. A local file (path or `file://` URL; Node only) is read once,
 * when a judge first needs it, refused past `maxBytes` (default 20 MiB) with `ImageTooLargeError`, and
 * sent only to the judge, as a `data:` URL with its MIME type. In a browser, give a URL or a Blob.
 * `toJSON()` is the object form that test cases and datasets carry through JSON/JSONL.
 *
 * @example
 * const chart = new MLLMImage({ url: "https://example.com/chart.png" });
 * const testCase = new LLMTestCase({ input: `What does ${chart} show?`, actualOutput: "Sales doubled." });
 */
export class MLLMImage {
  readonly id: string;
  readonly url: string | null;
  readonly local: boolean;
  readonly dataBase64: string | null;
  readonly mimeType: string | null;
  readonly filename: string | null;
  readonly blob: Blob | null;
  readonly maxBytes: number;
  #loaded: Promise<string> | undefined;

  constructor(init: MLLMImageInit) {
    if (!isPlainObject(init))
      throw new InvalidArgumentError("MLLMImage: expected an object such as { url } or { dataBase64, mimeType }", { argument: "init" });
    const url = text(init.url, "url");
    const dataBase64 = text(init.dataBase64, "dataBase64");
    const blob = init.blob ?? null;
    if (blob !== null && (typeof Blob === "undefined" || !(blob instanceof Blob))) {
      throw new InvalidArgumentError("MLLMImage: 'blob' must be a Blob", { argument: "blob" });
    }
    if (url === null && dataBase64 === null && blob === null) {
      throw new InvalidArgumentError("MLLMImage: give a 'url' (or local path), 'dataBase64' with 'mimeType', or a 'blob'", {
        argument: "init",
      });
    }
    const maxBytes = init.maxBytes ?? MAX_IMAGE_BYTES;
    if (typeof maxBytes !== "number" || !Number.isInteger(maxBytes) || maxBytes <= 0) {
      throw new InvalidArgumentError("MLLMImage: 'maxBytes' must be a positive integer", { argument: "maxBytes" });
    }
    this.maxBytes = maxBytes;
    this.id = text(init.id, "id") ?? randomId();
    if (this.id === "" || this.id.includes("]"))
      throw new InvalidArgumentError("MLLMImage: 'id' must be non-empty without ']'", { argument: "id" });
    this.url = url;
    this.dataBase64 = dataBase64;
    this.blob = blob;
    const remote = url !== null && /^(https?:|data:)/i.test(url);
    if (init.local !== undefined && init.local !== null && typeof init.local !== "boolean") {
      throw new InvalidArgumentError("MLLMImage: 'local' must be a boolean", { argument: "local" });
    }
    this.local = dataBase64 === null && blob === null && url !== null && (init.local ?? !remote);
    if (this.local && remote)
      throw new InvalidArgumentError(`MLLMImage: '${url}' is a remote URL, not a local file`, { argument: "local" });
    const name =
      text(init.filename, "filename") ?? (url === null ? null : lastPathPart(this.local ? localPath(url) : (url.split(/[?#]/)[0] ?? "")));
    this.filename = name === "" ? null : name;
    this.mimeType = text(init.mimeType, "mimeType") ?? (blob?.type || null) ?? (this.filename ? guessMimeType(this.filename) : null);
    if (dataBase64 !== null && this.mimeType === null) {
      throw new InvalidArgumentError("MLLMImage: 'mimeType' must be given with 'dataBase64'", { argument: "mimeType" });
    }
    if (dataBase64 !== null && Math.floor((dataBase64.length * 3) / 4) > maxBytes) {
      throw new ImageTooLargeError("(inline base64)", Math.floor((dataBase64.length * 3) / 4), maxBytes);
    }
    register(this);
  }

  /** True for an `MLLMImage` (also one built by another copy of this package). */
  static isInstance(value: unknown): value is MLLMImage {
    return typeof value === "object" && value !== null && (value as { [IMAGE_MARKER]?: unknown })[IMAGE_MARKER] === true;
  }

  /** An image as is, or one built from its init or JSON object form. */
  static from(value: MLLMImage | MLLMImageInit | MLLMImageJSON): MLLMImage {
    if (MLLMImage.isInstance(value)) return value;
    if (isPlainObject(value) && typeof value.id === "string") {
      const known = imageById(value.id);
      if (known) return known;
    }
    return new MLLMImage(value as MLLMImageInit);
  }

  /** The slug DeepEval writes for an image (`[DEEPEVAL:PDF:<id>]` for a PDF). */
  get slug(): string {
    return this.mimeType === "application/pdf" ? `[DEEPEVAL:PDF:${this.id}]` : `[DEEPEVAL:IMAGE:${this.id}]`;
  }

  toString(): string {
    return this.slug;
  }

  /**
   * The URL a judge receives: a remote URL as is; inline data, a Blob or a local file as a `data:` URL.
   * A file or Blob is read once (the promise is kept), checked against `maxBytes` before reading.
   */
  resolveUrl(): Promise<string> {
    if (this.dataBase64 !== null) return Promise.resolve(`data:${this.mimeType};base64,${this.dataBase64}`);
    if (this.blob === null && !this.local) return Promise.resolve(this.url as string);
    this.#loaded ??= this.readBytes().then((bytes) => `data:${this.mimeType ?? "image/jpeg"};base64,${bytesToBase64(bytes)}`);
    return this.#loaded;
  }

  private async readBytes(): Promise<Uint8Array> {
    if (this.blob !== null) {
      const source = this.filename ?? "(Blob)";
      if (this.blob.size > this.maxBytes) throw new ImageTooLargeError(source, this.blob.size, this.maxBytes);
      return new Uint8Array(await this.blob.arrayBuffer());
    }
    const { readImageFile } = await import("./image-file.js");
    return readImageFile(localPath(this.url as string), this.maxBytes);
  }

  /** The object form carried through JSON (a Blob's bytes cannot be: read it into `dataBase64` first). */
  toJSON(): MLLMImageJSON {
    if (this.blob !== null) {
      throw new ImageUnavailableError(
        this.filename ?? "(Blob)",
        "MLLMImage: an image from a Blob has no JSON form; build it from { dataBase64, mimeType } to serialise it",
      );
    }
    return {
      id: this.id,
      ...(this.url !== null ? { url: this.url, local: this.local } : {}),
      ...(this.dataBase64 !== null ? { dataBase64: this.dataBase64 } : {}),
      ...(this.mimeType !== null ? { mimeType: this.mimeType } : {}),
      ...(this.filename !== null ? { filename: this.filename } : {}),
    };
  }
}

const IMAGE_MARKER = Symbol.for("evalkern.deepeval.MLLMImage");
Object.defineProperty(MLLMImage.prototype, IMAGE_MARKER, { value: true });

/** One piece of a multimodal text: a string or an image. */
export type MultimodalPart = string | MLLMImage;

/** True when the text holds at least one image slug (DeepEval's multimodal auto-detection). */
export function hasImageSlug(value: string): boolean {
  return new RegExp(IMAGE_SLUG_PATTERN.source).test(value);
}

/**
 * A text with slugs as its strings and images, in order (DeepEval `convert_to_multi_modal_array`);
 * empty strings between slugs are dropped. `lookup` resolves an id (default: the live images).
 */
export function parseMultimodalString(value: string, lookup: (id: string) => MLLMImage | undefined = imageById): MultimodalPart[] {
  const out: MultimodalPart[] = [];
  let last = 0;
  for (const match of value.matchAll(new RegExp(IMAGE_SLUG_PATTERN.source, "g"))) {
    const start = match.index ?? 0;
    const image = lookup(match[1] ?? "");
    if (image === undefined) continue;
    if (start > last) out.push(value.slice(last, start));
    out.push(image);
    last = start + match[0].length;
  }
  if (last < value.length) out.push(value.slice(last));
  return out;
}

/** The images of a text, in order. */
export function imagesIn(value: string | null | undefined): MLLMImage[] {
  if (!value) return [];
  return parseMultimodalString(value).filter((part): part is MLLMImage => typeof part !== "string");
}

function isImageLike(value: unknown): boolean {
  return MLLMImage.isInstance(value) || (isPlainObject(value) && ("url" in value || "dataBase64" in value || "blob" in value));
}

/**
 * The images a test case's fields name, collected while the fields are normalised, so the test case
 * holds them (and a slug keeps resolving) as long as it lives. `known` are the images of an `images`
 * object form (from JSON), keyed by id.
 */
export class ImageCollector {
  readonly images = new Map<string, MLLMImage>();
  constructor(
    private readonly owner: string,
    private readonly known: ReadonlyMap<string, MLLMImage> = new Map(),
  ) {}

  /** A string field given as text with slugs, or as a list of strings and images (DeepEval's MLLMTestCase form). */
  text(argument: string, value: unknown, index?: number): string {
    if (typeof value === "string") return this.slugs(argument, value, index);
    if (isImageLike(value)) return this.add(MLLMImage.from(value as MLLMImageInit)).slug;
    if (Array.isArray(value)) {
      return value
        .map((part: unknown, i) => {
          if (typeof part === "string") return this.slugs(argument, part, index ?? i);
          if (isImageLike(part)) return this.add(MLLMImage.from(part as MLLMImageInit)).slug;
          return this.fail(argument, "a string or an MLLMImage", part, index ?? i);
        })
        .join("");
    }
    return this.fail(argument, "a string", value, index);
  }

  private add(image: MLLMImage): MLLMImage {
    this.images.set(image.id, image);
    return image;
  }

  private slugs(argument: string, value: string, index: number | undefined): string {
    for (const match of value.matchAll(new RegExp(IMAGE_SLUG_PATTERN.source, "g"))) {
      const id = match[1] ?? "";
      const image = this.known.get(id) ?? imageById(id);
      if (image === undefined) {
        const where = index === undefined ? argument : `${argument}[${index}]`;
        throw new InvalidArgumentError(
          `${this.owner}: '${where}' names the image ${match[0]}, which is not known here` +
            `: give its object form in 'images' (what toJSON() writes)`,
          { argument, ...(index === undefined ? {} : { index }), expected: "a known image id", actual: id },
        );
      }
      this.add(image);
    }
    return value;
  }

  private fail(argument: string, expected: string, value: unknown, index?: number): never {
    return fail(this.owner, argument, expected, value, index);
  }
}

/** The `images` object form of a test case (id → image fields) as live images. */
export function imagesFromJSON(owner: string, value: unknown): Map<string, MLLMImage> {
  const out = new Map<string, MLLMImage>();
  if (value === undefined || value === null) return out;
  if (!isPlainObject(value)) throw new InvalidArgumentError(`${owner}: 'images' must be an object of id → image`, { argument: "images" });
  for (const [id, item] of Object.entries(value)) {
    if (!isImageLike(item)) throw new InvalidArgumentError(`${owner}: 'images.${id}' must be an image object`, { argument: "images" });
    const image = MLLMImage.isInstance(item) ? item : MLLMImage.from({ ...(item as MLLMImageInit), id });
    out.set(id, image);
  }
  return out;
}
