// How every benchmark measures a command: a child process under GNU time (`/usr/bin/time`), whose CPU is
// user + system of the process, all its threads and the children it waited for, and peak RSS of the largest.
// The figures go to a file of their own (`-o`), so a command's stderr never mixes with them.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let runs = 0;

/**
 * Runs `argv` under `/usr/bin/time`: `{ status, wallS, cpuS, rssMiB, stdout, stderr }`; the figures are NaN
 * when the command did not start. `stdout: "ignore"` drops the command's output instead of collecting it.
 */
export function timeCommand(argv, { cwd, env, stdout = "pipe" } = {}) {
  const file = join(tmpdir(), `evalkern-bench-time-${process.pid}-${runs++}.txt`);
  const r = spawnSync("/usr/bin/time", ["-o", file, "-f", "%e %U %S %M", ...argv], {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", stdout, "pipe"],
  });
  let figures = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
  try {
    figures = readFileSync(file, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
  } catch {
    // no figures: /usr/bin/time itself did not run
  }
  rmSync(file, { force: true });
  const [wallS, user, sys, rssKiB] = figures;
  const stderr = r.stderr ?? r.error?.message ?? "";
  return { status: r.status, wallS, cpuS: user + sys, rssMiB: rssKiB / 1024, stdout: r.stdout ?? "", stderr };
}
