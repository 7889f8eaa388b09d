// `ast.literal_eval` (CPython 3.11), see ../literal.ts. The expression parser.
import { PythonCompatError } from "../../errors.js";
import { PY_ELLIPSIS, PyBytes, PyComplex } from "../equality.js";
import { type LiteralEvalOptions, MAX_INT_DIGITS, PARSER_STACK, syntaxError } from "./common.js";
import { checkFString } from "./fstrings.js";
import { decodeEscapes } from "./strings.js";
import { KEYWORDS, type NumberToken, type StringToken, type Token, Tokenizer } from "./tokens.js";
import { node, type Node, other } from "./tree.js";

// ---------------------------------------------------------------------------------------------
// Parser: the `eval` start rule of the 3.11 grammar (expressions only).

const COMPARISON_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const BINARY_LEVELS: readonly (readonly string[])[] = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "//", "%", "@"]];

export class Parser {
  readonly #tokens: Token[];
  #i = 0;
  #stack = 0;
  readonly #options: LiteralEvalOptions;

  constructor(tokens: Token[], options: LiteralEvalOptions) {
    this.#tokens = tokens;
    this.#options = options;
  }

  #peek(offset = 0): Token {
    return this.#tokens[Math.min(this.#i + offset, this.#tokens.length - 1)] as Token;
  }
  #next(): Token {
    const tok = this.#peek();
    if (this.#i < this.#tokens.length - 1) this.#i++;
    return tok;
  }
  #isOp(text: string, offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "OP" && tok.text === text;
  }
  #isKeyword(text: string, offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "NAME" && tok.text === text;
  }
  #isName(offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "NAME" && !KEYWORDS.has(tok.text);
  }
  #eatOp(text: string): boolean {
    if (!this.#isOp(text)) return false;
    this.#next();
    return true;
  }
  #eatKeyword(text: string): boolean {
    if (!this.#isKeyword(text)) return false;
    this.#next();
    return true;
  }
  #expectOp(text: string): void {
    if (!this.#eatOp(text)) this.#fail();
  }
  #fail(message = "invalid syntax"): never {
    syntaxError(message);
  }
  /** Tracks CPython's parser stack; the limits are the ones CPython hits. */
  #enter(levels: number): void {
    this.#stack += levels;
    if (this.#stack > PARSER_STACK) {
      throw new PythonCompatError("MemoryError", "Parser stack overflowed - Python source too complex to parse");
    }
  }
  #leave(levels: number): void {
    this.#stack -= levels;
  }

  /** Whether the current token can begin an `expression`. */
  #startsExpression(): boolean {
    const tok = this.#peek();
    if (tok.kind === "NUMBER" || tok.kind === "STRING") return true;
    if (tok.kind === "NAME") {
      return !KEYWORDS.has(tok.text) || ["not", "lambda", "await", "True", "False", "None"].includes(tok.text);
    }
    return tok.kind === "OP" && ["(", "[", "{", "-", "+", "~", "..."].includes(tok.text);
  }

  parseEval(): Node {
    const result = this.#expressions();
    while (this.#peek().kind === "NEWLINE") this.#next();
    if (this.#peek().kind !== "END") this.#fail();
    return result;
  }

  parseFStringExpression(): void {
    // `(text)` as a star_expressions group: a tuple, a starred item or a yield are allowed.
    this.#expectOp("(");
    if (this.#isKeyword("yield")) this.#yieldExpression();
    else this.#starExpressions();
    this.#expectOp(")");
    while (this.#peek().kind === "NEWLINE") this.#next();
    if (this.#peek().kind !== "END") this.#fail("f-string: invalid syntax");
  }

  #expressions(): Node {
    const first = this.#expression();
    if (!this.#isOp(",")) return first;
    const elts = [first];
    while (this.#eatOp(",")) {
      if (!this.#startsExpression()) break;
      elts.push(this.#expression());
    }
    return node({ k: "tuple", elts }, elts);
  }

  #starExpressions(): Node {
    const first = this.#starExpression();
    if (!this.#isOp(",")) return first;
    const elts = [first];
    while (this.#eatOp(",")) {
      if (!this.#startsExpression() && !this.#isOp("*")) break;
      elts.push(this.#starExpression());
    }
    return node({ k: "tuple", elts }, elts);
  }

  #starExpression(): Node {
    if (this.#eatOp("*")) {
      const value = this.#bitwiseOr();
      return node({ k: "starred", value }, [value]);
    }
    return this.#expression();
  }

  #expression(): Node {
    this.#enter(1);
    try {
      if (this.#isKeyword("lambda")) return this.#lambda();
      const body = this.#disjunction();
      if (!this.#eatKeyword("if")) return body;
      const test = this.#disjunction();
      if (!this.#eatKeyword("else")) this.#fail("expected 'else' after 'if' expression");
      const orelse = this.#expression();
      return other("IfExp", [body, test, orelse]);
    } finally {
      this.#leave(1);
    }
  }

  #namedExpression(): Node {
    if (this.#isName() && this.#isOp(":=", 1)) {
      const target = this.#next().text;
      this.#next();
      const value = this.#expression();
      return other("NamedExpr", [node({ k: "name", id: target }), value]);
    }
    const result = this.#expression();
    if (this.#isOp(":=")) this.#fail();
    return result;
  }

  #starNamedExpression(): Node {
    if (this.#eatOp("*")) {
      const value = this.#bitwiseOr();
      return node({ k: "starred", value }, [value]);
    }
    return this.#namedExpression();
  }

  #yieldExpression(): Node {
    this.#next();
    if (this.#eatKeyword("from")) return other("YieldFrom", [this.#expression()]);
    if (this.#startsExpression() || this.#isOp("*")) return other("Yield", [this.#starExpressions()]);
    return other("Yield", []);
  }

  #lambda(): Node {
    this.#next();
    this.#lambdaParameters();
    this.#expectOp(":");
    return other("Lambda", [this.#expression()]);
  }

  #lambdaParameters(): void {
    // Positional-only and plain parameters (defaults must not be followed by non-defaults),
    // then `*` / `*name` with keyword-only parameters, then `**name`, each with an optional
    // trailing comma.
    let sawDefault = false;
    let sawSlash = false;
    let sawStar = false;
    let params = 0;
    let keywordOnly = 0;
    let bareStar = false;
    while (!this.#isOp(":")) {
      if (this.#eatOp("**")) {
        if (!this.#isName()) this.#fail();
        this.#next();
        this.#eatOp(",");
        if (bareStar && keywordOnly === 0) this.#fail("named arguments must follow bare *");
        if (!this.#isOp(":")) this.#fail();
        return;
      }
      if (this.#eatOp("*")) {
        if (sawStar) this.#fail();
        sawStar = true;
        if (this.#isName()) this.#next();
        else bareStar = true;
      } else if (this.#eatOp("/")) {
        if (sawSlash || sawStar || params === 0) this.#fail();
        sawSlash = true;
      } else {
        if (!this.#isName()) this.#fail();
        this.#next();
        params++;
        if (sawStar) keywordOnly++;
        if (this.#eatOp("=")) {
          this.#expression();
          if (!sawStar) sawDefault = true;
        } else if (sawDefault && !sawStar) {
          this.#fail("non-default argument follows default argument");
        }
      }
      if (!this.#eatOp(",")) break;
    }
    if (bareStar && keywordOnly === 0) this.#fail("named arguments must follow bare *");
  }

  #disjunction(): Node {
    const first = this.#conjunction();
    if (!this.#isKeyword("or")) return first;
    const values = [first];
    while (this.#eatKeyword("or")) values.push(this.#conjunction());
    return other("BoolOp", values);
  }

  #conjunction(): Node {
    const first = this.#inversion();
    if (!this.#isKeyword("and")) return first;
    const values = [first];
    while (this.#eatKeyword("and")) values.push(this.#inversion());
    return other("BoolOp", values);
  }

  #inversion(): Node {
    let count = 0;
    while (this.#isKeyword("not")) {
      this.#next();
      count++;
    }
    this.#enter(count);
    try {
      let result = this.#comparison();
      for (let j = 0; j < count; j++) result = node({ k: "unary", op: "not", operand: result }, [result]);
      return result;
    } finally {
      this.#leave(count);
    }
  }

  #comparisonOperator(): boolean {
    const tok = this.#peek();
    if (tok.kind === "OP" && COMPARISON_OPS.has(tok.text)) {
      this.#next();
      return true;
    }
    if (this.#isKeyword("in")) {
      this.#next();
      return true;
    }
    if (this.#isKeyword("not") && this.#isKeyword("in", 1)) {
      this.#next();
      this.#next();
      return true;
    }
    if (this.#isKeyword("is")) {
      this.#next();
      this.#eatKeyword("not");
      return true;
    }
    return false;
  }

  #comparison(): Node {
    const first = this.#bitwiseOr();
    const operands = [first];
    while (this.#comparisonOperator()) operands.push(this.#bitwiseOr());
    return operands.length === 1 ? first : other("Compare", operands);
  }

  #bitwiseOr(): Node {
    return this.#binary(0);
  }

  #binary(level: number): Node {
    if (level >= BINARY_LEVELS.length) return this.#factor();
    const ops = BINARY_LEVELS[level] as readonly string[];
    let left = this.#binary(level + 1);
    for (;;) {
      const tok = this.#peek();
      if (tok.kind !== "OP" || !ops.includes(tok.text)) return left;
      this.#next();
      const right = this.#binary(level + 1);
      left = node({ k: "binop", op: tok.text, left, right }, [left, right]);
    }
  }

  #factor(): Node {
    const ops: string[] = [];
    for (;;) {
      const tok = this.#peek();
      if (tok.kind === "OP" && (tok.text === "+" || tok.text === "-" || tok.text === "~")) {
        ops.push(tok.text);
        this.#next();
      } else {
        break;
      }
    }
    this.#enter(ops.length);
    try {
      let result = this.#power();
      for (let j = ops.length - 1; j >= 0; j--) {
        result = node({ k: "unary", op: ops[j] as string, operand: result }, [result]);
      }
      return result;
    } finally {
      this.#leave(ops.length);
    }
  }

  #power(): Node {
    const base = this.#awaitPrimary();
    if (!this.#eatOp("**")) return base;
    this.#enter(2);
    try {
      const exponent = this.#factor();
      return node({ k: "binop", op: "**", left: base, right: exponent }, [base, exponent]);
    } finally {
      this.#leave(2);
    }
  }

  #awaitPrimary(): Node {
    if (this.#eatKeyword("await")) return other("Await", [this.#primary()]);
    return this.#primary();
  }

  #primary(): Node {
    let result = this.#atom();
    for (;;) {
      if (this.#eatOp(".")) {
        if (!this.#isName()) this.#fail();
        this.#next();
        result = other("Attribute", [result]);
      } else if (this.#eatOp("(")) {
        const args = this.#arguments();
        result = node({ k: "call", func: result, argCount: args.length }, [result, ...args]);
      } else if (this.#eatOp("[")) {
        const slice = this.#slices();
        result = other("Subscript", [result, slice]);
      } else {
        return result;
      }
    }
  }

  /** Call arguments after `(`, through `)`. */
  #arguments(): Node[] {
    const args: Node[] = [];
    if (this.#eatOp(")")) return args;
    // A lone generator expression argument: `f(x for x in y)`.
    let phase = 0; // 0: positional, 1: keywords and `*`, 2: keywords and `**`
    for (;;) {
      if (this.#eatOp("*")) {
        if (phase === 2) this.#fail("iterable argument unpacking follows keyword argument unpacking");
        const value = this.#expression();
        args.push(node({ k: "starred", value }, [value]));
      } else if (this.#eatOp("**")) {
        phase = 2;
        args.push(this.#expression());
      } else if (this.#isName() && this.#isOp("=", 1)) {
        this.#next();
        this.#next();
        if (phase === 0) phase = 1;
        args.push(this.#expression());
      } else {
        if (phase !== 0) {
          this.#namedExpression();
          this.#fail("positional argument follows keyword argument");
        }
        const value = this.#namedExpression();
        if (this.#isOp("=")) this.#fail('expression cannot contain assignment, perhaps you meant "=="?');
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          if (args.length > 0 || !this.#isOp(")")) this.#fail("Generator expression must be parenthesized");
          args.push(other("GeneratorExp", [value]));
        } else {
          args.push(value);
        }
      }
      if (this.#eatOp(")")) return args;
      this.#expectOp(",");
      if (this.#eatOp(")")) return args;
    }
  }

  /** Subscript contents after `[`, through `]`. */
  #slices(): Node {
    const items: Node[] = [];
    let sawComma = false;
    for (;;) {
      if (this.#eatOp("*")) {
        const value = this.#expression();
        items.push(node({ k: "starred", value }, [value]));
      } else {
        items.push(this.#slice());
      }
      if (this.#eatOp("]")) break;
      this.#expectOp(",");
      sawComma = true;
      if (this.#eatOp("]")) break;
    }
    const lone = items[0] as Node;
    // `a[*b]` is a one-element tuple subscript (3.11).
    return sawComma || lone.k === "starred" ? node({ k: "tuple", elts: items }, items) : lone;
  }

  #slice(): Node {
    if (this.#isName() && this.#isOp(":=", 1)) return this.#namedExpression();
    const parts: Node[] = [];
    const boundary = (): boolean => this.#isOp(":") || this.#isOp(",") || this.#isOp("]");
    if (!this.#isOp(":")) {
      const lower = this.#expression();
      if (!this.#isOp(":")) {
        if (this.#isOp(":=")) this.#fail();
        return lower;
      }
      parts.push(lower);
    }
    this.#expectOp(":");
    if (!boundary()) parts.push(this.#expression());
    if (this.#eatOp(":") && !boundary()) parts.push(this.#expression());
    return other("Slice", parts);
  }

  /** `for ... in ... if ...` clauses (at least one). */
  #comprehensionClauses(): void {
    let clauses = 0;
    for (;;) {
      if (this.#isKeyword("async") && this.#isKeyword("for", 1)) this.#next();
      if (!this.#eatKeyword("for")) break;
      this.#starTargets();
      if (!this.#eatKeyword("in")) this.#fail();
      this.#disjunction();
      while (this.#eatKeyword("if")) this.#disjunction();
      clauses++;
    }
    if (clauses === 0) this.#fail();
  }

  #starTargets(): void {
    for (;;) {
      this.#starTarget();
      if (!this.#eatOp(",")) return;
      if (this.#isKeyword("in")) return;
    }
  }

  #starTarget(): void {
    if (this.#eatOp("*")) {
      if (this.#isOp("*")) this.#fail();
      this.#starTarget();
      return;
    }
    const target = this.#primary();
    this.#validateTarget(target);
  }

  #validateTarget(target: Node): void {
    if (target.k === "name") return;
    if (target.k === "other" && (target.what === "Attribute" || target.what === "Subscript")) return;
    if ((target.k === "tuple" || target.k === "list") && target.elts.length >= 0) {
      for (const elt of target.elts) {
        if (elt.k === "starred") {
          if (elt.value.k === "starred") this.#fail();
          this.#validateTarget(elt.value);
        } else {
          this.#validateTarget(elt);
        }
      }
      return;
    }
    if (target.k === "starred") {
      this.#validateTarget(target.value);
      return;
    }
    this.#fail("cannot assign to expression");
  }

  #atom(): Node {
    const tok = this.#peek();
    if (tok.kind === "NUMBER") {
      this.#next();
      return this.#number(tok.num as NumberToken);
    }
    if (tok.kind === "STRING") return this.#strings();
    if (tok.kind === "NAME") {
      if (tok.text === "True" || tok.text === "False") {
        this.#next();
        return node({ k: "const", value: tok.text === "True", pyType: "other" });
      }
      if (tok.text === "None") {
        this.#next();
        return node({ k: "const", value: null, pyType: "other" });
      }
      if (KEYWORDS.has(tok.text)) this.#fail();
      this.#next();
      return node({ k: "name", id: tok.text });
    }
    if (tok.kind !== "OP") this.#fail();
    switch (tok.text) {
      case "...":
        this.#next();
        return node({ k: "const", value: PY_ELLIPSIS, pyType: "other" });
      case "(":
        this.#next();
        return this.#parenthesized();
      case "[":
        this.#next();
        return this.#bracketed();
      case "{":
        this.#next();
        return this.#braced();
      default:
        return this.#fail();
    }
  }

  #parenthesized(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp(")")) return node({ k: "tuple", elts: [] });
      if (this.#isKeyword("yield")) {
        const result = this.#yieldExpression();
        this.#expectOp(")");
        return result;
      }
      const first = this.#starNamedExpression();
      if (this.#eatOp(")")) {
        if (first.k === "starred") this.#fail("cannot use starred expression here");
        return first;
      }
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        if (first.k === "starred") this.#fail();
        this.#comprehensionClauses();
        this.#expectOp(")");
        return other("GeneratorExp", [first]);
      }
      const elts = [first];
      this.#expectOp(",");
      while (!this.#eatOp(")")) {
        elts.push(this.#starNamedExpression());
        if (this.#eatOp(")")) break;
        this.#expectOp(",");
      }
      return node({ k: "tuple", elts }, elts);
    } finally {
      this.#leave(1);
    }
  }

  #bracketed(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp("]")) return node({ k: "list", elts: [] });
      const first = this.#starNamedExpression();
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        if (first.k === "starred") this.#fail();
        this.#comprehensionClauses();
        this.#expectOp("]");
        return other("ListComp", [first]);
      }
      const elts = [first];
      while (!this.#eatOp("]")) {
        this.#expectOp(",");
        if (this.#eatOp("]")) break;
        elts.push(this.#starNamedExpression());
      }
      return node({ k: "list", elts }, elts);
    } finally {
      this.#leave(1);
    }
  }

  #braced(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp("}")) return node({ k: "dict", keys: [], values: [] });
      if (this.#isOp("**")) return this.#dictRest([], []);
      if (this.#isOp("*")) return this.#setRest([]);
      if (this.#isName() && this.#isOp(":=", 1)) {
        const first = this.#namedExpression();
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          this.#expectOp("}");
          return other("SetComp", [first]);
        }
        return this.#setRest([first]);
      }
      const first = this.#expression();
      if (this.#eatOp(":")) {
        const value = this.#expression();
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          this.#expectOp("}");
          return other("DictComp", [first, value]);
        }
        return this.#dictRest([first], [value]);
      }
      if (this.#isOp(":=")) this.#fail();
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        this.#comprehensionClauses();
        this.#expectOp("}");
        return other("SetComp", [first]);
      }
      return this.#setRest([first]);
    } finally {
      this.#leave(1);
    }
  }

  #dictRest(keys: Array<Node | null>, values: Node[]): Node {
    for (;;) {
      if (keys.length > 0) {
        if (this.#eatOp("}")) break;
        this.#expectOp(",");
        if (this.#eatOp("}")) break;
      }
      if (this.#eatOp("**")) {
        keys.push(null);
        values.push(this.#bitwiseOr());
      } else {
        keys.push(this.#expression());
        this.#expectOp(":");
        values.push(this.#expression());
      }
    }
    return node({ k: "dict", keys, values }, [...keys, ...values]);
  }

  #setRest(elts: Node[]): Node {
    for (;;) {
      if (elts.length > 0) {
        if (this.#eatOp("}")) break;
        this.#expectOp(",");
        if (this.#eatOp("}")) break;
      }
      elts.push(this.#starNamedExpression());
    }
    return node({ k: "set", elts }, elts);
  }

  #number(num: NumberToken): Node {
    const digits = num.text.replace(/_/g, "");
    if (num.type === "int") {
      let value: bigint;
      if (num.radix === 10) {
        if (digits.length > MAX_INT_DIGITS) {
          syntaxError(`Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits.length} digits`);
        }
        value = BigInt(digits);
      } else {
        value = BigInt(digits.slice(0, 2).toLowerCase() + digits.slice(2));
      }
      return node({ k: "const", value: this.#int(value), pyType: "int" });
    }
    if (num.type === "float") return node({ k: "const", value: Number(digits), pyType: "float" });
    return node({ k: "const", value: new PyComplex(0, Number(digits.slice(0, -1))), pyType: "complex" });
  }

  #int(value: bigint): number | bigint {
    if (this.#options.ints === "bigint") return value;
    return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
  }

  #strings(): Node {
    const parts: StringToken[] = [];
    while (this.#peek().kind === "STRING") parts.push(this.#next().str as StringToken);
    const bytes = (parts[0] as StringToken).bytes;
    if (parts.some((part) => part.bytes !== bytes)) syntaxError("cannot mix bytes and nonbytes literals");
    const unicodeName = this.#options.unicodeName;
    if (parts.some((part) => part.fstring)) {
      for (const part of parts) {
        if (part.fstring) {
          checkFString(part, (source) => parseFString(source, this.#options), unicodeName);
        } else if (!part.raw) {
          decodeEscapes(part.body, false, unicodeName);
        }
      }
      return other("JoinedStr", []);
    }
    let text = "";
    for (const part of parts) {
      if (bytes && /[^\x00-\x7f]/.test(part.body)) syntaxError("bytes can only contain ASCII literal characters");
      text += part.raw ? part.body : decodeEscapes(part.body, bytes, unicodeName);
    }
    if (bytes) {
      const data = new Uint8Array(text.length);
      for (let k = 0; k < text.length; k++) data[k] = text.charCodeAt(k);
      return node({ k: "const", value: new PyBytes(data), pyType: "bytes" });
    }
    return node({ k: "const", value: text, pyType: "str" });
  }
}

function parseFString(source: string, options: LiteralEvalOptions): void {
  const tokens = new Tokenizer(source).run();
  new Parser(tokens, options).parseFStringExpression();
}
