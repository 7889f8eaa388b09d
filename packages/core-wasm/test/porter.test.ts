// NLTK's Porter stemmer (nltk.stem.porter.PorterStemmer(), mode NLTK_EXTENSIONS) as assembly/porter.ts
// implements it for ROUGE's use_stemmer=True.
//
// Two views:
//  - exact stems: assembly/porter.ts is compiled on the fly with AssemblyScript's compiler API and its
//    `porterStem` is called directly (Node and Deno; the browser run skips it: no compiler there);
//  - through the shipped kernel, in every runtime: ROUGE compares tokens only for equality and leaves
//    tokens of at most 3 chars unstemmed, so `rouge1(word, stem) == 1` checks the stem exactly when it
//    has at most 3 chars, and conflation (same stem) / separation (different stems) otherwise.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import { rougeScore } from "../src/rouge.js";
import { detectedRuntime } from "./runtime.js";

/** word -> NLTK stem (NLTK_EXTENSIONS). */
const STEMS: readonly (readonly [string, string])[] = [
  // the example of NLTK's PorterStemmer documentation: "caress fli die mule deni die agre own humbl size
  // meet state siez item sensat tradit refer colon plot"
  ["caresses", "caress"],
  ["flies", "fli"],
  ["dies", "die"],
  ["mules", "mule"],
  ["denied", "deni"],
  ["died", "die"],
  ["agreed", "agre"],
  ["owned", "own"],
  ["humbled", "humbl"],
  ["sized", "size"],
  ["meeting", "meet"],
  ["stating", "state"],
  ["siezing", "siez"],
  ["itemization", "item"],
  ["sensational", "sensat"],
  ["traditional", "tradit"],
  ["reference", "refer"],
  ["colonizer", "colon"],
  ["plotted", "plot"],
  // the irregular-forms pool (bypasses the steps)
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["proceeds", "proce"], // not in the pool: the steps apply
  ["exceed", "exceed"],
  ["succeed", "succeed"],
  // NLTK extensions: 4-letter "ies" -> "ie", "ied" -> "ie"/"i"
  ["ties", "tie"],
  ["lies", "lie"],
  ["tied", "tie"],
  ["lied", "lie"],
  ["spied", "spi"],
  ["cries", "cri"],
  ["ponies", "poni"],
  ["sties", "sti"],
  // NLTK extension: *o also holds for a 2-letter stem vowel + consonant
  ["aged", "age"],
  ["eking", "eke"],
  ["iced", "ice"],
  // NLTK extension: y -> i only after a consonant, stem longer than one char
  ["happy", "happi"],
  ["enjoy", "enjoy"],
  ["spy", "spi"],
  ["say", "say"],
  ["crying", "cri"],
  ["syzygy", "syzygi"],
  // NLTK: "alli" -> "al" first, then step 2 again; "bli" -> "ble"; "fulli" -> "ful"; "logi" -> "log"
  ["radicalli", "radic"],
  ["conformabli", "conform"],
  ["possibly", "possibl"],
  ["hopefully", "hope"],
  ["beautifully", "beauti"],
  ["geology", "geolog"],
  ["theology", "theolog"],
  ["archaeology", "archaeolog"],
  ["analogi", "analog"],
  // the published steps
  ["running", "run"],
  ["hopping", "hop"],
  ["hoping", "hope"],
  ["tanned", "tan"],
  ["falling", "fall"],
  ["hissing", "hiss"],
  ["fizzed", "fizz"],
  ["failing", "fail"],
  ["filing", "file"],
  ["conflated", "conflat"],
  ["troubled", "troubl"],
  ["motoring", "motor"],
  ["plastered", "plaster"],
  ["bled", "bled"],
  ["sing", "sing"],
  ["feed", "feed"],
  ["relational", "relat"],
  ["conditional", "condit"],
  ["rational", "ration"],
  ["valenci", "valenc"],
  ["hesitanci", "hesit"],
  ["digitizer", "digit"],
  ["differentli", "differ"],
  ["vileli", "vile"],
  ["analogousli", "analog"],
  ["vietnamization", "vietnam"],
  ["predication", "predic"],
  ["operator", "oper"],
  ["feudalism", "feudal"],
  ["decisiveness", "decis"],
  ["hopefulness", "hope"],
  ["callousness", "callous"],
  ["formaliti", "formal"],
  ["sensitiviti", "sensit"],
  ["sensibiliti", "sensibl"],
  ["triplicate", "triplic"],
  ["formative", "form"],
  ["formalize", "formal"],
  ["electriciti", "electr"],
  ["electrical", "electr"],
  ["hopeful", "hope"],
  ["goodness", "good"],
  ["revival", "reviv"],
  ["allowance", "allow"],
  ["inference", "infer"],
  ["airliner", "airlin"],
  ["gyroscopic", "gyroscop"],
  ["adjustable", "adjust"],
  ["defensible", "defens"],
  ["irritant", "irrit"],
  ["replacement", "replac"],
  ["adjustment", "adjust"],
  ["dependent", "depend"],
  ["adoption", "adopt"],
  ["homologous", "homolog"],
  ["communism", "commun"],
  ["activate", "activ"],
  ["angulariti", "angular"],
  ["effective", "effect"],
  ["bowdlerize", "bowdler"],
  ["probate", "probat"],
  ["rate", "rate"],
  ["cease", "ceas"],
  ["controll", "control"],
  ["roll", "roll"],
  ["generalizations", "gener"],
  ["generously", "gener"],
  ["accessibility", "access"],
  ["abilities", "abil"],
  ["agreement", "agreement"],
  ["carefully", "care"],
  ["logically", "logic"],
  ["really", "realli"],
  // short words: at most 2 chars are returned as they are; 3-char words are stemmed by NLTK (ROUGE
  // never passes them to the stemmer)
  ["as", "as"],
  ["was", "wa"],
  ["this", "thi"],
  ["uses", "use"],
];

