// scanPair, the fast path that reads a JSONL row's pair without JSON.parse: hand-worked rows it reads
// (each value worked out from the JSON text), every case it leaves to JSON.parse (undefined), and the
// rule that whatever it answers is what extractPair(JSON.parse(row)) answers.
import { ready } from "@evalkern/core-wasm";
import { describe, expect, it } from "vitest";
import { scoreChunk } from "../src/bulk/chunk.js";
import { createBulkMetric, normalizeMetrics } from "../src/bulk/metrics.js";
import { extractPair, resolveFields } from "../src/bulk/records.js";
import { scanKeys, scanPair, type ScanKeys } from "../src/bulk/row-scan.js";
import { rowsOutput } from "../src/bulk/rows.js";

const KEYS: ScanKeys = { hyp: "hyp", ref: "refs", id: undefined };
const WITH_ID: ScanKeys = { hyp: "hyp", ref: "refs", id: "id" };

describe("scanKeys", () => {
  it("scans plain top-level keys only", () => {
    expect(scanKeys(resolveFields(undefined))).toEqual({ hyp: "hyp", ref: "refs", id: undefined });
    expect(scanKeys(resolveFields({ hypothesis: "out", references: "gold", id: "n" }))).toEqual({ hyp: "out", ref: "gold", id: "n" });
    expect(scanKeys(resolveFields({ hypothesis: "m.h" }))).toBeUndefined();
    expect(scanKeys(resolveFields({ references: "refs.0" }))).toBeUndefined();
    expect(scanKeys(resolveFields({ id: "meta.id" }))).toBeUndefined();
    expect(scanKeys(resolveFields({ references: ["r1", "r2"] }))).toBeUndefined();
  });
});

describe("scanPair reads", () => {
  it("a plain row, other fields of every JSON type skipped", () => {
    expect(scanPair('{"id":"p0","hyp":"a b","refs":["a c","d"]}', KEYS)).toEqual({
      ok: true,
      hyp: "a b",
      refs: ["a c", "d"],
      id: undefined,
    });
    const nested = '{"n":-12.5e+3,"z":0,"f":0.25,"t":true,"x":false,"u":null,"o":{"a":[1,{"b":[]},"c"],"e":{}},"hyp":"h","refs":"r"}';
    expect(scanPair(nested, KEYS)).toEqual({ ok: true, hyp: "h", refs: ["r"], id: undefined });
  });

  it("spaces between the tokens and around the row", () => {
    expect(scanPair('  { "hyp" : "a" , "refs" : [ "b" , null ] }  ', KEYS)).toEqual({ ok: true, hyp: "a", refs: ["b"], id: undefined });
  });

  it("escapes, decoded as JSON decodes them (a lone surrogate stays one)", () => {
    const row = String.raw`{"hyp":"q\"u\\o\/t\b\f\n\r\t\u00e9\ud83d\ude00","refs":["\ud800 lone","plain"]}`;
    expect(scanPair(row, KEYS)).toEqual({ ok: true, hyp: 'q"u\\o/t\b\f\n\r\té😀', refs: ["\ud800 lone", "plain"], id: undefined });
    // a backslash in a skipped field, then a string without one
    expect(scanPair(String.raw`{"a":"\\","hyp":"x","refs":["y"]}`, KEYS)).toEqual({ ok: true, hyp: "x", refs: ["y"], id: undefined });
  });

  it("characters JSON allows in strings as they are: U+2028, U+007F, U+FEFF, non-BMP", () => {
    expect(scanPair('{"hyp":"\u2028\u007f\ufeff😀","refs":[""]}', KEYS)).toEqual({
      ok: true,
      hyp: "\u2028\u007f\ufeff😀",
      refs: [""],
      id: undefined,
    });
  });

  it("the id as JSON.parse gives it, null when absent", () => {
    expect(scanPair('{"id":7,"hyp":"a","refs":["b"]}', WITH_ID)?.id).toBe(7);
    expect(scanPair('{"hyp":"a","refs":["b"],"id":{"k":[1.50,"x"]}}', WITH_ID)?.id).toEqual({ k: [1.5, "x"] });
    expect(scanPair('{"hyp":"a","refs":["b"],"id":1e400}', WITH_ID)?.id).toBe(Infinity);
    expect(scanPair('{"hyp":"a","refs":["b"]}', WITH_ID)?.id).toBeNull();
    expect(scanPair('{"hyp":"a","refs":["b"]}', { hyp: "hyp", ref: "refs", id: "hyp" })?.id).toBe("a");
  });
});

