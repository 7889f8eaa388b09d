// Types of index.mjs (the reader of testdata/: golden files and the pair generator).
export declare const TESTDATA_DIR: string;
export declare const GOLDEN_DIR: string;
export declare const MAKE_PAIRS: string;
export declare function goldenStoredPath(name: string): string;
export declare function readGoldenText(name: string): string;
export declare function readGoldenLines(name: string): string[];
export declare function readGoldenJsonl<T = Record<string, unknown>>(name: string): T[];
export declare function goldenFileIn(dir: string, name: string): string;
