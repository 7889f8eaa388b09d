// Plain-text tables for the terminal: columns padded to their widest cell, numbers right-aligned.

export interface TableOptions {
  /** Per column: "l" (default) or "r". */
  readonly align?: readonly ("l" | "r")[];
  /** Indent of every line. */
  readonly indent?: string;
}

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const indent = options.indent ?? "";
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, c) => (options.align?.[c] === "r" ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd();
  const rule = indent + widths.map((w) => "─".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/**
 * A score at its scale: 0–100 scores with `width` decimals (default 2), 0–1 scores with two more (the
 * same precision of the underlying number).
 */
export function formatScore(value: number | null | undefined, scale: number, width = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return value.toFixed(scale === 100 ? width : width + 2);
}
