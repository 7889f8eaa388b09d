// What bundlers load for ./image-file.js when they build for the browser (the `browser` field of
// package.json): the same export, with no `node:` import. A browser has no local files to read by path.
import { ImageUnavailableError } from "./errors.js";

export function readImageFile(path: string, _maxBytes: number): Promise<Uint8Array> {
  return Promise.reject(
    new ImageUnavailableError(path, `MLLMImage: cannot read the local file ${path} in a browser build: give an https:// URL or a Blob`),
  );
}
