import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../src/io/csv.js";

describe("CSV writing", () => {
  it("quotes output fields only when needed", () => {
    expect(csvLine(["plain", "a,b", 'say "x"', "two\nlines"])).toBe('plain,"a,b","say ""x""","two\nlines"\n');
  });

  it("neutralises text cells a spreadsheet would run as formulas, never numbers (opt-out: escapeFormulas false)", () => {
    expect(["=1+2", "+x", "-2+3", "@SUM(A1)", "\t=1", "\r=1"].map((v) => csvCell(v))).toEqual([
      "'=1+2",
      "'+x",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
    ]);
    expect([csvCell("-3.5"), csvCell(-0.25), csvCell(-3), csvCell("plain"), csvCell(null)]).toEqual(["-3.5", "-0.25", "-3", "plain", ""]);
    expect(csvCell("=1+2", false)).toBe("=1+2");
  });
});
