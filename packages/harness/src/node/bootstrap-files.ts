// Resampling straight from statistics files (f32 rows [valid, ...stats]) written by scoreFile, read in
// blocks so memory stays bounded whatever the number of rows.
import { closeSync, openSync, readSync } from "node:fs";
import { resampleSums, type RowBlocks } from "../bulk/bootstrap.js";

export interface BootstrapTask {
  /** Statistics files of the system, in row order (several for merged shards). */
  readonly files: readonly string[];
  /** Statistics files of a second system (paired test), same rows. */
  readonly pairedFiles?: readonly string[];
  readonly rowWidth: number;
  /** Usable rows (valid, in both systems when paired). */
  readonly n: number;
  readonly seed: number;
  readonly from: number;
  readonly to: number;
}

/** Rows from a list of f32 files, as one stream. */
export function fileRows(files: readonly string[], rowWidth: number): RowBlocks {
  return {
    rowWidth,
    *blocks(blockRows: number) {
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
              yield new Float32Array(buf.slice().buffer);
              fill = 0;
            }
          }
        } finally {
          closeSync(fd);
        }
      }
      const whole = fill - (fill % rowBytes);
      if (whole > 0) yield new Float32Array(buf.slice(0, whole).buffer);
    },
  };
}

export async function bootstrapSums(task: BootstrapTask): Promise<Float64Array> {
  const sources = [fileRows(task.files, task.rowWidth)];
  if (task.pairedFiles) sources.push(fileRows(task.pairedFiles, task.rowWidth));
  return resampleSums(sources, task.n, task.seed, task.from, task.to);
}
