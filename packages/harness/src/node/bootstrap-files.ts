// Resampling straight from statistics files (f32 rows [valid, ...statistics]) written by scoreFile: one
// pass over the files per task, read in blocks, so memory stays bounded whatever the number of rows.
import { closeSync, openSync, readSync } from "node:fs";
import { bootstrapSumsOf, forEachRowOf, type ResampleRange } from "../bulk/statistics-core.js";

/** A resampling task over statistics files: a `ResampleRange` and the files it reads. */
export interface BootstrapTask extends ResampleRange {
  /** Statistics files of the system, in row order (several for merged shards). */
  readonly files: readonly string[];
  /** Statistics files of a second system (paired test), same rows. */
  readonly pairedFiles?: readonly string[];
}

/** f32 rows from a list of files, as one stream of blocks of whole rows. */
export function* fileRows(files: readonly string[], rowWidth: number, blockRows = 8192): Generator<Float32Array> {
  const rowBytes = rowWidth * 4;
  const buf = new Uint8Array(blockRows * rowBytes);
  let fill = 0;
  for (const file of files) {
    const fd = openSync(file, "r");
    try {
      let pos = 0;
      for (;;) {
        const got = readSync(fd, buf, fill, buf.length - fill, pos);
        if (got === 0) break;
        pos += got;
        fill += got;
        if (fill === buf.length) {
          yield new Float32Array(buf.buffer, 0, fill / 4);
          fill = 0;
        }
      }
    } finally {
      closeSync(fd);
    }
  }
  const whole = fill - (fill % rowBytes);
  if (whole > 0) yield new Float32Array(buf.buffer, 0, whole / 4);
}

/**
 * Visit every record of one or two row streams in order: `visit(a, atA, b, atB, record)`, where `atX`
 * is the offset of the record's row (its validity flag) in the current block.
 */
export function forEachRow(
  files: readonly string[],
  pairedFiles: readonly string[] | undefined,
  rowWidth: number,
  visit: (a: Float32Array, atA: number, b: Float32Array | undefined, atB: number, record: number) => void,
): number {
  return forEachRowOf(fileRows(files, rowWidth), pairedFiles ? fileRows(pairedFiles, rowWidth) : undefined, rowWidth, visit);
}

/** Summed gathered columns of resamples [from, to): groups × (to − from) × columns (× 2 when paired). */
export function bootstrapSums(task: BootstrapTask): Float64Array {
  return bootstrapSumsOf(
    fileRows(task.files, task.rowWidth),
    task.pairedFiles ? fileRows(task.pairedFiles, task.rowWidth) : undefined,
    task,
  );
}
