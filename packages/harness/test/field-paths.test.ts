// One dotted-path getter (src/bulk/records.ts) for bulk scoring, BYOB, the report and the CLI.
import { describe, expect, it } from "vitest";
import { getPath, MISSING, pathValue } from "../src/bulk/records.js";
import { rowField } from "../src/report/index.js";

describe("field paths", () => {
  const row = { "a.b": "literal", a: { b: "nested", c: null }, refs: ["r0", "r1"], meta: { lang: "de" } };

  it("a literal key with dots wins; dots walk objects; digits index arrays", () => {
    expect(getPath(row, "a.b")).toBe("literal");
    expect(getPath({ a: { b: "nested" } }, "a.b")).toBe("nested");
    expect(getPath(row, "refs.1")).toBe("r1");
    expect(getPath(row, "refs.2")).toBe(MISSING);
    expect(getPath(row, "a.c")).toBeNull();
    expect(pathValue(row, "meta.lang")).toBe("de");
    expect(pathValue(row, "meta.country")).toBeUndefined();
  });

  it("only own properties count: a row never has a field `constructor` or `toString`", () => {
    expect(getPath(row, "constructor")).toBe(MISSING);
    expect(getPath(row, "meta.toString")).toBe(MISSING);
    expect(rowField(row, "constructor")).toBeUndefined();
    expect(rowField(row, "meta.hasOwnProperty")).toBeUndefined();
    expect(rowField(row, "meta.lang")).toBe("de");
    expect(rowField(row, "a.b")).toBe("literal");
  });
});
