// CSV outputs neutralise spreadsheet formulas in text cells (OWASP "CSV Injection"), never in numbers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeCsvFormula, Evaluate, Example, FileSystemError, Prediction, type TextSink } from "../src/index.js";
import { tempDir } from "./helpers.js";

const sink = (): TextSink => ({ isTTY: false, columns: 100, write: () => undefined });
const quiet = () => ({ stdout: sink(), stderr: sink() });

describe("escapeCsvFormula", () => {
  it("prefixes a quote to text starting with = + - @ tab CR; leaves plain numbers and other text alone", () => {
    for (const s of ["=1+2", '=HYPERLINK("http://x","y")', "+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-", "+", "=", "-x"])
      expect(escapeCsvFormula(s)).toBe(`'${s}`);
    for (const s of ["", "plain", "1+2", " =1", "'=1", "-3.5", "+4", "-1e3", "-.5", "5.", "é=1"]) expect(escapeCsvFormula(s)).toBe(s);
  });
});

describe("Evaluate saveAsCsv", () => {
  const devset = [
    Example.from({ question: "q1", answer: "a" }).withInputs("question"),
    Example.from({ question: "=1+2", answer: "b" }).withInputs("question"),
    Example.from({ question: "q3", answer: "c" }).withInputs("question"),
  ];
  const outputs: Record<string, string> = { q1: '=HYPERLINK("http://evil","click")', "=1+2": "@SUM(A1:A9)", q3: "-3.5" };
  const program = async ({ question }: Record<string, unknown>) => Prediction.from({ response: outputs[question as string] });
  // a metric with genuinely negative numbers
  const metric = (_ex: Example, pred: Prediction & { response?: string }) => (pred.response === "-3.5" ? -0.5 : -1);

  it("neutralises formula cells from the data and model output; negative numeric scores stay numbers", async () => {
    const dir = tempDir();
    const csv = join(dir, "out.csv");
    await new Evaluate({ devset, metric, saveAsCsv: csv, output: quiet() }).call(program);
    const lines = readFileSync(csv, "utf8").split("\r\n");
    expect(lines[0]).toBe("question,answer,response,metric");
    expect(lines[1]).toBe(`q1,a,"'=HYPERLINK(""http://evil"",""click"")",-1`);
    expect(lines[2]).toBe("'=1+2,b,'@SUM(A1:A9),-1");
    expect(lines[3]).toBe("q3,c,-3.5,-0.5"); // a plain number as text is no formula
  });

  it("csvEscapeFormulas: false writes the cells as they are", async () => {
    const dir = tempDir();
    const csv = join(dir, "raw.csv");
    await new Evaluate({ devset, metric, saveAsCsv: csv, csvEscapeFormulas: false, output: quiet() }).call(program);
    expect(readFileSync(csv, "utf8").split("\r\n")[2]).toBe("=1+2,b,@SUM(A1:A9),-1");
  });

  it("an unwritable saveAsCsv (a folder under /proc) ends with FileSystemError, not a hang", async () => {
    const err = await new Evaluate({ devset, metric, saveAsCsv: "/proc/evalkern-x/out.csv", output: quiet() })
      .call(program)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileSystemError);
  });
});
