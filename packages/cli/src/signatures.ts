// Signatures on the terminal: the full form (every option, the kernel build, the tool versions; ~230
// characters) stays in the output files, run.json and the report; tables print a short form by default:
// the metric's own sacreBLEU-style part (its options and reference version) and a hash of the full form,
// so two runs with the same short form and hash used the same build.
import { createHash } from "node:crypto";

export type SignatureStyle = "short" | "full";

/** Fields of a signature that describe the build, not the metric (kept in the full form only). */
const BUILD_FIELDS = new Set(["evalkern-core-wasm", "unicode", "asc", "wasm", "harness", "judge", "tool"]);

/** 8 hex digits of the full signature's sha256. */
export function signatureHash(signature: string): string {
  return createHash("sha256").update(signature).digest("hex").slice(0, 8);
}

/**
 * The short form of a signature: its fields up to the build fields, then `#` and the full form's hash.
 *
 * @example
 * shortSignature("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|evalkern-core-wasm:0.1.0|asc:…|harness:0.1.0")
 * // "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 #1a2b3c4d"
 */
export function shortSignature(signature: string): string {
  const parts = signature.split("|");
  const kept: string[] = [];
  for (const p of parts) {
    const colon = p.indexOf(":");
    const key = colon < 0 ? p : p.slice(0, colon);
    if (kept.length > 0 && BUILD_FIELDS.has(key)) break;
    kept.push(p);
  }
  const head = kept.join("|");
  return head.length < signature.length ? `${head} #${signatureHash(signature)}` : signature;
}

export function parseSignatureStyle(text: string): SignatureStyle {
  if (text === "short" || text === "full") return text;
  throw new Error(`--signatures must be short or full, not ${JSON.stringify(text)}`);
}
