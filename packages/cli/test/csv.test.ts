import { describe, expect, it } from "vitest";
import { CsvSplitter, csvCell, csvLine, parseCsvText } from "../src/io/csv.js";

describe("CSV records (the bulk scorer's rules)", () => {
  it("splits quoted fields, escaped quotes, CRLF, blank lines and embedded newlines", () => {
    expect(parseCsvText('a,b\r\n"x, y","say ""hi"""\n\n"multi\nline",z\n')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 4, fields: ["multi\nline", "z"] },
    ]);
  });

  it("is lenient like Python's csv: a quote inside an unquoted field is text, text after a closing quote is kept", () => {
    expect(parseCsvText('a"b,"c"d,e\n')).toEqual([{ line: 1, fields: ['a"b', "cd", "e"] }]);
  });

  it("gives the same records whatever the chunking, and reports an unclosed quote", () => {
    const text = 'h1,h2\n"a\nb",c\r\nd,"e ""f"""\n';
    const whole = parseCsvText(text);
    for (let cut = 1; cut < text.length; cut++) {
      const s = new CsvSplitter();
      expect([...s.push(text.slice(0, cut)), ...s.push(text.slice(cut)), ...s.end()], `cut ${cut}`).toEqual(whole);
    }
    expect(parseCsvText('a,"open\n')).toEqual([{ line: 1, error: "unclosed quoted field" }]);
  });

  it("quotes output fields only when needed", () => {
    expect(csvLine(["plain", "a,b", 'say "x"', "two\nlines"])).toBe('plain,"a,b","say ""x""","two\nlines"\n');
  });

  it("neutralises text cells a spreadsheet would run as formulas, never numbers (opt-out: escapeFormulas false)", () => {
    expect(["=1+2", "+x", "-2+3", "@SUM(A1)", "\t=1", "\r=1"].map((v) => csvCell(v))).toEqual(["'=1+2", "'+x", "'-2+3", "'@SUM(A1)", "'\t=1", "'\r=1"]);
    expect([csvCell("-3.5"), csvCell(-0.25), csvCell(-3), csvCell("plain"), csvCell(null)]).toEqual(["-3.5", "-0.25", "-3", "plain", ""]);
    expect(csvCell("=1+2", false)).toBe("=1+2");
  });
});
