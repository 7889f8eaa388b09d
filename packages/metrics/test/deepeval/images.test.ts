// MLLMImage in DeepEval test cases: slugs in template strings, the list form, the JSON object form,
// local files (read once, size-limited) and Blobs.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import {
  Golden,
  ImageTooLargeError,
  ImageUnavailableError,
  LLMTestCase,
  MLLMImage,
  imagesIn,
  parseMultimodalString,
} from "../../src/deepeval/index.js";

const dir = mkdtempSync(join(tmpdir(), "evalkern-images-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The 8-byte PNG signature is enough for a file the judge receives as bytes.
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("MLLMImage", () => {
  it("has DeepEval's slug as its string form, and a remote URL is sent as is", async () => {
    const image = new MLLMImage({ url: "https://example.com/cat.png" });
    expect(`${image}`).toBe(`[DEEPEVAL:IMAGE:${image.id}]`);
    expect(image.id).toMatch(/^[0-9a-f]{32}$/);
    expect(image.local).toBe(false);
    expect(image.mimeType).toBe("image/png");
    expect(image.filename).toBe("cat.png");
    expect(await image.resolveUrl()).toBe("https://example.com/cat.png");
  });

  it("sends inline base64 as a data URL and needs its MIME type", async () => {
    const image = new MLLMImage({ dataBase64: "iVBORw0KGgo=", mimeType: "image/png" });
    expect(await image.resolveUrl()).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(() => new MLLMImage({ dataBase64: "iVBORw0KGgo=" })).toThrow(/'mimeType' must be given/);
    expect(() => new MLLMImage({} as never)).toThrow(InvalidArgumentError);
    expect(`${new MLLMImage({ dataBase64: "JVBERg==", mimeType: "application/pdf" })}`).toMatch(/^\[DEEPEVAL:PDF:/);
  });

  it("reads a local file once, as a data URL with its MIME type", async () => {
    const path = join(dir, "dot.png");
    writeFileSync(path, PNG);
    const image = new MLLMImage({ url: path });
    expect(image.local).toBe(true);
    const url = await image.resolveUrl();
    expect(url).toBe("data:image/png;base64,iVBORw0KGgo=");
    // Read once: the file can go away and the image still resolves.
    rmSync(path);
    expect(await image.resolveUrl()).toBe(url);
    const viaFileUrl = new MLLMImage({ url: `file://${join(dir, "missing.jpg")}` });
    expect(viaFileUrl.local).toBe(true);
    await expect(viaFileUrl.resolveUrl()).rejects.toThrow(ImageUnavailableError);
    await expect(viaFileUrl.resolveUrl()).rejects.toThrow(/missing\.jpg does not exist/);
  });

  it("refuses a 30 MB local image before reading it, with a clear error", async () => {
    const path = join(dir, "huge.png");
    writeFileSync(path, "");
    truncateSync(path, 30 * 1024 * 1024); // sparse: no 30 MB written to disk
    const image = new MLLMImage({ url: path });
    const error = await image.resolveUrl().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect((error as ImageTooLargeError).code).toBe("IMAGE_TOO_LARGE");
    expect((error as ImageTooLargeError).sizeBytes).toBe(30 * 1024 * 1024);
    expect((error as Error).message).toBe(
      `image ${path} is 30.0 MiB, over the 20.0 MiB limit for images sent to a judge (MLLMImage maxBytes)`,
    );
    // The limit is the image's own: a lower one refuses a small file too.
    const small = join(dir, "small.png");
    writeFileSync(small, PNG);
    await expect(new MLLMImage({ url: small, maxBytes: 7 }).resolveUrl()).rejects.toThrow(/over the 0\.0 MiB limit/);
  });

  it("reads a Blob (the browser form) with its type, size-limited", async () => {
    const image = new MLLMImage({ blob: new Blob([PNG], { type: "image/png" }) });
    expect(await image.resolveUrl()).toBe("data:image/png;base64,iVBORw0KGgo=");
    const small = new MLLMImage({ blob: new Blob([new Uint8Array(11)], { type: "image/png" }), maxBytes: 10 });
    await expect(small.resolveUrl()).rejects.toThrow(ImageTooLargeError);
    expect(() => JSON.stringify(image)).toThrow(ImageUnavailableError);
  });
});

describe("images in test cases", () => {
  it("a slug in a template string makes the test case multimodal and keeps its image", () => {
    const image = new MLLMImage({ url: "https://example.com/chart.png" });
    const testCase = new LLMTestCase({ input: `What does ${image} show?`, actualOutput: "Sales doubled." });
    expect(testCase.multimodal).toBe(true);
    expect([...testCase.images.values()]).toEqual([image]);
    expect(parseMultimodalString(testCase.input)).toEqual(["What does ", image, " show?"]);
    expect(new LLMTestCase({ input: "plain" }).multimodal).toBe(false);
  });

  it("takes DeepEval's list form in every text field", () => {
    const a = new MLLMImage({ url: "https://example.com/a.png" });
    const b = new MLLMImage({ dataBase64: "iVBORw0KGgo=", mimeType: "image/png" });
    const testCase = new LLMTestCase({
      input: ["Compare", a, "with", b],
      actualOutput: [b],
      expectedOutput: ["same"],
      context: [a, ["caption", b]],
      retrievalContext: ["text", a, { context: "c", source: "s" }],
    });
    expect(testCase.input).toBe(`Compare${a}with${b}`);
    expect(testCase.actualOutput).toBe(b.slug);
    expect(testCase.context).toEqual([a.slug, `caption${b}`]);
    expect(testCase.retrievalContext).toEqual(["text", a.slug, { context: "c", source: "s" }]);
    expect(imagesIn(testCase.input)).toEqual([a, b]);
    expect(testCase.images.size).toBe(2);
  });

  it("carries images through JSON in an object form, unchanged", () => {
    const image = new MLLMImage({ url: "https://example.com/x.png" });
    const line = JSON.stringify(new LLMTestCase({ input: `Describe ${image}`, actual_output: "A cat." } as never));
    const data = JSON.parse(line) as { input: string; images: Record<string, unknown> };
    expect(data.images).toEqual({
      [image.id]: { id: image.id, url: "https://example.com/x.png", local: false, mimeType: "image/png", filename: "x.png" },
    });
    const back = new LLMTestCase(data as never);
    expect(back.input).toBe(`Describe ${image}`);
    expect(back.images.get(image.id)?.url).toBe("https://example.com/x.png");
    // An object form written elsewhere (an id this process never saw) restores too.
    const foreign = new LLMTestCase({
      input: "Describe [DEEPEVAL:IMAGE:abc123]",
      images: { abc123: { id: "abc123", dataBase64: "iVBORw0KGgo=", mimeType: "image/png" } },
    });
    expect(foreign.images.get("abc123")?.dataBase64).toBe("iVBORw0KGgo=");
    expect(parseMultimodalString(foreign.input)[1]).toBe(foreign.images.get("abc123"));
  });

  it("refuses a slug whose image is not known, and a non-image list item", () => {
    expect(() => new LLMTestCase({ input: "see [DEEPEVAL:IMAGE:nope]" })).toThrow(
      /names the image \[DEEPEVAL:IMAGE:nope\], which is not known here/,
    );
    expect(() => new LLMTestCase({ input: ["a", 3 as never] })).toThrow(InvalidArgumentError);
  });

  it("goldens carry images through JSON and into their test cases", () => {
    const image = new MLLMImage({ url: "https://example.com/g.png" });
    const golden = Golden.from(JSON.parse(JSON.stringify(new Golden({ input: ["Caption this", image] }))) as never);
    expect(golden.multimodal).toBe(true);
    const testCase = golden.toTestCase({ actualOutput: "A goat." });
    expect(testCase.input).toBe(`Caption this${image}`);
    expect(testCase.images.get(image.id)).toBe(image);
  });
});
