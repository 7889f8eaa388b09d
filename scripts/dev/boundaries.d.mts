// Types of boundaries.mjs (the workspace's layering and import-circle checks).
export declare const LAYERS: Readonly<Record<"core-wasm" | "metrics" | "judge" | "harness" | "vitest" | "cli" | "web", readonly string[]>>;
export declare function sourceFiles(dir: string): string[];
export declare function stripComments(text: string): string;
export declare function layeringViolations(pkg: string, root: string, code: string, file: string): string[];
export declare function checkLayering(pkg: string, root: string): string[];
export declare function relativeImports(code: string): string[];
export declare function importCycles(root: string): string[];
