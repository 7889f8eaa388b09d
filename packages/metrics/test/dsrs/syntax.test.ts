// New behaviour (docs/spec/dsrs.md §6): SyntaxMetric's language selects a real tree-sitter parser, and DiffMetric's
// AstEquivalent compares syntax trees ignoring formatting and comments.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  checkSyntax,
  compareSyntaxTrees,
  DiffMetric,
  preloadLanguages,
  resolveLanguage,
  SYNTAX_LANGUAGES,
  SyntaxMetric,
  type SyntaxLanguage,
} from "../../src/dsrs/index.js";

const NO_INPUT = {};

const SNIPPETS: Record<SyntaxLanguage, { valid: string[]; invalid: string[] }> = {
  json: {
    valid: ['{"a": [1, 2.5, "x\\n"], "b": null}', "  [true, false]\n", '"just a string"', "42"],
    invalid: ['{"a": 1,}', "{'a': 1}", '{"a": 1} // comment', "1 2", "", "[1e400]", `${"[".repeat(128)}${"]".repeat(128)}`],
  },
  javascript: {
    valid: [
      "const add = (a, b) => a + b;\nexport default add;",
      "function f() {\n  // it's fine\n  return `x${y}` + /re[)]/g.source;\n}",
      'const el = <div className="x">{items.map((i) => <Item key={i} />)}</div>;',
      "class A { #p = 1; static m() { return this.#p ?? 0; } }",
    ],
    invalid: ["function f( { return 1 }", "const a = (1;", "let = ;", "if (x) { y(); "],
  },
  typescript: {
    valid: [
      "interface A { b: string; c?: number }\nconst x: A = { b: 'y' };",
      "function id<T>(value: T): T { return value; }\ntype U = keyof A | `p-${string}`;",
      "enum E { A = 1, B }\nabstract class C implements D { abstract m(): void }",
    ],
    invalid: ["let x: = 1;", "interface A { b: string", "function f<T>(: T) {}"],
  },
  tsx: {
    valid: ["const a = <div>{value as string}</div>;", "export function C<T,>(props: { v: T }) { return <b>{String(props.v)}</b>; }"],
    invalid: ["const a = <div>;", "const a: = <b/>;"],
  },
  python: {
    valid: [
      "def f(x):\n    return 'a'  # it's fine\n",
      "class A:\n    @property\n    def v(self) -> int:\n        return [i ** 2 for i in range(3) if i][0]\n",
      'async def main():\n    async with ctx() as c:\n        await c.run(f"{x!r}")\n',
      "",
    ],
    invalid: ["def f(x)\n    return 1\n", "x = (1, 2\n", "print(1))\n", "return = 5\n"],
  },
  rust: {
    valid: [
      'fn main() { let x = 1; /* c */ println!("{}", x); }',
      "pub struct P<'a> { name: &'a str }\nimpl<'a> P<'a> { fn n(&self) -> &'a str { self.name } }",
      "fn f() -> Result<(), Box<dyn std::error::Error>> { let c = 'x'; let _ = c; Ok(()) }",
    ],
    invalid: ["fn main() { let x = 1 }", "fn main() { let x = ; }", "struct A { x: i32", "fn f( -> i32 {}"],
  },
  go: { valid: ["package main\n\nfunc main() { x := 1; _ = x }\n"], invalid: ["package main\nfunc main() { x := }\n"] },
  java: { valid: ["class A { int f() { return 1; } }"], invalid: ["class A { int f() { return 1 } }"] },
  c: { valid: ["int main(void) { return 0; }"], invalid: ["int main(void) { return 0 }"] },
  cpp: { valid: ["#include <vector>\nint main() { std::vector<int> v{1, 2}; return v[0]; }"], invalid: ["int main() { auto x = ; }"] },
  csharp: { valid: ["class A { int F() { return 1; } }"], invalid: ["class A { int F() { return 1 } }"] },
  ruby: { valid: ["def f(x)\n  x + 1\nend\n"], invalid: ["def f(x)\n  x +\n"] },
  bash: { valid: ["if [ -f x ]; then echo hi; fi"], invalid: ["if [ -f x ]; then echo hi"] },
  php: { valid: ["<?php echo 1; ?>"], invalid: ["<?php echo ; ?>"] },
  kotlin: { valid: ["fun main() { val x = 1 }"], invalid: ["fun main() { val x = }"] },
  swift: { valid: ["let x = 1"], invalid: ["let x = "] },
  scala: { valid: ["object A { def f = 1 }"], invalid: ["object A { def f = }"] },
  toml: { valid: ['a = 1\n[t]\nb = "x"\n'], invalid: ["a = \n"] },
  css: { valid: ["a { color: red; }"], invalid: ["a { color: red; "] },
  zig: { valid: ["const x = 1;"], invalid: ["const x = ;"] },
};

