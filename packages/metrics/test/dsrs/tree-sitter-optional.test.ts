// tree-sitter is an optional peer dependency of @evalkern/metrics: without web-tree-sitter or
// tree-sitter-wasms, the first parse throws a typed error that names what to install; with them, parsing
// works as before. The missing packages are simulated with loaders that fail exactly as Node does.
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkSyntax,
  configureTreeSitter,
  GrammarUnavailableError,
  TREE_SITTER_INSTALL,
  TreeSitterNotInstalledError,
} from "../../src/dsrs/index.js";
import { EvalkernError } from "../../src/index.js";
import { nodeGrammarPath } from "../../src/dsrs/syntax/node-grammars.js";
import { resetParserClass } from "../../src/dsrs/syntax/tree-sitter.js";

const require = createRequire(import.meta.url);

afterAll(() => {
  configureTreeSitter({ loadWebTreeSitter: undefined });
  resetParserClass();
});

describe("tree-sitter is optional", () => {
  it("a missing web-tree-sitter is TreeSitterNotInstalledError naming the install command", async () => {
    resetParserClass();
    // Node's own failure for a package that is not installed (MODULE_NOT_FOUND)
    configureTreeSitter({ loadWebTreeSitter: async () => require("web-tree-sitter-not-installed-here") as unknown });
    const error = await checkSyntax("fn main() {}", "rust").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TreeSitterNotInstalledError);
    expect(error).toBeInstanceOf(GrammarUnavailableError);
    expect(error).toBeInstanceOf(EvalkernError);
    const e = error as TreeSitterNotInstalledError;
    expect(e.code).toBe("TREE_SITTER_NOT_INSTALLED");
    expect(e.missing).toBe("web-tree-sitter");
    expect(e.install).toBe("npm i web-tree-sitter tree-sitter-wasms");
    expect(e.message).toContain("npm i web-tree-sitter tree-sitter-wasms");
    expect((e.cause as { code?: string }).code).toBe("MODULE_NOT_FOUND");
    expect(TREE_SITTER_INSTALL).toBe("npm i web-tree-sitter tree-sitter-wasms");
  });

  it("other loader failures stay GrammarUnavailableError", async () => {
    resetParserClass();
    configureTreeSitter({ loadWebTreeSitter: async () => Promise.reject(new Error("boom")) });
    const error = await checkSyntax("fn main() {}", "rust").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammarUnavailableError);
    expect(error).not.toBeInstanceOf(TreeSitterNotInstalledError);
  });

  it("a missing tree-sitter-wasms is TreeSitterNotInstalledError too", () => {
    const failing = (id: string): string => require.resolve(id.replace("tree-sitter-wasms", "tree-sitter-wasms-not-installed-here"));
    let error: unknown;
    try {
      nodeGrammarPath("tree-sitter-rust.wasm", failing);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TreeSitterNotInstalledError);
    expect((error as TreeSitterNotInstalledError).missing).toBe("tree-sitter-wasms");
    expect((error as Error).message).toContain(TREE_SITTER_INSTALL);
    // installed (a dev dependency here): the real path
    expect(nodeGrammarPath("tree-sitter-rust.wasm")).toMatch(/tree-sitter-wasms[\\/]out[\\/]tree-sitter-rust\.wasm$/);
  });

  it("with both installed, parsing works (default loader)", async () => {
    configureTreeSitter({ loadWebTreeSitter: undefined });
    resetParserClass();
    expect(await checkSyntax("fn main() {}", "rust")).toBeUndefined();
    expect(await checkSyntax("fn main( {}", "rust")).toBeDefined();
  });
});
