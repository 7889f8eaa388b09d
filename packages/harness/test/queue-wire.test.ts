// The stored form of a chunk's result: a binary frame whose output bytes and statistics rows are the
// chunk's own bytes (the producer copies them into its files, no base64, no per-row parsing), with every
// number of the header given back bit for bit.
import { describe, expect, it } from "vitest";
import type { ChunkResult } from "../src/bulk/chunk.js";
import { decodeResult, encodeResult } from "../src/node/queue/wire.js";

const SIG = "evalkern-queue:test|harness:x";

function result(outputLength: number, rows: number): ChunkResult {
  const output = new Uint8Array(outputLength);
  for (let i = 0; i < outputLength; i++) output[i] = (i * 7 + 3) & 255;
  const statistics = new Float32Array(rows * 3);
  for (let i = 0; i < statistics.length; i++) statistics[i] = i % 3 === 0 ? 1 : (i * 0.37) / 3;
  return {
    records: rows,
    blank: 1,
    valid: rows - 1,
    badByCode: { invalid_json: 1 },
    badSamples: [{ line: 4, code: "invalid_json", message: "bad JSON" }],
    partials: [
      [0.1, 0.2, -0],
      [1e300, -1e300, Number.MIN_VALUE],
    ],
    sequential: { 2: [0.1, 0.7, -0] },
    nrefsMin: 1,
    nrefsMax: 2,
    output,
    statistics,
  };
}

describe("chunk results on the wire", () => {
  it("travel as their own bytes plus a short header, and come back identical", () => {
    const r = result(100_003, 20_000); // an output length that is no multiple of 4
    const frame = encodeResult(SIG, r);
    const raw = r.output!.length + r.statistics!.byteLength;
    // base64 would make it a third larger; the frame adds only its header and padding
    expect(frame.length).toBeGreaterThan(raw);
    expect(frame.length).toBeLessThan(raw + 1024);
    const back = decodeResult(frame, SIG);
    expect(back.sig).toBe(SIG);
    expect(Buffer.from(back.result!.output!).equals(Buffer.from(r.output!))).toBe(true);
    expect(Buffer.from(back.result!.statistics!.buffer, back.result!.statistics!.byteOffset, back.result!.statistics!.byteLength)).toEqual(
      Buffer.from(r.statistics!.buffer),
    );
    expect(Object.is(back.result!.partials[0]![2], -0)).toBe(true);
    expect(back.result!.partials[1]).toEqual([1e300, -1e300, Number.MIN_VALUE]);
    expect(Object.is(back.result!.sequential![2]![2], -0)).toBe(true);
    expect(back.result!.badSamples).toEqual(r.badSamples);
  });

  it("decode wherever the frame sits in its buffer (statistics rows need 4-byte alignment)", () => {
    const frame = encodeResult(SIG, result(5, 7));
    const shifted = Buffer.alloc(frame.length + 1);
    frame.copy(shifted, 1);
    const back = decodeResult(shifted.subarray(1), SIG);
    expect(Array.from(back.result!.statistics!)).toEqual(Array.from(result(5, 7).statistics!));
  });

  it("keep results without output or statistics apart from empty ones", () => {
    const { output: _o, statistics: _s, ...bare } = result(0, 2);
    const back = decodeResult(encodeResult(SIG, bare), SIG).result!;
    expect(back.output).toBeUndefined();
    expect(back.statistics).toBeUndefined();
    const empty = decodeResult(encodeResult(SIG, { ...bare, output: new Uint8Array(0) }), SIG).result!;
    expect(empty.output!.length).toBe(0);
  });

  it("give the signature only when it is not the expected one, and refuse a cut frame", () => {
    const frame = encodeResult("evalkern-queue:other", result(10, 2));
    expect(decodeResult(frame, SIG)).toEqual({ sig: "evalkern-queue:other" });
    expect(decodeResult(Buffer.from('{"v":2,"sig":"x"}'), SIG)).toEqual({ sig: undefined }); // an older worker's JSON
    const ours = encodeResult(SIG, result(10, 2));
    expect(() => decodeResult(ours.subarray(0, ours.length - 4), SIG)).toThrow(/malformed chunk result/);
  });
});
