// Content addressing: canonical JSON (sorted keys, undefined dropped) hashed with SHA-256 through Web
// Crypto, which Node 20, Deno, Bun and browsers all provide as `globalThis.crypto.subtle`. Where the
// runtime hands out `node:crypto` without an import (`process.getBuiltinModule`, Node ≥ 20.16), the same
// digest is taken synchronously: Web Crypto's digest is a job on the thread pool, about ten times the CPU
// of hashing a prompt in place, and a judge run hashes every call.
import { UnsupportedCapabilityError } from "../errors.js";

type NodeHash = { update(text: string, encoding: "utf8"): NodeHash; digest(encoding: "hex"): string };
type CreateHash = (algorithm: "sha256") => NodeHash;

/** `node:crypto`'s createHash when the runtime offers it without an import, else null (browsers). */
const createHash: CreateHash | null = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => { createHash?: CreateHash } | undefined } }).process;
  try {
    return proc?.getBuiltinModule?.("node:crypto")?.createHash ?? null;
  } catch {
    return null;
  }
})();

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
  if (createHash) return createHash("sha256").update(text, "utf8").digest("hex");
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