describe("languages", () => {
  it("resolves names and aliases case-insensitively", () => {
    expect(resolveLanguage("TS")).toBe("typescript");
    expect(resolveLanguage(" py ")).toBe("python");
    expect(resolveLanguage("rs")).toBe("rust");
    expect(resolveLanguage("jsx")).toBe("javascript");
    expect(resolveLanguage("c#")).toBe("csharp");
    expect(resolveLanguage("cobol")).toBeUndefined();
    expect(resolveLanguage(undefined)).toBeUndefined();
  });

  it("has snippets for every supported language", () => {
    expect(Object.keys(SNIPPETS).sort()).toEqual([...SYNTAX_LANGUAGES].sort());
  });

  it("preloads grammars", async () => {
    await expect(preloadLanguages(["json", "rust"])).resolves.toBeUndefined();
  });
});

describe.each(Object.entries(SNIPPETS) as Array<[SyntaxLanguage, { valid: string[]; invalid: string[] }]>)(
  "checkSyntax(%s)",
  (language, { valid, invalid }) => {
    it.each(valid)("accepts %j", async (code) => {
      expect(await checkSyntax(code, language)).toBeUndefined();
    });
    it.each(invalid)("rejects %j", async (code) => {
      const problem = await checkSyntax(code, language);
      expect(problem).toBeDefined();
      expect(problem?.message).toMatch(/^Syntax error \(.+\) at line \d+, column \d+/);
    });
  },
);

describe("syntax problems point at the error", () => {
  it("reports missing tokens", async () => {
    expect(await checkSyntax("fn main() { let x = 1 }", "rust")).toEqual({
      message: 'Syntax error (Rust) at line 1, column 22: missing ";"',
      line: 1,
      column: 22,
    });
    expect((await checkSyntax("const a = (1;", "javascript"))?.message).toBe('Syntax error (JavaScript) at line 1, column 13: missing ")"');
  });

  it("reports unexpected text with line and code-point column", async () => {
    expect((await checkSyntax('const é😀 = "x";\nlet x = ;', "javascript"))?.message).toBe(
      'Syntax error (JavaScript) at line 2, column 7: unexpected "="',
    );
    expect((await checkSyntax("def f(x)\n    return 1\n", "python"))?.message).toBe(
      'Syntax error (Python) at line 1, column 1: unexpected "def f(x)"',
    );
  });

  it("applies serde_json's rules to JSON", async () => {
    expect((await checkSyntax('{"a": 1} // c', "json"))?.message).toBe(
      "Syntax error (JSON) at line 1, column 10: comments are not allowed in JSON",
    );
    expect((await checkSyntax("1 2", "json"))?.message).toBe(
      "Syntax error (JSON) at line 1, column 3: trailing characters after the JSON value",
    );
    expect((await checkSyntax("", "json"))?.message).toBe("Syntax error (JSON) at line 1, column 1: expected a JSON value");
    expect((await checkSyntax("[1e400]", "json"))?.message).toBe("Syntax error (JSON) at line 1, column 2: number out of range");
    expect((await checkSyntax('["\\ud800"]', "json"))?.message).toContain("unpaired leading surrogate");
  });
});

