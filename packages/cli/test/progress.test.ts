import { describe, expect, it } from "vitest";
import { createRowProgress, formatDuration } from "../src/progress.js";

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, sink: { isTTY, columns: 90, write: (s: string) => writes.push(s) } };
}

describe("progress", () => {
  it("draws a bar with rows/s and ETA on a terminal, redrawn in place", () => {
    let t = 0;
    const { writes, sink: s } = sink(true);
    const p = createRowProgress({ sink: s, label: "score", now: () => t });
    t = 1000;
    p.update(25_000, 0.25);
    t = 2000;
    p.update(50_000, 0.5);
    p.finish(100_000);
    expect(writes[0]).toMatch(/^\rscore {2}25\.0% \|█+[ ▏▎▍▌▋▊▉]* +\| 25,000 rows · 25,000 rows\/s · ETA 0:03$/);
    expect(writes[1]).toContain("50.0%");
    expect(writes[1]).toContain("ETA 0:02");
    expect(writes[2]).toBe("\r\x1b[2Kscore: 100,000 rows done (50,000 rows/s)\n");
  });

  it("prints plain periodic lines elsewhere", () => {
    let t = 0;
    const { writes, sink: s } = sink(false);
    const p = createRowProgress({ sink: s, label: "score", intervalMs: 5000, now: () => t });
    t = 1000;
    p.update(10, 0.1); // within the interval: nothing
    t = 6000;
    p.update(600, 0.6);
    expect(writes).toEqual(["score: 600 rows (60.0%), 100 rows/s, elapsed 0:06, ETA 0:04\n"]);
    expect(formatDuration(3_725_000)).toBe("1:02:05");
  });
});
