import { describe, expect, it } from "vitest";
import { ColumnSums, fsumAdd, fsumMerge, fsumValue } from "../src/bulk/fsum.js";
import { firstRecordBoundary, getPath, lastRecordBoundary, parseCsv } from "../src/bulk/records.js";
import { Xoshiro128 } from "../src/bulk/rng.js";

describe("fsum", () => {
  it("is exact and order-independent (as math.fsum)", () => {
    const xs = [1e16, 1, -1e16, 0.1, 0.2, 0.3, 1e-300, -0.3, 3.5, 2 ** -60];
    const p: number[] = [];
    for (const x of xs) fsumAdd(p, x);
    const q: number[] = [];
    for (const x of [...xs].reverse()) fsumAdd(q, x);
    expect(fsumValue(p)).toBe(fsumValue(q));
    // python: math.fsum([1e16, 1, -1e16, 0.1, 0.2, 0.3, 1e-300, -0.3, 3.5, 2**-60]) == 4.8
    expect(fsumValue(p)).toBe(4.8);
    let naive = 0;
    for (const x of xs) naive += x;
    expect(naive).not.toBe(4.8);
  });

  it("merging partial sums in any grouping gives the same total", () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 10 ** ((i % 7) - 3));
    const whole = new ColumnSums(1);
    values.forEach((v) => whole.addRow([v], 0));
    const parts = [0, 137, 600, 1000];
    const merged: number[] = [];
    for (let k = 1; k < parts.length; k++) {
      const c = new ColumnSums(1);
      for (let i = parts[k - 1]!; i < parts[k]!; i++) c.addRow([values[i]!], 0);
      fsumMerge(merged, c.partials[0]!);
    }
    expect(fsumValue(merged)).toBe(whole.values()[0]);
  });

  it("rounds half to even across partials", () => {
    // 1 + 2^-53 + 2^-106: just above the halfway point → rounds up
    const p: number[] = [];
    for (const x of [1, 2 ** -53, 2 ** -106]) fsumAdd(p, x);
    expect(fsumValue(p)).toBe(1 + 2 ** -52);
  });
});

describe("records", () => {
  it("getPath: dotted paths, array indices, literal dotted keys win", () => {
    const row = { a: { b: [10, { c: "x" }] }, "a.b": "literal" };
    expect(getPath(row, "a.b.1.c")).toBe("x");
    expect(getPath(row, "a.b")).toBe("literal");
    expect(typeof getPath(row, "a.z")).toBe("symbol");
  });

  it("parseCsv: quotes, doubled quotes, CRLF, embedded newlines, lenient quotes, blank lines", () => {
    const text = 'a,"b,c","d""e"\r\n\n"multi\nline",x\ny,12" pipe,"z"tail\n"open';
    const recs = parseCsv(text, ",", 1);
    expect(recs).toEqual([
      { line: 1, fields: ["a", "b,c", 'd"e'] },
      { line: 3, fields: ["multi\nline", "x"] },
      { line: 5, fields: ["y", '12" pipe', "ztail"] },
      { line: 6, error: "unclosed quoted field" },
    ]);
  });

  it("record boundaries skip newlines inside quoted CSV fields", () => {
    const enc = new TextEncoder().encode('a,"1\n2"\nb,3\nc,"4\n');
    const last = lastRecordBoundary(enc, 0, enc.length, "csv");
    expect(new TextDecoder().decode(enc.subarray(0, last.end))).toBe('a,"1\n2"\nb,3\n');
    expect(last.lines).toBe(3);
    const first = firstRecordBoundary(enc, 0, enc.length, "csv");
    expect(first).toEqual({ end: 8, lines: 2 });
    const j = new TextEncoder().encode('{"a":1}\n{"a":2}\n{"a"');
    expect(lastRecordBoundary(j, 0, j.length, "jsonl")).toEqual({ end: 16, lines: 2 });
  });
});

describe("xoshiro128**", () => {
  it("streams are reproducible and independent", () => {
    const a = new Xoshiro128(12345, 0);
    const b = new Xoshiro128(12345, 0);
    const c = new Xoshiro128(12345, 1);
    const xa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xa);
    const counts = new Array(10).fill(0);
    const r = new Xoshiro128(1, 2);
    for (let i = 0; i < 100_000; i++) counts[r.below(10)]++;
    for (const n of counts) expect(Math.abs(n - 10_000)).toBeLessThan(500);
  });
});
