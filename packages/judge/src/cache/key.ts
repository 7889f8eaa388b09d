// Content addressing: canonical JSON (sorted keys, undefined dropped) hashed with SHA-256 through Web
// Crypto, which Node 20, Deno, Bun and browsers all provide as `globalThis.crypto.subtle`. Where the
// runtime hands out `node:crypto` without an import (`process.getBuiltinModule`, Node ≥ 20.16), the same
// digest is taken synchronously: Web Crypto's digest is a job on the thread pool, about ten times the CPU
// of hashing a prompt in place, and a judge run hashes every call.
import { UnsupportedCapabilityError } from "../errors.js";

type NodeHash = { update(text: string, encoding: "utf8"): NodeHash; digest(encoding: "hex"): string };
type NodeCrypto = {
  createHash?: (algorithm: "sha256") => NodeHash;
  /** One-shot digest (Node ≥ 20.12): half the CPU of createHash for a prompt-sized text. */
  hash?: (algorithm: "sha256", text: string, encoding: "hex") => string;
};

/** The hex SHA-256 of `node:crypto` when the runtime offers it without an import, else null (browsers). */
const nodeSha256: ((text: string) => string) | null = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => NodeCrypto | undefined } }).process;
  try {
    const crypto = proc?.getBuiltinModule?.("node:crypto");
    const { hash, createHash } = crypto ?? {};
    if (typeof hash === "function") return (text) => hash("sha256", text, "hex");
    if (typeof createHash === "function") return (text) => createHash("sha256").update(text, "utf8").digest("hex");
    return null;
  } catch {
    return null;
  }
})();

/**
 * JSON with object keys sorted at every level; `undefined` members are dropped, as JSON.stringify does.
 * Written as loops over sorted keys rather than entries/filter/map/join: a judge run builds one per call,
 * and the arrays those made were most of its cost. The text is the same byte for byte (the keys of every
 * recorded cache depend on it), down to a hole in an array, which stays an empty slot.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return "null";
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      if (!(i in value)) continue;
      const v: unknown = value[i];
      out += v === undefined ? "null" : canonicalJson(v);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // the default sort compares UTF-16 code units, as `a < b` does
  const keys = Object.keys(record).sort();
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined || typeof v === "function") continue;
    out += `${first ? "" : ","}${JSON.stringify(k)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  if (nodeSha256) return nodeSha256(text);
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
