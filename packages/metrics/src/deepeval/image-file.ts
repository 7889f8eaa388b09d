// Reads a local image file for MLLMImage (Node only; a browser build loads ./image-file.browser.js).
// The size is checked with stat() before reading, so an oversized file is refused without being read.
import { open } from "node:fs/promises";
import { ImageTooLargeError, ImageUnavailableError } from "./errors.js";

export async function readImageFile(path: string, maxBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be opened (${code ?? String(error)})`;
    throw new ImageUnavailableError(path, `MLLMImage: image file ${path} ${why}`, { cause: error });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ImageUnavailableError(path, `MLLMImage: ${path} is not a regular file`);
    if (stats.size > maxBytes) throw new ImageTooLargeError(path, stats.size, maxBytes);
    const bytes = await handle.readFile();
    // The file may have grown between stat() and read().
    if (bytes.byteLength > maxBytes) throw new ImageTooLargeError(path, bytes.byteLength, maxBytes);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } finally {
    await handle.close();
  }
}
