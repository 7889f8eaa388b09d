// `--fail-under name=value[,name=value]` of `evalkern score` (corpus scores as printed: bleu=30, chrf=50,
// rougeL=0.4) and `evalkern judge` (pass rate of a judge metric: faithfulness=0.8): exit 1 when a score is
// below its floor, with one line per metric saying which and by how much.
import { didYouMean } from "@evalkern/metrics/registry";
import { usageError } from "./errors.js";

export type Floors = ReadonlyMap<string, number>;

/** Parse the flag's value (a malformed entry is a usage error). */
export function parseFloors(spec: string, flag = "--fail-under"): Floors {
  const floors = new Map<string, number>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(part);
    const value = m ? Number(m[2]) : Number.NaN;
    if (!m || !Number.isFinite(value)) throw usageError(`${flag} ${JSON.stringify(part)}: give name=number, e.g. ${flag} bleu=30,chrf=50`);
    if (floors.has(m[1]!)) throw usageError(`${flag}: ${m[1]} is given twice`);
    floors.set(m[1]!, value);
  }
  if (floors.size === 0) throw usageError(`${flag}: give name=number, e.g. ${flag} bleu=30,chrf=50`);
  return floors;
}

/** Refuse floor names that are not among `known` (a usage error with the closest name). */
export function checkFloorNames(floors: Floors, known: readonly string[], what: string, flag = "--fail-under"): void {
  for (const name of floors.keys()) {
    if (known.includes(name)) continue;
    const hint = didYouMean(name, known);
    throw usageError(
      `${flag}: no ${what} named ${JSON.stringify(name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; ` +
        `known: ${known.join(", ")}`,
    );
  }
}

/**
 * The lines of the floors not reached by `values` (empty when every floor is reached). A value that is
 * missing (no row scored) counts as below its floor: a gate never passes on nothing.
 */
export function floorFailures(
  floors: Floors,
  values: Readonly<Record<string, number | null | undefined>>,
  what: string,
  flag = "--fail-under",
): string[] {
  const out: string[] = [];
  for (const [name, floor] of floors) {
    const v = values[name];
    if (v === null || v === undefined || !Number.isFinite(v)) out.push(`${flag}: ${name} has no ${what} (floor ${floor})`);
    else if (v < floor) out.push(`${flag}: ${name} ${what} ${round(v)} is below its floor ${floor} by ${round(floor - v)}`);
  }
  return out;
}

const round = (x: number) => String(Number(x.toPrecision(6)));

/**
 * The exit code of `evalkern score --fail-under` after the summary: 0 when every corpus score (the keys the
 * table prints, on their printed scale) reaches its floor, 1 otherwise (one line per metric on `stderr`).
 */
export function gateCorpusScores(
  floors: Floors | undefined,
  metrics: readonly { readonly corpus: Readonly<Record<string, number>> }[],
  stderr: { write(text: string): unknown },
): number {
  if (!floors) return 0;
  const values: Record<string, number> = Object.assign({}, ...metrics.map((m) => m.corpus));
  checkFloorNames(floors, Object.keys(values), "corpus score");
  const lines = floorFailures(floors, values, "corpus score");
  if (lines.length) stderr.write(`${lines.join("\n")}\n`);
  return lines.length ? 1 : 0;
}
