// The one streaming CSV/TSV reader (CsvSplitter, src/bulk/records.ts): the records of parseCsv over the
// whole text, wherever the text is cut, with the scorer's rules (RFC 4180 with Python csv's leniency).
import { describe, expect, it } from "vitest";
import { CsvSplitter, parseCsv, type CsvRecord } from "../src/bulk/records.js";

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
    const texts = [
      'h1,h2\n"a\nb",c\r\nd,"e ""f"""\n',
      'x,"y"z\r\r\n\r\n"q\r\n",\r\nlast,"no newline"',
      'a\rb,c\n"",""""\n\n\n,\n',
    ];
    for (const text of texts) {
      const whole = parseCsv(text, ",", 7);
      for (let cut = 0; cut <= text.length; cut++) {
        for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
          expect(streamed([text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)], ",", 7), `${JSON.stringify(text)} cut ${cut}/${cut2}`).toEqual(whole);
        }
      }
    }
    expect(streamed(['a,"open\n', "more"])).toEqual([{ line: 1, error: "unclosed quoted field" }]);
  });

  it("a blank CRLF line cut between its CR and LF is still no record", () => {
    expect(streamed(["a\n\r", "\nb\n"])).toEqual([{ line: 1, fields: ["a"] }, { line: 3, fields: ["b"] }]);
  });

  it("TSV without quoting: a quote is text and every newline ends a record", () => {
    const text = 'a\t"b\n"c\td\n';
    expect(streamed([text.slice(0, 4), text.slice(4)], "\t")).toEqual([
      { line: 1, fields: ["a", '"b'] },
      { line: 2, fields: ['"c', "d"] },
    ]);
    expect(streamed([text.slice(0, 3), text.slice(3)], "\t", 1, true)).toEqual([{ line: 1, fields: ["a", "b\nc", "d"] }]); // quoting asked for: text after the closing quote is kept
  });
});
