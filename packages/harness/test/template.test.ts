import { describe, expect, it } from "vitest";
import { MissingFieldError, compileTemplate } from "../src/byob/template.js";
import { normalizeBaseUrl } from "../src/byob/client.js";
import { parseHfUri } from "../src/byob/dataset.js";

describe("BYOB templates", () => {
  it("fills {field}, dotted and indexed fields with Python str(); {{ }} escape", () => {
    const t = compileTemplate("{{q}}: {question} | {choices.text} | {choices.text[1]} | {meta.0} | {n!s} | {flag}");
    const row = { question: "Why?", choices: { text: ["a", "b"] }, meta: ["m0"], n: 1.5, flag: false };
    expect(t.render(row)).toBe("{q}: Why? | ['a', 'b'] | b | m0 | 1.5 | False");
    expect(t.fields).toEqual(["question", "choices.text", "choices.text.1", "meta.0", "n", "flag"]);
  });

  it("missing fields throw MissingFieldError with Python's str(KeyError)", () => {
    const t = compileTemplate("{a.b}");
    expect(() => t.render({ a: {} })).toThrow(MissingFieldError);
    expect(() => t.render({ a: {} })).toThrow("'a.b'");
  });

  it("rejects what str.format would reject, and Jinja", () => {
    expect(() => compileTemplate("x { y")).toThrow(/single '\{'/);
    expect(() => compileTemplate("x } y")).toThrow(/single '\}'/);
    expect(() => compileTemplate("{}")).toThrow(/positional/);
    expect(() => compileTemplate("{x:>10}")).toThrow(/format spec/);
    expect(() => compileTemplate("{# c #}")).toThrow(/Jinja2/);
  });
});

describe("URLs", () => {
  it("normalizes OpenAI-compatible base URLs", () => {
    expect(normalizeBaseUrl("http://h:8000")).toBe("http://h:8000/v1");
    expect(normalizeBaseUrl("http://h:8000/v1/")).toBe("http://h:8000/v1");
    expect(normalizeBaseUrl("https://api.x.com/api/paas/v4")).toBe("https://api.x.com/api/paas/v4");
  });

  it("parses hf:// URIs as BYOB's HuggingFaceFetcher", () => {
    expect(parseHfUri("hf://boolq")).toEqual({ dataset: "boolq", config: undefined, split: undefined });
    expect(parseHfUri("hf://google/boolq?split=validation")).toEqual({ dataset: "google/boolq", config: undefined, split: "validation" });
    expect(parseHfUri("hf://org/ds/cfg")).toEqual({ dataset: "org/ds", config: "cfg", split: undefined });
    expect(parseHfUri("hf://org/ds/cfg/train?split=test")).toEqual({ dataset: "org/ds", config: "cfg", split: "test" });
    expect(() => parseHfUri("hf://")).toThrow(/empty body/);
  });
});
