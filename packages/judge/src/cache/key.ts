// Content addressing: canonical JSON (sorted keys, undefined dropped) hashed with SHA-256 through Web
// Crypto, which Node 20, Deno, Bun and browsers all provide as `globalThis.crypto.subtle`.
import { UnsupportedCapabilityError } from "../errors.js";

/** JSON with object keys sorted at every level; `undefined` members are dropped, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return "null";
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== "function")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new UnsupportedCapabilityError("crypto.subtle", "The judge cache needs Web Crypto (globalThis.crypto.subtle)");
  }
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The cache key of a request description: SHA-256 of its canonical JSON. */
export function cacheKey(parts: Readonly<Record<string, unknown>>): Promise<string> {
  return sha256Hex(canonicalJson(parts));
}