/** Rows the scan must leave to JSON.parse, by reason. */
const FALLBACKS: Record<string, string> = {
  "a byte order mark first": '\ufeff{"hyp":"a","refs":["a"]}',
  "a tab around the row": '\t{"hyp":"a","refs":["a"]}',
  "a carriage return at the end": '{"hyp":"a","refs":["a"]}\r',
  "a newline between tokens": '{"hyp":"a",\n"refs":["a"]}',
  "a raw tab in a string": '{"hyp":"a\tb","refs":["a"]}',
  "a raw control character in a skipped string": '{"x":"\u0001","hyp":"a","refs":["a"]}',
  "a key with an escape": String.raw`{"h\u0079p":"a","refs":["a"]}`,
  "a duplicate hypothesis": '{"hyp":"a","hyp":"b","refs":["b"]}',
  "a duplicate reference key": '{"hyp":"a","refs":["a"],"refs":["b"]}',
  "a duplicate id": '{"id":1,"hyp":"a","refs":["a"],"id":2}',
  "a hypothesis that is no string": '{"hyp":5,"refs":["a"]}',
  "references that are a number": '{"hyp":"a","refs":5}',
  "references that are null": '{"hyp":"a","refs":null}',
  "a reference that is a number": '{"hyp":"a","refs":["a",1]}',
  "a reference that is an array": '{"hyp":"a","refs":[["a"]]}',
  "no reference (empty array)": '{"hyp":"a","refs":[]}',
  "no reference (nulls only)": '{"hyp":"a","refs":[null,null]}',
  "no hypothesis": '{"refs":["a"]}',
  "no references": '{"hyp":"a"}',
  "an empty object": "{}",
  "an array": '["hyp","refs"]',
  "a string": '"hyp"',
  "a number": "42",
  "a trailing comma": '{"hyp":"a","refs":["a"],}',
  "a trailing comma in the references": '{"hyp":"a","refs":["a",]}',
  "a missing comma": '{"hyp":"a" "refs":["a"]}',
  "a missing colon": '{"hyp" "a","refs":["a"]}',
  "text after the object": '{"hyp":"a","refs":["a"]} x',
  "a second closing brace": '{"hyp":"a","refs":["a"]}}',
  "an object not closed": '{"hyp":"a","refs":["a"]',
  "a string not closed": '{"hyp":"a,"refs":["a"]}',
  "an unknown escape": String.raw`{"hyp":"\x41","refs":["a"]}`,
  "a short \\u escape": String.raw`{"hyp":"\u12","refs":["a"]}`,
  "a \\u escape with a non-hex digit": String.raw`{"x":"\u12g4","hyp":"a","refs":["a"]}`,
  "a leading zero": '{"n":01,"hyp":"a","refs":["a"]}',
  "a point without digits": '{"n":1.,"hyp":"a","refs":["a"]}',
  "a minus alone": '{"n":-,"hyp":"a","refs":["a"]}',
  "a number starting with a point": '{"n":.5,"hyp":"a","refs":["a"]}',
  "a plus sign": '{"n":+1,"hyp":"a","refs":["a"]}',
  "an exponent without digits": '{"n":1e+,"hyp":"a","refs":["a"]}',
  "a cut literal": '{"n":tru,"hyp":"a","refs":["a"]}',
  "a single-quoted string": "{'hyp':'a','refs':['a']}",
  "nesting deeper than 64": `{"hyp":"a","refs":["a"],"d":${"[".repeat(70)}${"]".repeat(70)}}`,
};

describe("scanPair leaves to JSON.parse", () => {
  for (const [why, row] of Object.entries(FALLBACKS)) {
    it(why, () => {
      expect(scanPair(row, WITH_ID)).toBeUndefined();
    });
  }

  it("nesting of 64 levels is still read", () => {
    const row = `{"hyp":"a","refs":["a"],"d":${"[".repeat(63)}${"]".repeat(63)}}`;
    expect(scanPair(row, KEYS)).toEqual({ ok: true, hyp: "a", refs: ["a"], id: undefined });
  });
});

describe("scanPair agrees with extractPair(JSON.parse(row))", () => {
  it("on every row it reads, here and in the fallback list", () => {
    const fields = resolveFields({ id: "id" });
    const rows = [
      ...Object.values(FALLBACKS),
      '{"id":"p1","lang":"ru","hyp":"Отображает\\tинформацию","refs":["Отображает информацию"]}',
      '{"refs":"r","id":[1,2],"hyp":"h \\"q\\""}',
      '{"hyp":"","refs":[""]}',
      '{"__proto__":{"x":1},"hyp":"p","refs":["p"]}',
    ];
    let read = 0;
    for (const row of rows) {
      const got = scanPair(row, WITH_ID);
      if (got === undefined) continue;
      read++;
      expect(got).toEqual(extractPair(JSON.parse(row), fields, false));
    }
    expect(read).toBe(4);
  });
});

describe("scoreChunk with scanned rows", () => {
  it("writes a scanned row that is a bad row (refused by the main thread) from its parsed text", async () => {
    await ready();
    const specs = normalizeMetrics(["em"]);
    const metrics = await Promise.all(specs.map((m) => createBulkMetric(m, { load: true })));
    const ctx = {
      metrics,
      fields: resolveFields({}),
      output: { kind: "rows", rows: rowsOutput(specs, "jsonl", ",", []) },
      keepStatistics: false,
    } as const;
    const bytes = new TextEncoder().encode('{"hyp":"a","refs":["a"]}\n{"hyp":"b", "refs":["c"]}\n');
    const r = scoreChunk(
      { kind: "jsonl", bytes, firstLine: 1, presetErrors: [{ position: 2, code: "row_too_large", message: "too large" }] },
      ctx,
    );
    expect(new TextDecoder().decode(r.output)).toBe(
      '{"hyp":"a","refs":["a"],"em":{"score":1}}\n{"hyp":"b","refs":["c"],"_error":{"line":2,"code":"row_too_large","message":"too large"}}\n',
    );
  });
});