describe("SyntaxMetric with a language", () => {
  it("language matters: the same text passes one parser and fails another", async () => {
    const output = { code: "x = 1  # it's fine\n" };
    expect((await new SyntaxMetric().evaluate(NO_INPUT, output)).details).toBe("Unclosed string");
    expect((await new SyntaxMetric({ language: "python" }).evaluate(NO_INPUT, output)).value).toBe(1);
    const js = await new SyntaxMetric({ language: "javascript" }).evaluate(NO_INPUT, output);
    expect(js.value).toBe(0);
    expect(js.details).toMatch(/^Syntax error \(JavaScript\)/);
  });

  it("accepts code the dsrs scan rejects: Rust lifetimes, regex literals, escaped backslashes", async () => {
    const rust = "fn f<'a>(s: &'a str) -> &'a str { s }";
    expect(await new SyntaxMetric().evaluate(NO_INPUT, { code: rust })).toMatchObject({ value: 0, details: "Unbalanced parentheses" });
    expect(await new SyntaxMetric().withLanguage("rust").evaluate(NO_INPUT, { code: rust })).toMatchObject({
      value: 1,
      details: undefined,
    });
    const js = 'const s = "a\\\\"; const r = /[(]/;';
    expect((await new SyntaxMetric().evaluate(NO_INPUT, { code: js })).value).toBe(0);
    expect((await new SyntaxMetric({ language: "js" }).evaluate(NO_INPUT, { code: js })).value).toBe(1);
  });

  it("rejects balanced but invalid code the dsrs scan accepts", async () => {
    const code = "def f(x) { return x }";
    expect((await new SyntaxMetric().evaluate(NO_INPUT, { code })).value).toBe(1);
    const score = await new SyntaxMetric({ language: "python" }).evaluate(NO_INPUT, { code });
    expect(score).toMatchObject({ value: 0, confidence: 1, costMsats: 0 });
    expect(score.details).toMatch(/^Syntax error \(Python\) at line 1/);
  });

  it("keeps dsrs's code selection", async () => {
    const metric = new SyntaxMetric({ language: "json", field: "payload" });
    expect((await metric.evaluate(NO_INPUT, { payload: "" })).details).toBe("No code found");
    expect((await metric.evaluate(NO_INPUT, { payload: '{"ok": true}' })).value).toBe(1);
    const auto = new SyntaxMetric({ language: "json" });
    expect((await auto.evaluate(NO_INPUT, { result: "[1, 2" })).details).toMatch(/^Syntax error \(JSON\)/);
    expect((await auto.evaluate(NO_INPUT, { n: 5 })).details).toBe("No code found");
  });

  it("an empty code field found by name is still parsed (valid Python, invalid JSON)", async () => {
    expect((await new SyntaxMetric({ language: "python" }).evaluate(NO_INPUT, { code: "" })).value).toBe(1);
    expect((await new SyntaxMetric({ language: "json" }).evaluate(NO_INPUT, { code: "" })).value).toBe(0);
  });

  it("exposes the resolved parser", () => {
    expect(new SyntaxMetric({ language: "TypeScript" }).parserLanguage).toBe("typescript");
    expect(new SyntaxMetric().withLanguage("rs").parserLanguage).toBe("rust");
  });
});

