// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The public API of the `re` port.
import { RE2JS } from "re2js";
import { PythonCompatError } from "../../errors.js";
import { BudgetSignal, compileMatcher, emptyLoopCaptures, type Matcher, type RunState } from "./backtrack.js";
import { RegexBudgetExceededError } from "./errors.js";
import type { UnicodeNameResolver } from "./names.js";
import { parse } from "./parser.js";
import { type Node, resolvePattern } from "./resolve.js";
import type { Ranges } from "./sets.js";
import {
  type Alphabet,
  blockText,
  buildAlphabet,
  collectSets,
  DIRECT_BOUNDS_LIMIT,
  directBounds,
  markText,
  SOURCE_LIMIT,
  translate,
  type Translation,
  unrolledSize,
  Untranslatable,
} from "./translate.js";

// ---------------------------------------------------------------------------------------------------
// Public API

/** A match: spans are UTF-16 offsets into the searched string. */
export interface PythonMatch {
  /** Start of the whole match (Python `m.start()`). */
  readonly start: number;
  /** End of the whole match. */
  readonly end: number;
  /** Python `m.group(g)`: the text of group g (0 = whole match), undefined when the group did not take part. */
  group(g?: number): string | undefined;
  /** Python `m.span(g)`, or [-1, -1] when the group did not take part. */
  span(g?: number): readonly [number, number];
}

export interface PythonRegexOptions {
  /**
   * Resolves `\N{NAME}` (names and aliases, upper-cased). Without it only the algorithmic
   * `CJK UNIFIED IDEOGRAPH-XXXX` and `HANGUL SYLLABLE ...` names resolve and any other name is
   * "undefined character name" (`re.error`). `@evalkern/metrics/byob` passes the full Unicode 14.0 table.
   */
  readonly unicodeName?: UnicodeNameResolver;
  /**
   * Step budget of the backtracking matcher (used only for backreferences, lookahead, conditionals,
   * atomic groups, possessive repeats and repeat counts above RE2's 1000). Default 1,000,000 per search.
   */
  readonly budget?: number;
  /**
   * How character classes reach re2js: "direct" spells every class out, "reduced" searches the text as
   * block characters (see buildAlphabet), "auto" (default) reduces when the classes are big. The answers
   * are the same; the option exists for tests.
   */
  readonly alphabet?: "auto" | "reduced" | "direct";
}

const DEFAULT_BUDGET = 1_000_000;
/** Marks the anchored twin a `PythonRegex` builds for `fullmatch`. */
const FULLMATCH: unique symbol = Symbol("fullmatch");

class Match implements PythonMatch {
  constructor(
    private readonly text: string,
    private readonly spans: readonly (readonly [number, number])[],
  ) {}
  get start(): number {
    return this.spans[0]![0];
  }
  get end(): number {
    return this.spans[0]![1];
  }
  span(g = 0): readonly [number, number] {
    const s = this.spans[g];
    if (s === undefined) throw new PythonCompatError("IndexError", "no such group");
    return s;
  }
  group(g = 0): string | undefined {
    const [a, b] = this.span(g);
    return a < 0 ? undefined : this.text.slice(a, b);
  }
}

/**
 * A compiled Python pattern (CPython 3.11 `re.compile(pattern, flags)` semantics, str patterns).
 *
 * @example
 * const p = compilePython(String.raw`\bcat\b`, IGNORECASE);
 * p.test("a CAT!");    // true
 * p.test("écat");      // false: é is a word character, so there is no boundary before "c"
 */
export class PythonRegex {
  /** "re2js" (linear time) or "backtrack" (budgeted) */
  readonly engine: "re2js" | "backtrack";
  /** Number of capturing groups. */
  readonly groups: number;
  /** Named groups. */
  readonly groupindex: ReadonlyMap<string, number>;
  readonly #root: Node;
  readonly #re: RE2JS | undefined;
  readonly #relaxed: RE2JS | undefined;
  readonly #translation: Translation | undefined;
  readonly #budget: number;
  readonly #groupsByBacktracking: boolean;
  #state: RunState | undefined;
  #matcher: Matcher | undefined;

  #fullmatcher: PythonRegex | undefined;
  readonly #options: PythonRegexOptions | undefined;