const ENTRY = 'import { porterStem } from "./porter";\nexport function stem(p: usize, n: i32): i32 { return porterStem(p, n); }\n';

describe.skipIf(detectedRuntime() === "browser")("porterStem, exact (assembly/porter.ts compiled on the fly)", () => {
  let stem: (word: string) => string;

  beforeAll(async () => {
    const fs = await import("node:fs/promises");
    const { default: asc } = await import("assemblyscript/asc");
    const source = await fs.readFile(new URL("../assembly/porter.ts", import.meta.url), "utf8");
    const result = await asc.compileString({ "porter.ts": source, "entry.ts": ENTRY }, { runtime: "stub", optimizeLevel: 1 });
    if (result.error || !result.binary) throw new Error(`asc failed: ${result.error?.message}\n${result.stderr.toString()}`);
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(result.binary as BufferSource), {
      env: {
        abort: () => {
          throw new Error("abort");
        },
      },
    });
    const ex = instance.exports as { memory: WebAssembly.Memory; stem(p: number, n: number): number };
    stem = (word) => {
      const u8 = new Uint8Array(ex.memory.buffer);
      const at = u8.length - 1024; // past the module's static data; the stub runtime allocates nothing here
      for (let i = 0; i < word.length; i++) u8[at + i] = word.charCodeAt(i);
      const n = ex.stem(at, word.length);
      return String.fromCharCode(...u8.subarray(at, at + n));
    };
  }, 120_000);

  it.each(STEMS)("%s -> %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe("stems through the ROUGE kernel (use_stemmer=True)", () => {
  beforeAll(async () => {
    await ready();
  });
  const r1 = (hyp: string, ref: string, useStemmer = true): number =>
    rougeScore(hyp, ref, { types: ["rouge1"], useStemmer }).rouge1.fmeasure;

  it("stems of at most 3 chars, checked exactly (the written stem is not stemmed again)", () => {
    for (const [word, expected] of STEMS) {
      if (word.length <= 3 || expected.length > 3) continue;
      expect(r1(word, expected), `${word} -> ${expected}`).toBe(1);
      expect(r1(word, expected, false), `${word} unstemmed`).toBe(word === expected ? 1 : 0);
    }
  });

  it("words NLTK conflates get the same stem", () => {
    const groups = [
      ["connect", "connected", "connecting", "connection", "connections"],
      ["generous", "generously", "generalization", "generalizations", "generate"],
      ["hope", "hopeful", "hopefully", "hopefulness", "hoping"],
      ["adjust", "adjustable", "adjustment"],
      ["universe", "university", "universal"],
      ["organ", "organization", "organic"],
      ["agree", "agreed"],
      ["skies", "sky"],
      ["dying", "die", "dies", "died"],
      ["lying", "lie", "lies", "lied"],
      ["innings", "inning"],
      ["proceed", "proceeding"],
    ];
    for (const g of groups) for (const w of g.slice(1)) expect(r1(w, g[0]!), `${w} ~ ${g[0]}`).toBe(1);
  });

  it("words NLTK keeps apart get different stems", () => {
    expect(r1("news", "new")).toBe(0); // "news" is in the irregular-forms pool
    expect(r1("hoping", "hopping")).toBe(0); // hope vs hop
    expect(r1("proceed", "proceeds")).toBe(0); // the pool has "proceed" only: "proceeds" -> "proce"
    expect(r1("outing", "out")).toBe(0);
  });

  it("only tokens longer than 3 chars are stemmed", () => {
    expect(r1("this", "thi")).toBe(1); // "this" (4 chars) -> "thi"
    expect(r1("was", "wa")).toBe(0); // "was" (3 chars) stays "was"
    expect(r1("was", "was")).toBe(1);
    expect(r1("ties", "tie")).toBe(1);
  });
});
