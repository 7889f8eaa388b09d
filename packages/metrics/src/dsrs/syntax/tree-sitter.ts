// Lazy, runtime-neutral loading of web-tree-sitter and its grammars. Nothing here runs at import:
// web-tree-sitter is imported on the first parse, and grammars are located through a hook that
// defaults to `tree-sitter-wasms` under Node (via a Node-only module loaded on demand).
import { GrammarUnavailableError } from "../errors.js";
import { grammarFile, type SyntaxLanguage } from "./languages.js";

// Type-only references: web-tree-sitter is a CommonJS `export =` module, loaded with a dynamic import.
type ParserClass = typeof import("web-tree-sitter");
type ParserInstance = InstanceType<ParserClass>;
export type TreeSitterLanguage = import("web-tree-sitter").Language;
export type SyntaxTree = import("web-tree-sitter").Tree;
export type SyntaxNode = import("web-tree-sitter").SyntaxNode;

/** Where grammars and web-tree-sitter's own `tree-sitter.wasm` come from. */
export interface TreeSitterConfig {
  /**
   * Emscripten's `locateFile` for web-tree-sitter's `tree-sitter.wasm`. Needed in browsers and workers
   * when the file is not next to the script. Only read before the first parse.
   */
  readonly locateFile?: (file: string, scriptDirectory: string) => string;
  /**
   * The grammar of `language` (file name `grammarFile`, e.g. `tree-sitter-rust.wasm`): its bytes, or a
   * path/URL that web-tree-sitter's `Language.load` can read (a file path under Node, a URL elsewhere).
   * Default: under Node, the file from the `tree-sitter-wasms` package.
   */
  readonly loadGrammar?: (
    grammarFile: string,
    language: SyntaxLanguage,
  ) => Promise<Uint8Array | string> | Uint8Array | string;
}

let config: TreeSitterConfig = {};
let parserClass: Promise<ParserClass> | undefined;
let parser: ParserInstance | undefined;
const languages = new Map<SyntaxLanguage, Promise<TreeSitterLanguage>>();
// web-tree-sitter 0.22 links each grammar into one shared WebAssembly table; two `Language.load` calls in
// flight at once mix up their symbols ("bad export type for 'tree_sitter_rust_external_scanner_create'").
// Loads are therefore serialised through this chain.
let loadChain: Promise<unknown> = Promise.resolve();

/**
 * Configure where web-tree-sitter and the grammars are loaded from (browsers, workers, Deno without
 * `node_modules`). Grammars already loaded stay loaded; `locateFile` only matters before the first parse.
 *
 * @example
 * configureTreeSitter({
 *   locateFile: (file) => `/assets/${file}`,
 *   loadGrammar: async (file) => new Uint8Array(await (await fetch(`/assets/${file}`)).arrayBuffer()),
 * });
 */
export function configureTreeSitter(next: TreeSitterConfig): void {
  config = { ...config, ...next };
}

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof proc?.versions?.node === "string";
}

async function loadParserClass(): Promise<ParserClass> {
  const module = (await import("web-tree-sitter")) as unknown as { default?: ParserClass } & ParserClass;
  const Parser = module.default ?? module;
  await Parser.init(config.locateFile ? { locateFile: config.locateFile } : undefined);
  return Parser;
}

async function defaultGrammar(file: string, language: SyntaxLanguage): Promise<string> {
  if (!isNode()) {
    throw new GrammarUnavailableError(
      language,
      `no default location for ${file} outside Node: call configureTreeSitter({ loadGrammar }) first`,
    );
  }
  const { nodeGrammarPath } = await import("./node-grammars.js");
  return nodeGrammarPath(file);
}

async function loadLanguage(language: SyntaxLanguage): Promise<TreeSitterLanguage> {
  const Parser = await getParserClass();
  const file = grammarFile(language);
  try {
    const source = config.loadGrammar ? await config.loadGrammar(file, language) : await defaultGrammar(file, language);
    const load = loadChain.then(() => Parser.Language.load(source));
    loadChain = load.catch(() => undefined);
    return await load;
  } catch (error) {
    if (GrammarUnavailableError.isInstance(error)) throw error;
    throw new GrammarUnavailableError(language, `could not load the ${language} grammar (${file}): ${String(error)}`, {
      cause: error,
    });
  }
}

function getParserClass(): Promise<ParserClass> {
  parserClass ??= loadParserClass().catch((error: unknown) => {
    parserClass = undefined;
    throw new GrammarUnavailableError("*", `could not initialise web-tree-sitter: ${String(error)}`, { cause: error });
  });
  return parserClass;
}

/** The loaded grammar of `language` (cached; a failed load is retried on the next call). */
export function getLanguage(language: SyntaxLanguage): Promise<TreeSitterLanguage> {
  let pending = languages.get(language);
  if (pending === undefined) {
    pending = loadLanguage(language);
    pending.catch(() => languages.delete(language));
    languages.set(language, pending);
  }
  return pending;
}

/**
 * Load web-tree-sitter and the grammars of `names` ahead of time, so the first evaluation does not pay
 * for it.
 */
export async function preloadLanguages(names: readonly SyntaxLanguage[]): Promise<void> {
  await Promise.all(names.map((name) => getLanguage(name)));
}

/**
 * Parse `code` and hand the tree to `use`; the tree is freed afterwards. Parsing is synchronous once
 * the grammar is loaded, so one shared parser is safe.
 */
export async function withTree<T>(code: string, language: SyntaxLanguage, use: (tree: SyntaxTree) => T): Promise<T> {
  const grammar = await getLanguage(language);
  const Parser = await getParserClass();
  parser ??= new Parser();
  parser.setLanguage(grammar);
  const tree = parser.parse(code);
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