  constructor(
    readonly pattern: string,
    readonly flags: number,
    options?: PythonRegexOptions,
    anchored?: typeof FULLMATCH,
  ) {
    if (typeof pattern !== "string") {
      throw new PythonCompatError("TypeError", `first argument must be string or compiled pattern`);
    }
    const budget = options?.budget ?? DEFAULT_BUDGET;
    if (!Number.isFinite(budget) || budget < 1) {
      throw new PythonCompatError("ValueError", "options.budget must be a positive finite number");
    }
    this.#budget = budget;
    this.#options = options;
    const parsed = parse(pattern, flags, options?.unicodeName);
    this.groups = parsed.groups;
    this.groupindex = parsed.groupindex;
    const root = resolvePattern(parsed.p, parsed.flags, pattern);
    // fullmatch is a search anchored at both ends (\A … \Z) over the resolved tree, so inline flags,
    // VERBOSE comments and alternation inside the pattern keep their meaning.
    this.#root = anchored === FULLMATCH ? { k: "seq", xs: [{ k: "at", at: "BEGINNING" }, root, { k: "at", at: "END_STRING" }] } : root;
    this.#groupsByBacktracking = emptyLoopCaptures(this.#root);
    let re: RE2JS | undefined;
    let tr: Translation | undefined;
    try {
      const mode = options?.alphabet ?? "auto";
      let alpha: Alphabet | null = null;
      if (mode === "reduced" || (mode === "auto" && directBounds(this.#root) > DIRECT_BOUNDS_LIMIT)) {
        const sets = new Set<Ranges>();
        collectSets(this.#root, sets);
        alpha = buildAlphabet([...sets]);
        if (alpha === null) throw new Untranslatable(); // too many distinct classes: the backtracker
      }
      if (unrolledSize(this.#root) > SOURCE_LIMIT) throw new Untranslatable();
      tr = translate(this.#root, this.groups, alpha);
      re = RE2JS.compile(tr.source, tr.lookbehind ? RE2JS.LOOKBEHINDS : 0);
    } catch (e) {
      // Untranslatable construct, a pattern RE2 refuses (repeat counts above 1000), or one too big for it
      if (!(e instanceof Untranslatable) && !(e instanceof Error)) throw e;
      re = undefined;
      tr = undefined;
    }
    let relaxed: RE2JS | undefined;
    if (tr?.relaxed) {
      try {
        relaxed = RE2JS.compile(tr.relaxed);
      } catch {
        relaxed = undefined; // only a shortcut
      }
    }
    this.#re = re;
    this.#relaxed = relaxed;
    this.#translation = tr;
    this.engine = re === undefined ? "backtrack" : "re2js";
  }

  /** `re.search(pattern, text) is not None`. */
  test(text: string): boolean {
    requireText(text);
    if (this.#re !== undefined) {
      const tr = this.#translation!;
      if (tr.markerKinds === null) return this.#re.test(tr.alphabet === null ? text : blockText(text, tr.alphabet, false).mapped);
      if (this.#relaxed !== undefined && !this.#relaxed.test(text)) return false;
      return this.#re.test(markText(text, tr.markerKinds, false, tr.alphabet).marked);
    }
    return this.#backtrack(text) !== null;
  }

  /** Spans of re2js match `m` as Python's groups, through `at` (subject offset → text offset). */
  #spans(m: ReturnType<RE2JS["matcher"]>, whole: number, at: (k: number) => number): [number, number][] {
    const tr = this.#translation!;
    const spans: [number, number][] = [[at(m.start(whole)), at(m.end(whole))]];
    for (let g = 1; g <= this.groups; g++) {
      const rg = tr.groupMap[g]!;
      spans.push(rg === 0 || m.start(rg) < 0 ? [-1, -1] : [at(m.start(rg)), at(m.end(rg))]);
    }
    return spans;
  }

  /** Python `re.search(pattern, text)`: the leftmost match, groups as Python would set them. */
  search(text: string): PythonMatch | null {
    requireText(text);
    if (this.#groupsByBacktracking) return this.test(text) ? this.#backtrack(text) : null;
    if (this.#re !== undefined) {
      const tr = this.#translation!;
      if (tr.markerKinds === null) {
        if (tr.alphabet !== null) {
          const { mapped, origin } = blockText(text, tr.alphabet, true);
          const m = this.#re.matcher(mapped);
          return m.find()
            ? new Match(
                text,
                this.#spans(m, 0, (k) => origin![k]!),
              )
            : null;
        }
        const m = this.#re.matcher(text);
        return m.find()
          ? new Match(
              text,
              this.#spans(m, 0, (k) => k),
            )
          : null;
      }
      if (this.#relaxed !== undefined && !this.#relaxed.test(text)) return null;
      const { marked, origin } = markText(text, tr.markerKinds, true, tr.alphabet);
      const m = this.#re.matcher(marked);
      return m.find()
        ? new Match(
            text,
            this.#spans(m, 1, (k) => origin![k]!),
          )
        : null;
    }
    return this.#backtrack(text);
  }

  /**
   * Python `re.fullmatch(pattern, text)`: a match of the whole text, or null. Alternatives and repeats are
   * retried until one covers the text, as in Python (`a|ab` fully matches "ab").
   */
  fullmatch(text: string): PythonMatch | null {
    requireText(text);
    this.#fullmatcher ??= new PythonRegex(this.pattern, this.flags, this.#options, FULLMATCH);
    return this.#fullmatcher.search(text);
  }

  /**
   * Python `re.finditer(pattern, text)`: successive non-overlapping matches, left to right. After an
   * empty match the next search starts one character later.
   */
  *finditer(text: string): Generator<PythonMatch> {
    requireText(text);
    const tr = this.#translation;
    if (this.#re !== undefined && tr !== undefined && tr.markerKinds === null && !tr.lookbehind && !this.#groupsByBacktracking) {
      if (tr.alphabet !== null) {
        const { mapped, origin } = blockText(text, tr.alphabet, true);
        const m = this.#re.matcher(mapped);
        while (m.find())
          yield new Match(
            text,
            this.#spans(m, 0, (k) => origin![k]!),
          );
        return;
      }
      const m = this.#re.matcher(text);
      while (m.find())
        yield new Match(
          text,
          this.#spans(m, 0, (k) => k),
        );
      return;
    }
    // general case: search again from the end of the previous match, with the whole text as context
    let from = 0;
    const units = codePointOffsets(text);
    while (from <= units.length - 1) {
      const m = this.#backtrack(text, from);
      if (m === null) return;
      yield m;
      const endCp = units.indexOf(m.end);
      from = m.end === m.start ? endCp + 1 : endCp;
    }
  }

  /** Python `re.findall` for a pattern without groups: the matched strings. */
  findall(text: string): string[] {
    return Array.from(this.finditer(text), (m) => m.group(0)!);
  }

  #backtrack(text: string, fromCp = 0): PythonMatch | null {
    const cps = Array.from(text, (c) => c.codePointAt(0)!);
    const g = this.groups + 1;
    const state: RunState = {
      cps,
      start: new Int32Array(g).fill(-1),
      end: new Int32Array(g).fill(-1),
      steps: 0,
      budget: this.#budget,
      pattern: this.pattern,
    };
    this.#state = state;
    if (this.#matcher === undefined) this.#matcher = compileMatcher(this.#root, () => this.#state!);
    const m = this.#matcher;
    try {
      for (let i = fromCp; i <= cps.length; i++) {
        state.start.fill(-1);
        state.end.fill(-1);
        let end = -1;
        if (
          m(i, (j) => {
            end = j;
            return true;
          })
        ) {
          const offs = codePointOffsets(text);
          const spans: [number, number][] = [[offs[i]!, offs[end]!]];
          for (let k = 1; k < g; k++) {
            spans.push(state.start[k]! < 0 || state.end[k]! < 0 ? [-1, -1] : [offs[state.start[k]!]!, offs[state.end[k]!]!]);
          }
          return new Match(text, spans);
        }
      }
      return null;
    } catch (e) {
      // the step budget, or the JS stack on a very long input (deep continuation chains)
      if (e instanceof BudgetSignal) throw new RegexBudgetExceededError(this.pattern, this.#budget, "steps");
      if (e instanceof RangeError) throw new RegexBudgetExceededError(this.pattern, this.#budget, "depth");
      throw e;
    } finally {
      this.#state = undefined;
    }
  }
}

function requireText(text: unknown): asserts text is string {
  if (typeof text !== "string") throw new PythonCompatError("TypeError", "expected string or bytes-like object");
}

/** UTF-16 offset of every code-point index, plus the total length. */
function codePointOffsets(text: string): number[] {
  const out: number[] = [];
  let u = 0;
  for (const ch of text) {
    out.push(u);
    u += ch.length;
  }
  out.push(u);
  return out;
}

const cache = new Map<string, PythonRegex>();
const CACHE_SIZE = 256;
const resolverIds = new WeakMap<UnicodeNameResolver, number>();
let nextResolverId = 1;

/**
 * `re.compile(pattern, flags)`, cached like Python's own `re` cache (the last 256 patterns per options).
 * Throws `PythonRegexError` (pythonType "re.error") where Python raises `re.error`.
 */
export function compilePython(pattern: string, flags = 0, options?: PythonRegexOptions): PythonRegex {
  if (typeof pattern !== "string") {
    throw new PythonCompatError("TypeError", `first argument must be string or compiled pattern`);
  }
  let resolver = 0;
  const fn = options?.unicodeName;
  if (fn !== undefined) {
    resolver = resolverIds.get(fn) ?? nextResolverId++;
    resolverIds.set(fn, resolver);
  }
  const key = `${flags}:${options?.budget ?? DEFAULT_BUDGET}:${options?.alphabet ?? "auto"}:${resolver}:${pattern}`;
  let p = cache.get(key);
  if (p === undefined) {
    p = new PythonRegex(pattern, flags, options);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, p);
  } else {
    // most recently used last
    cache.delete(key);
    cache.set(key, p);
  }
  return p;
}

/** Python `re.search(pattern, text, flags)`. */
export function pySearch(pattern: string, text: string, flags = 0): PythonMatch | null {
  return compilePython(pattern, flags).search(text);
}
