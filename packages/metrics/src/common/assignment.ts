// Maximum-weight assignment of a rectangular matrix (Hungarian algorithm with potentials, O(n²m)):
// ListContains pairs each output item with at most one expected item so the summed similarity is
// largest, as autoevals does with the `linear-sum-assignment` package.

/**
 * For each row, the column it is assigned to (or -1), maximising the sum of `weights[row][col]` over
 * assigned pairs, with min(rows, cols) pairs. Ties may be broken differently from other solvers; the
 * optimal total is the same.
 */
export function maxWeightAssignment(weights: readonly (readonly number[])[]): Int32Array {
  const rows = weights.length;
  const cols = rows === 0 ? 0 : weights[0]!.length;
  const transpose = rows > cols;
  const n = transpose ? cols : rows; // n <= m
  const m = transpose ? rows : cols;
  // minimise cost = -weight, 1-based as in the classic formulation
  const cost = (i: number, j: number): number => -(transpose ? weights[j - 1]![i - 1]! : weights[i - 1]![j - 1]!);
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // p[j]: row assigned to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost(i0, j) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else {
          minv[j] = minv[j]! - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowToCol = new Int32Array(rows).fill(-1);
  for (let j = 1; j <= m; j++) {
    if (p[j] === 0) continue;
    if (transpose) rowToCol[j - 1] = p[j]! - 1;
    else rowToCol[p[j]! - 1] = j - 1;
  }
  return rowToCol;
}
