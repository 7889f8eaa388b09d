// Lazy, runtime-neutral loading of web-tree-sitter and its grammars. Nothing here runs at import:
// web-tree-sitter is imported on the first parse, and grammars are located through a hook that
// defaults to `tree-sitter-wasms` under Node (via a Node-only module loaded on demand). Both packages are
// optional peer dependencies of @evalkern/metrics: when one is missing, the first parse throws
// `TreeSitterNotInstalledError` naming what to install.
import { GrammarUnavailableError, TreeSitterNotInstalledError } from "../errors.js";
import { grammarFile, type SyntaxLanguage } from "./languages.js";
import { treeSitterConfig as cfg } from "./tree-sitter-config.js";

// Type-only references: web-tree-sitter is a CommonJS `export =` module, loaded with a dynamic import.
type ParserClass = typeof import("web-tree-sitter");
type ParserInstance = InstanceType<ParserClass>;
export type TreeSitterLanguage = import("web-tree-sitter").Language;
export type SyntaxTree = import("web-tree-sitter").Tree;
export type SyntaxNode = import("web-tree-sitter").SyntaxNode;

let parserClass: Promise<ParserClass> | undefined;
let parser: ParserInstance | undefined;
const languages = new Map<SyntaxLanguage, Promise<TreeSitterLanguage>>();
// web-tree-sitter 0.22 links each grammar into one shared WebAssembly table; two `Language.load` calls in
// flight at once mix up their symbols ("bad export type for 'tree_sitter_rust_external_scanner_create'").
// Loads are therefore serialised through this chain.
let loadChain: Promise<unknown> = Promise.resolve();

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof proc?.versions?.node === "string";
}

/** Node's "module not found" (ESM `import()` and CommonJS `require.resolve`). */
export function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

async function loadParserClass(): Promise<ParserClass> {
  const config = cfg();
  let module: { default?: ParserClass } & ParserClass;
  try {
    module = (await (config.loadWebTreeSitter ?? (() => import("web-tree-sitter")))()) as { default?: ParserClass } & ParserClass;
  } catch (error) {
    if (isModuleNotFound(error)) throw new TreeSitterNotInstalledError("web-tree-sitter", { cause: error });
    throw error;
  }
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
    const loadGrammar = cfg().loadGrammar;
    const source = loadGrammar ? await loadGrammar(file, language) : await defaultGrammar(file, language);
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
    if (GrammarUnavailableError.isInstance(error)) throw error;
    throw new GrammarUnavailableError("*", `could not initialise web-tree-sitter: ${String(error)}`, { cause: error });
  });
  return parserClass;
}

/** Forget the loaded parser class (after `configureTreeSitter({ loadWebTreeSitter })`). */
export function resetParserClass(): void {
  parserClass = undefined;
  parser = undefined;
  languages.clear();
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
