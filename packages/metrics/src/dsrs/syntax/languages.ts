// The languages `SyntaxMetric` and `DiffMetric` ("AstEquivalent") parse with tree-sitter grammars from
// `tree-sitter-wasms`, and the names that select them.

/** The canonical names of the languages with a real parser. */
export const SYNTAX_LANGUAGES = [
  "json",
  "javascript",
  "typescript",
  "tsx",
  "python",
  "rust",
  "go",
  "java",
  "c",
  "cpp",
  "csharp",
  "ruby",
  "bash",
  "php",
  "kotlin",
  "swift",
  "scala",
  "toml",
  "css",
  "zig",
] as const;

export type SyntaxLanguage = (typeof SYNTAX_LANGUAGES)[number];

const ALIASES: Readonly<Record<string, SyntaxLanguage>> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  ecmascript: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  py: "python",
  python3: "python",
  rs: "rust",
  golang: "go",
  h: "c",
  "c++": "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  "c#": "csharp",
  c_sharp: "csharp",
  rb: "ruby",
  sh: "bash",
  shell: "bash",
  kt: "kotlin",
  kts: "kotlin",
};

/** Human names for messages. */
export const LANGUAGE_LABELS: Readonly<Record<SyntaxLanguage, string>> = {
  json: "JSON",
  javascript: "JavaScript",
  typescript: "TypeScript",
  tsx: "TSX",
  python: "Python",
  rust: "Rust",
  go: "Go",
  java: "Java",
  c: "C",
  cpp: "C++",
  csharp: "C#",
  ruby: "Ruby",
  bash: "Bash",
  php: "PHP",
  kotlin: "Kotlin",
  swift: "Swift",
  scala: "Scala",
  toml: "TOML",
  css: "CSS",
  zig: "Zig",
};

/** The grammar file of each language inside `tree-sitter-wasms/out/`. */
export function grammarFile(language: SyntaxLanguage): string {
  return `tree-sitter-${language === "csharp" ? "c_sharp" : language}.wasm`;
}

/**
 * The canonical language for a name or alias (case-insensitive, surrounding whitespace ignored), or
 * `undefined` when evalkern has no parser for it.
 *
 * @example
 * resolveLanguage("TS");    // "typescript"
 * resolveLanguage("cobol"); // undefined
 */
export function resolveLanguage(name: string | undefined): SyntaxLanguage | undefined {
  if (typeof name !== "string") return undefined;
  const key = name.trim().toLowerCase();
  if ((SYNTAX_LANGUAGES as readonly string[]).includes(key)) return key as SyntaxLanguage;
  return ALIASES[key];
}
