import { describe, expect, it } from "vitest";
import { InOrderCommitter } from "../src/bulk/committer.js";
import { RecordCutter, type Cut, type CutterOptions } from "../src/bulk/cutter.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Cut `text` pushed in blocks of `block` bytes; the cuts as plain objects and every byte handed to onBytes. */
function cutAll(text: string, block: number, o: Partial<CutterOptions> = {}): { cuts: object[]; seen: string } {
  const bytes = enc.encode(text);
  let seen = "";
  const onBytes = (b: Uint8Array) => (seen += dec.decode(b));
  const cutter = new RecordCutter({ syntax: "jsonl", delimiter: ",", chunkBytes: 8, maxRowBytes: 1000, offset: 0, line: 1, ...o, onBytes });
  const cuts: object[] = [];
  const show = (c: Cut) => (c.kind === "records" ? { ...c, bytes: dec.decode(c.bytes) } : c);
  for (let pos = 0; pos < bytes.length; pos += block) {
    for (const c of cutter.push(bytes.subarray(pos, pos + block), pos + block >= bytes.length)) cuts.push(show(c));
  }
  return { cuts, seen };
}

describe("RecordCutter", () => {
  it("cuts whole records of up to chunkBytes, the same whatever the block size", () => {
    // records "a\n" (2 bytes), "bb\n" (3), "ccccccccc\n" (10, longer than a chunk), "d" (1, no trailing newline)
    const text = "a\nbb\nccccccccc\nd";
    const want = [
      { kind: "records", bytes: "a\nbb\n", firstLine: 1, endLine: 3, endOffset: 5 },
      { kind: "records", bytes: "ccccccccc\n", firstLine: 3, endLine: 4, endOffset: 15 },
      { kind: "records", bytes: "d", firstLine: 4, endLine: 4, endOffset: 16 },
    ];
    for (const block of [1, 3, 7, 16, 100]) {
      const { cuts, seen } = cutAll(text, block);
      expect(cuts, `block ${block}`).toEqual(want);
      expect(seen).toBe(text);
    }
  });

  it("refuses a record over maxRowBytes without keeping it, counting its bytes and lines, its bytes still seen in order", () => {
    // a quoted CSV field with two newlines makes one record of 14 bytes on lines 2-4
    const text = 'x,y\n"p\nq\nrrrrr",z\nk,l\n';
    for (const block of [2, 5, 100]) {
      const { cuts, seen } = cutAll(text, block, { syntax: "quoted", chunkBytes: 4, maxRowBytes: 6 });
      expect(cuts, `block ${block}`).toEqual([
        { kind: "records", bytes: "x,y\n", firstLine: 1, endLine: 2, endOffset: 4 },
        { kind: "too-large", size: 14, firstLine: 2, endLine: 5, endOffset: 18 },
        { kind: "records", bytes: "k,l\n", firstLine: 5, endLine: 6, endOffset: 22 },
      ]);
      expect(seen).toBe(text);
    }
  });

  it("keeps no view of a block or of its own joining buffer: cuts stay intact when the caller reuses one block buffer", () => {
    const text = "a\nbb\nccccccccc\nd\nee\nf\n";
    const bytes = enc.encode(text);
    for (const block of [3, 5, 7]) {
      const cutter = new RecordCutter({ syntax: "jsonl", delimiter: ",", chunkBytes: 8, maxRowBytes: 1000, offset: 0, line: 1 });
      const reused = new Uint8Array(block);
      const cuts: Cut[] = [];
      for (let pos = 0; pos < bytes.length; pos += block) {
        const part = bytes.subarray(pos, pos + block);
        reused.set(part);
        for (const c of cutter.push(reused.subarray(0, part.length), pos + block >= bytes.length)) cuts.push(c);
        reused.fill(0x21); // the next read overwrites the block
      }
      const got = cuts.map((c) => (c.kind === "records" ? dec.decode(c.bytes) : c.kind));
      expect(got, `block ${block}`).toEqual(["a\nbb\n", "ccccccccc\n", "d\nee\nf\n"]);
    }
  });

  it("with views, hands out the same cuts without copying them (views of the pushed block or of its joining buffer)", () => {
    const text = "a\nbb\nccccccccc\nd\nee\nf\n";
    const bytes = enc.encode(text);
    for (const block of [3, 5, 7, 100]) {
      const cutter = new RecordCutter({
        syntax: "jsonl",
        delimiter: ",",
        chunkBytes: 8,
        maxRowBytes: 1000,
        offset: 0,
        line: 1,
        views: true,
      });
      const reused = new Uint8Array(block);
      const got: string[] = [];
      let views = 0;
      for (let pos = 0; pos < bytes.length; pos += block) {
        const part = bytes.subarray(pos, pos + block);
        reused.set(part);
        for (const c of cutter.push(reused.subarray(0, part.length), pos + block >= bytes.length)) {
          if (c.kind !== "records") continue;
          got.push(dec.decode(c.bytes)); // read before the next push, as the caller of views must
          if (c.bytes.buffer === reused.buffer) views++; // a view of the block itself, not a copy
        }
        reused.fill(0x21);
      }
      expect(got, `block ${block}`).toEqual(["a\nbb\n", "ccccccccc\n", "d\nee\nf\n"]);
      // one block holding the whole text: every cut is a view of it (small blocks: views of the joining buffer)
      if (block === 100) expect(views).toBe(3);
    }
  });

  it("starts at the offset and line it is given (a resumed run)", () => {
    const { cuts } = cutAll("e\nf\n", 100, { offset: 40, line: 9 });
    expect(cuts).toEqual([{ kind: "records", bytes: "e\nf\n", firstLine: 9, endLine: 11, endOffset: 44 }]);
  });
});

describe("InOrderCommitter", () => {
  it("commits results that arrive out of order in submission order", () => {
    const committed: string[] = [];
    const c = new InOrderCommitter<string>((v, seq) => committed.push(`${seq}:${v}`));
    const [a, b, d] = [c.submit(), c.submit(), c.submit()];
    c.settle(d, "third");
    c.settle(b, "second");
    expect(committed).toEqual([]);
    expect(c.uncommitted).toBe(3);
    c.settle(a, "first");
    expect(committed).toEqual(["0:first", "1:second", "2:third"]);
    expect(c.uncommitted).toBe(0);
  });

  it("stops at a failing commit and after halt", () => {
    const committed: number[] = [];
    const c = new InOrderCommitter<number>((v) => {
      if (v < 0) throw new Error("bad chunk");
      committed.push(v);
    });
    const s = [c.submit(), c.submit(), c.submit()];
    c.settle(s[2]!, 3);
    c.settle(s[1]!, -1);
    expect(() => c.settle(s[0]!, 1)).toThrow("bad chunk");
    expect(committed).toEqual([1]);
    const h = new InOrderCommitter<number>((v) => committed.push(v));
    const t = h.submit();
    h.halt();
    h.settle(t, 7);
    expect(committed).toEqual([1]);
  });
});
