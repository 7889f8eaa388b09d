// JSONL output rows written from the input's bytes: a scored row is its own UTF-8 bytes with the metric
// objects spliced in before its closing brace (no decode and re-encode of its text). The expected lines
// are worked out by hand from the input lines: what `spliceObject` does to the text, byte for byte.
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { scoreChunk, type ChunkContext } from "../src/bulk/chunk.js";
import { createBulkMetric, normalizeMetrics } from "../src/bulk/metrics.js";
import { resolveFields } from "../src/bulk/records.js";
import { ByteWriter, rowsOutput, spliceObject, spliceObjectBytes } from "../src/bulk/rows.js";

const enc = new TextEncoder();

/** JSON.parse's own message for a text it refuses (the engine words it). */
function invalidJsonMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return `invalid JSON: ${(e as Error).message}`;
  }
  throw new Error("valid JSON");
}
const dec = new TextDecoder();

/** spliceObjectBytes on the whole of `text`, then `"x":1}` as the caller adds it. */
function spliced(text: string): string {
  const src = enc.encode(text);
  const w = new ByteWriter(1);
  spliceObjectBytes(w, src, 0, src.length);
  w.ascii('"x":1}');
  return dec.decode(w.result());
}

describe("spliceObjectBytes", () => {
  it("drops the closing brace and the JSON whitespace around it, and adds a comma unless the object is empty", () => {
    expect(spliced('{"a":1}')).toBe('{"a":1,"x":1}');
    expect(spliced(' \t{"a" : [1, 2] }\t \r')).toBe('{"a" : [1, 2],"x":1}');
    expect(spliced("{}")).toBe('{"x":1}');
    expect(spliced("{ \r\n }")).toBe('{"x":1}');
  });

  it("copies non-ASCII text and escapes as they are", () => {
    expect(spliced('{"é":"\\u00e9 😀","k":"\\"}"}')).toBe('{"é":"\\u00e9 😀","k":"\\"}","x":1}');
  });

  it("does to any JSON text what spliceObject does (an array loses its bracket too)", () => {
    expect(spliced("[1,2]")).toBe('[1,2,"x":1}');
    expect(spliceObject("[1,2]", '"x":1')).toBe('[1,2,"x":1}');
    expect(spliced("")).toBe(',"x":1}');
    expect(spliceObject("", '"x":1')).toBe(',"x":1}');
  });

  it("copies only the range it is given", () => {
    const src = enc.encode('{"a":1}\n{"b":2}\n');
    const w = new ByteWriter(4);
    spliceObjectBytes(w, src, 8, 15);
    w.ascii('"x":1}');
    expect(dec.decode(w.result())).toBe('{"b":2,"x":1}');
  });
});

describe("ByteWriter", () => {
  it("grows past its capacity and writes strings as UTF-8 (a lone surrogate as U+FFFD)", () => {
    const w = new ByteWriter(0);
    const long = "ab".repeat(100);
    w.text(long);
    w.text("é\ud800");
    w.byte(10);
    w.ascii("1.5e-7");
    w.bytes(enc.encode("xyz"), 1, 3);
    const out = w.result();
    expect(out.length).toBe(200 + 2 + 3 + 1 + 6 + 2);
    expect([...out.subarray(200, 206)]).toEqual([0xc3, 0xa9, 0xef, 0xbf, 0xbd, 10]);
    expect(dec.decode(out.subarray(206))).toBe("1.5e-7yz");
  });
});

describe("scoreChunk's JSONL output rows from the chunk's bytes", () => {
  let ctx: ChunkContext;
  beforeAll(async () => {
    await ready();
    const specs = normalizeMetrics(["em", "f1"]);
    const metrics = await Promise.all(specs.map((m) => createBulkMetric(m, { load: true })));
    ctx = {
      metrics,
      fields: resolveFields({}),
      output: { kind: "rows", rows: rowsOutput(specs, "jsonl", ",", []) },
      keepStatistics: false,
    };
  });

  const run = (bytes: Uint8Array): string[] => {
    const r = scoreChunk({ kind: "jsonl", bytes, firstLine: 1 }, ctx);
    return dec.decode(r.output).split("\n");
  };
  const hit = '"em":{"score":1},"f1":{"score":1}}';
  const miss = '"em":{"score":0},"f1":{"score":0}}';

  it("keeps each row's bytes (CRLF, whitespace, escapes, unicode, duplicate keys) and renders the rest from their values", () => {
    const lines = [
      '{"hyp":"a b","refs":["a b"]}\r',
      '["a"]',
      ' { "hyp" : "a" , "refs" : [ "b" ] } \t\r',
      '{"hyp":"x","refs":["y"],"hyp":"y","em":7}',
      '{"hyp":"a\\u0062","refs":["ab"]}',
      "",
      '{"hyp":"ü 😀","refs":["ü 😀"]}',
      "{}",
      '"s"',
    ];
    expect(run(enc.encode(`${lines.join("\n")}\n`))).toEqual([
      `{"hyp":"a b","refs":["a b"],${hit}`,
      '{"_line":2,"_input":["a"],"_error":{"line":2,"code":"not_object","message":"row is array, not an object"}}',
      `{ "hyp" : "a" , "refs" : [ "b" ],${miss}`,
      `{"hyp":"x","refs":["y"],"hyp":"y","em":7,${hit}`,
      `{"hyp":"a\\u0062","refs":["ab"],${hit}`,
      `{"hyp":"ü 😀","refs":["ü 😀"],${hit}`,
      '{"_error":{"line":8,"code":"missing_field","message":"missing field \\"hyp\\" (hypothesis)"}}',
      '{"_line":9,"_input":"s","_error":{"line":9,"code":"not_object","message":"row is string, not an object"}}',
      "",
    ]);
  });

  it("writes a chunk holding bytes that are not UTF-8 from the decoded text (U+FFFD), as the rows were scored", () => {
    const bytes = new Uint8Array([
      ...enc.encode('{"hyp":"a'),
      0xff,
      ...enc.encode('","refs":["a\\ufffd"]}\r\n{"hyp":"é","refs":["é"]}'), // the last line has no line break
    ]);
    expect(run(bytes)).toEqual([`{"hyp":"a\ufffd","refs":["a\\ufffd"],${hit}`, `{"hyp":"é","refs":["é"],${hit}`, ""]);
  });

  it("decodes each line on its own as the whole chunk decodes: U+FFFD for bytes that are not UTF-8, CR and line numbers kept", () => {
    const bytes = new Uint8Array([
      ...enc.encode('{"hyp":"x'),
      0xe3, // a sequence cut short by the closing quote
      ...enc.encode('","refs":["x\\ufffd"]}'),
      0x0d,
      0x0a,
      0xff,
      0x0a,
      0x0a,
      ...enc.encode('{"hyp":"b","refs":["b"]}\r\n'),
    ]);
    const r = scoreChunk({ kind: "jsonl", bytes, firstLine: 5 }, ctx);
    expect(r.invalidUtf8).toEqual({ count: 2, lines: [5, 6] });
    expect([r.records, r.blank, r.valid]).toEqual([3, 1, 2]);
    expect(dec.decode(r.output).split("\n")).toEqual([
      `{"hyp":"x\ufffd","refs":["x\\ufffd"],${hit}`,
      `{"_line":6,"_input":"\ufffd","_error":{"line":6,"code":"invalid_json","message":${JSON.stringify(invalidJsonMessage("\ufffd"))}}}`,
      `{"hyp":"b","refs":["b"],${hit}`,
      "",
    ]);
  });
});
