// The one streaming CSV/TSV reader (CsvSplitter, src/bulk/records.ts): the records of parseCsv over the
// whole text, wherever the text is cut, with the scorer's rules (RFC 4180 with Python csv's leniency).
import { describe, expect, it } from "vitest";
import { csvObjects, CsvSplitter, parseCsv, type CsvRecord } from "../src/bulk/records.js";

function streamed(pieces: readonly string[], delimiter = ",", firstLine = 1, quote?: boolean): CsvRecord[] {
  const s = new CsvSplitter(delimiter, firstLine, quote);
  return [...pieces.flatMap((p) => s.push(p)), ...s.end()];
}

describe("CsvSplitter", () => {
  it("splits quoted fields, escaped quotes, CRLF, blank lines and embedded newlines", () => {
    expect(streamed(['a,b\r\n"x, y","say ""hi"""\n\n"multi\nline",z\n'])).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 4, fields: ["multi\nline", "z"] },
    ]);
  });

  it("is lenient like Python's csv: a quote inside an unquoted field is text, text after a closing quote is kept", () => {
    expect(streamed(['a"b,"c"d,e\n'])).toEqual([{ line: 1, fields: ['a"b', "cd", "e"] }]);
  });

  it("gives parseCsv's records wherever the text is cut, and reports an unclosed quote", () => {
    const texts = ['h1,h2\n"a\nb",c\r\nd,"e ""f"""\n', 'x,"y"z\r\r\n\r\n"q\r\n",\r\nlast,"no newline"', 'a\rb,c\n"",""""\n\n\n,\n'];
    for (const text of texts) {
      const whole = parseCsv(text, ",", 7);
      for (let cut = 0; cut <= text.length; cut++) {
        for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
          expect(
            streamed([text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)], ",", 7),
            `${JSON.stringify(text)} cut ${cut}/${cut2}`,
          ).toEqual(whole);
        }
      }
    }
    expect(streamed(['a,"open\n', "more"])).toEqual([{ line: 1, error: "unclosed quoted field" }]);
  });

  it("a blank CRLF line cut between its CR and LF is still no record", () => {
    expect(streamed(["a\n\r", "\nb\n"])).toEqual([
      { line: 1, fields: ["a"] },
      { line: 3, fields: ["b"] },
    ]);
  });

  it("TSV without quoting: a quote is text and every newline ends a record", () => {
    const text = 'a\t"b\n"c\td\n';
    expect(streamed([text.slice(0, 4), text.slice(4)], "\t")).toEqual([
      { line: 1, fields: ["a", '"b'] },
      { line: 2, fields: ['"c', "d"] },
    ]);
    // quoting asked for: text after the closing quote is kept
    expect(streamed([text.slice(0, 3), text.slice(3)], "\t", 1, true)).toEqual([{ line: 1, fields: ["a", "b\nc", "d"] }]);
  });
});

describe("csvObjects (small files with a header row: BYOB and DeepEval datasets)", () => {
  const text = '\ufeffq,a\n"x, y",1\n\nshort\nlong,2,extra\nsaid "hi",3\n';

  it("relaxed (Python's csv.DictReader): short rows lack keys, long rows lose extras, a quote inside a cell is text", () => {
    expect(csvObjects(text, "d.csv", { columns: "relaxed" })).toEqual([
      { line: 2, value: { q: "x, y", a: "1" } },
      { line: 4, value: { q: "short" } },
      { line: 5, value: { q: "long", a: "2" } },
      { line: 6, value: { q: 'said "hi"', a: "3" } },
    ]);
  });

  it("strict: a row whose cell count is not the header's is refused, naming the file and line", () => {
    expect(() => csvObjects(text, "d.csv", { columns: "strict" })).toThrow(/^d\.csv:4: expected 2 fields \(the header's\), got 1$/);
    expect(csvObjects('q,a\nsaid "hi",3\n', "d.csv", { columns: "strict" })).toEqual([{ line: 2, value: { q: 'said "hi"', a: "3" } }]);
    expect(() => csvObjects('q,a\n"open,1\n', "d.csv", { columns: "strict" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: "d.csv:2: malformed CSV: unclosed quoted field" }),
    );
  });

  it("TSV with quotes when asked (Python's csv quotes any delimiter)", () => {
    expect(csvObjects('q\ta\n"x\ty"\t1\n', "d.tsv", { delimiter: "\t", quote: true, columns: "relaxed" })).toEqual([
      { line: 2, value: { q: "x\ty", a: "1" } },
    ]);
  });
});
