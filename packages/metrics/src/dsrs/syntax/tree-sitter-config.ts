// The public configuration of tree-sitter loading, apart from the loader itself so that the declarations
// users see never name web-tree-sitter's types (it is an optional peer dependency).
import type { SyntaxLanguage } from "./languages.js";

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
  readonly loadGrammar?: (grammarFile: string, language: SyntaxLanguage) => Promise<Uint8Array | string> | Uint8Array | string;
  /**
   * How to import web-tree-sitter (default: `import("web-tree-sitter")`), for bundlers that provide the
   * module themselves. Only read before the first parse.
   */
  readonly loadWebTreeSitter?: () => Promise<unknown>;
}

let config: TreeSitterConfig = {};

/** The current configuration (read by the loader). */
export const treeSitterConfig = (): TreeSitterConfig => config;

/**
 * Configure where web-tree-sitter and the grammars are loaded from (browsers, workers, Deno without
 * `node_modules`). Grammars already loaded stay loaded; `locateFile` and `loadWebTreeSitter` only matter
 * before the first parse.
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
