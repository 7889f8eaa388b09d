// Reading the start of an input: format detection, sampling (JSONL and CSV, BOM, CRLF, quoted newlines),
// the first malformed rows named by line, the field-mapping guess, and `?metrics=` arguments.
import { describe, expect, it } from "vitest";
import { InputError, detectFormat, guessMapping, parseMetricArg, sampleRecords, typedValue } from "../src/parse.js";

describe("detectFormat", () => {
  it("goes by the name, else by the first character", () => {
    expect(detectFormat("a.csv", "{")).toEqual({ format: "csv", delimiter: "," });
    expect(detectFormat("a.TSV", "")).toEqual({ format: "csv", delimiter: "\t" });
    expect(detectFormat("a.jsonl?x=1", "hyp,refs")).toEqual({ format: "jsonl", delimiter: "," });
    expect(detectFormat(undefined, '\uFEFF  {"a":1}')).toEqual({ format: "jsonl", delimiter: "," });
    expect(detectFormat("pasted", "hyp,refs\na,b")).toEqual({ format: "csv", delimiter: "," });
    expect(detectFormat("pasted", "hyp\trefs\na\tb")).toEqual({ format: "csv", delimiter: "\t" });
  });
});

describe("sampleRecords", () => {
  it("JSONL: rows, fields with types, blank lines skipped, a cut last line ignored, bad lines named", () => {
    const text =
      '{"id":"a","hyp":"x y","refs":["x"],"lang":"en"}\r\n\n{"id":"b","hyp":"z","refs":["z","w"],"lang":"de"}\nnot ' +
      'json\n[1]\n{"id":"c","hy';
    const s = sampleRecords(text, "jsonl", ",");
    expect(s.rows.map((r) => r.id)).toEqual(["a", "b"]);
    expect(s.errors).toEqual([
      { line: 4, message: expect.stringMatching(/^invalid JSON: /) },
      { line: 5, message: "not a JSON object (array)" },
    ]);
    expect(s.fields.map((f) => [f.name, f.type, f.present])).toEqual([
      ["id", "string", 2],
      ["hyp", "string", 2],
      ["refs", "string[]", 2],
      ["lang", "string", 2],
    ]);
    expect(sampleRecords('{"a":1}', "jsonl", ",", { complete: true }).rows).toEqual([{ a: 1 }]);
  });

  it("CSV: a repeated header name keeps every cell as name#n, the scorer's keys; TSV quotes are text", () => {
    const s = sampleRecords("hyp,hyp,ref\na,b,c\n", "csv", ",");
    expect(s.rows).toEqual([{ "hyp#1": "a", "hyp#2": "b", ref: "c" }]);
    expect(s.fields.map((f) => f.name)).toEqual(["hyp#1", "hyp#2", "ref"]);
    expect(sampleRecords('hyp\tref\n"Hi," she said.\tx\n', "csv", "\t").rows).toEqual([{ hyp: '"Hi," she said.', ref: "x" }]);
  });

  it("CSV: header (BOM removed), quoted newlines, wrong field counts named by line", () => {
    const text = '\uFEFFoutput,target\n"two\nlines",b\nonly-one\nc,d\n';
    const s = sampleRecords(text, "csv", ",");
    expect(s.header).toEqual(["output", "target"]);
    expect(s.rows).toEqual([
      { output: "two\nlines", target: "b" },
      { output: "c", target: "d" },
    ]);
    expect(s.errors).toEqual([{ line: 4, message: "expected 2 fields (the header's), got 1" }]);
    expect(() => sampleRecords("", "csv", ",", { complete: true })).toThrow(InputError);
  });
});

describe("guessMapping", () => {
  const fields = (names: [string, string, number][]) =>
    names.map(([name, type, distinct]) => ({ name, type, present: 10, distinct, example: "" }));

  it("well-known names", () => {
    expect(
      guessMapping(
        fields([
          ["id", "string", 99],
          ["lang", "string", 3],
          ["hyp", "string", 99],
          ["refs", "string[]", 99],
        ]),
      ),
    ).toEqual({ hyp: "hyp", refs: ["refs"], id: "id", slices: ["lang"] });
    expect(
      guessMapping(
        fields([
          ["prediction", "string", 99],
          ["Reference", "string", 99],
          ["split", "string", 2],
        ]),
      ),
    ).toMatchObject({ hyp: "prediction", refs: ["Reference"], id: undefined, slices: ["split"] });
    expect(
      guessMapping(
        fields([
          ["actual_output", "string", 99],
          ["expected_output", "string", 99],
        ]),
      ),
    ).toMatchObject({ hyp: "actual_output", refs: ["expected_output"] });
  });

  it("numbered reference columns, then the first text fields", () => {
    expect(
      guessMapping(
        fields([
          ["out", "string", 99],
          ["ref1", "string", 99],
          ["ref2", "string", 99],
        ]),
      ),
    ).toMatchObject({ hyp: "out", refs: ["ref1", "ref2"] });
    expect(
      guessMapping(
        fields([
          ["a", "string", 99],
          ["b", "string", 99],
          ["n", "number", 99],
        ]),
      ),
    ).toMatchObject({ hyp: "a", refs: ["b"], slices: [] });
  });
});

describe("metric arguments", () => {
  const table: Record<string, string> = { "bleu.lowercase": "boolean", "chrf.wordOrder": "integer", "rouge.types": "string[]" };
  const types = (name: string, key: string) => table[`${name}.${key}`];
  it("name:key=value typed by the schema", () => {
    expect(parseMetricArg("bleu", types)).toEqual({ name: "bleu", options: {} });
    expect(parseMetricArg("bleu:lowercase=true:tokenize=intl", types)).toEqual({
      name: "bleu",
      options: { lowercase: true, tokenize: "intl" },
    });
    expect(parseMetricArg("chrf:wordOrder=2", types)).toEqual({ name: "chrf", options: { wordOrder: 2 } });
    expect(() => parseMetricArg("bleu:lowercase", types)).toThrow(/expected key=value/);
    expect(typedValue("rouge1, rougeL", "string[]")).toEqual(["rouge1", "rougeL"]);
    expect(typedValue("x", "integer")).toBe("x");
  });
});