describe("compareSyntaxTrees / DiffMetric AstEquivalent", () => {
  const equivalent: Array<[SyntaxLanguage, string, string]> = [
    ["javascript", "function f(a,b){return a+b}", "function f(a, b) {\n  // add them\n  return a + b;\n}\n"],
    ["javascript", "const s = 'x';", 'const s = "x"'],
    ["javascript", "f(a, b,); const o = {a: 1,}", "f(a, b)\nconst o = { a: 1 }"],
    ["typescript", "interface A{b:string}\nlet x:A={b:'y'}", 'interface A {\n  b: string\n}\n/* c */ let x: A = { b: "y" };'],
    ["python", "def f(x):\n    return 'a'  # c\n", 'def f(x):\n  # comment\n  return "a"\n'],
    ["python", "x = [1,2,3]", "x = [\n    1,\n    2,\n    3,\n]"],
    ["python", "total = a + \\\n    b", "total = a + b"],
    ["rust", "fn main(){let v=vec![1,2,];/* c */}", "fn main() {\n    // c\n    let v = vec![1, 2];\n}"],
    ["rust", "struct P{x:i32,y:i32,}", "/// doc\nstruct P {\n    x: i32,\n    y: i32\n}"],
    ["json", '{"a":1,"b":[1,2]}', '{\n  "a": 1,\n  "b": [1, 2]\n}\n'],
    ["python", "x = 'a'   'b'", 'x = "a" "b"'],
    ["go", "package main\nfunc main(){x:=1;_=x}", "package main\n\n// main\nfunc main() {\n\tx := 1\n\t_ = x\n}\n"],
  ];
  const different: Array<[SyntaxLanguage, string, string]> = [
    ["javascript", "f(a, b)", "f(b, a)"],
    ["javascript", "const x = 1;", "let x = 1;"],
    ["python", "x = (1,)", "x = (1)"],
    ["python", "if a:\n    b()\nc()\n", "if a:\n    b()\n    c()\n"],
    ["rust", "fn main() { x }", "fn main() { x; }"],
    ["rust", 'fn main() { let s = "a b"; }', 'fn main() { let s = "a  b"; }'],
    ["json", '{"a": 1, "b": 2}', '{"b": 2, "a": 1}'],
    ["json", "[1, 2]", "[1, 2, 3]"],
    ["rust", 'fn main() { let s = " "; }', 'fn main() { let s = "  "; }'],
    ["javascript", 'x = " "', 'x = "  "'],
    ["python", "x = 'a b'", "x = 'a  b'"],
  ];

  it.each(equivalent)("%s: equivalent after reformatting and comments", async (language, a, b) => {
    expect(await compareSyntaxTrees(a, b, language)).toEqual({ kind: "equal" });
    const score = await new DiffMetric({ strictness: "AstEquivalent", language }).evaluate({ expected: a }, { output: b });
    expect(score).toMatchObject({ value: 1, confidence: 1, details: undefined });
  });

  it.each(different)("%s: different programs differ", async (language, a, b) => {
    expect((await compareSyntaxTrees(a, b, language)).kind).toBe("different");
    const score = await new DiffMetric({ strictness: "AstEquivalent", language }).evaluate({ expected: a }, { output: b });
    expect(score.value).toBe(0);
    expect(score.details).toMatch(/syntax trees differ: first difference at line \d+, column \d+ of the output$/);
  });

  it("locates the first difference in the output", async () => {
    const score = await new DiffMetric({ strictness: "AstEquivalent", language: "javascript" }).evaluate(
      { expected: "f(a, b)" },
      { output: "f(b, a)" },
    );
    expect(score.details).toBe("JavaScript syntax trees differ: first difference at line 1, column 3 of the output");
  });

  it("unparsable output fails; an unparsable expected text scores 0.5", async () => {
    const metric = new DiffMetric({ strictness: "AstEquivalent", language: "rust" });
    const bad = await metric.evaluate({ expected: "fn main() {}" }, { output: "fn main() {" });
    expect(bad.value).toBe(0);
    expect(bad.details).toMatch(/^Output does not parse: Syntax error \(Rust\)/);
    const noGold = await metric.evaluate({ expected: "fn main( {}" }, { output: "fn main() {}" });
    expect(noGold.value).toBe(0.5);
    expect(noGold.details).toMatch(/^Expected output does not parse, nothing to compare against: Syntax error \(Rust\)/);
  });

  it("keeps the empty-expected rule (0.5) before parsing", async () => {
    const score = await new DiffMetric({ strictness: "AstEquivalent", language: "python" }).evaluate({}, { output: "x = 1" });
    expect(score).toMatchObject({ value: 0.5, details: "No expected output to compare against", costMsats: 0 });
  });

  it("needs a supported language at construction", () => {
    expect(() => new DiffMetric({ strictness: "AstEquivalent" })).toThrow(InvalidArgumentError);
    expect(() => new DiffMetric({ strictness: "AstEquivalent", language: "cobol" })).toThrow(InvalidArgumentError);
    expect(new DiffMetric().withLanguage("py").withStrictness("AstEquivalent").parserLanguage).toBe("python");
  });

  it("handles deeply nested input without overflowing the stack", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect((await compareSyntaxTrees(deep, deep, "javascript")).kind).toBe("equal");
  });
});
