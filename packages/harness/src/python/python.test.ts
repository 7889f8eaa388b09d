import { describe, expect, it } from "vitest";
import { PyRandom } from "./random.js";
import { pyRepr, pyStr } from "./repr.js";
import { pyRound } from "@evalkern/metrics/python";

describe("PyRandom = CPython random.Random", () => {
  it("getrandbits and sample match CPython 3.11 (values printed by python3)", () => {
    const r = new PyRandom(42);
    expect([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]).toEqual([2746317213, 478163327, 107420369]);
    const range = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(new PyRandom(42).sample(range(6), 2)).toEqual([5, 0]);
    expect(new PyRandom(42).sample(range(12), 3)).toEqual([10, 1, 0]);
    expect(new PyRandom(42).sample(range(40), 5)).toEqual([7, 1, 17, 15, 14]); // set-based branch
    expect(new PyRandom(7).sample(range(100), 8)).toEqual([41, 19, 50, 83, 6, 9, 68, 12]);
    expect(new PyRandom(2 ** 40 + 5).sample(range(50), 6)).toEqual([32, 33, 17, 42, 1, 48]); // multi-word seed
  });
});

describe("pyRound = Python round(x, n)", () => {
  it("rounds the exact binary value, exact ties to even", () => {
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(1.03125, 4)).toBe(1.0312);
    expect(pyRound(1e-5, 4)).toBe(0);
    expect(pyRound(100 * (2 / 3), 2)).toBe(66.67);
    expect(pyRound(0.19245008972987526, 4)).toBe(0.1925);
    expect(pyRound(12, 2)).toBe(12);
  });
});

describe("pyRepr / pyStr", () => {
  it("prints values as Python str() does", () => {
    expect(pyStr("x")).toBe("x");
    expect(pyStr(null)).toBe("None");
    expect(pyStr(true)).toBe("True");
    expect(pyStr(0.5)).toBe("0.5");
    expect(pyStr(1e-5)).toBe("1e-05");
    expect(pyStr(1.5e16)).toBe("1.5e+16");
    expect(pyStr(["a", 1, null, "it's"])).toBe(`['a', 1, None, "it's"]`);
    expect(pyRepr({ a: [true], b: "x\ny" })).toBe("{'a': [True], 'b': 'x\\ny'}");
  });
});
