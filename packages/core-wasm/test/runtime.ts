// Which runtime is executing the tests. The cross-runtime rig (scripts/test-all.mjs) sets
// EVALKERN_TEST_RUNTIME to "node", "deno" or "browser" for each suite, so a test can check that the
// runtime it claims to run in is the one actually executing it (a suite that silently fell back to
// Node would otherwise pass unnoticed).
type Runtime = "node" | "deno" | "browser";

interface DenoGlobal {
  readonly version: { readonly deno: string; readonly v8: string };
  execPath(): string;
  env: { get(name: string): string | undefined };
}

const g = globalThis as {
  Deno?: DenoGlobal;
  process?: {
    versions?: { node?: string; v8?: string };
    env?: Record<string, string | undefined>;
    execPath?: string;
    pid?: number;
  };
  navigator?: { userAgent?: string };
  document?: unknown;
  __EVALKERN_TEST_RUNTIME__?: string;
};

/** The runtime detected from globals (Deno first: it also defines `process`). */
export function detectedRuntime(): Runtime {
  if (typeof g.Deno !== "undefined") return "deno";
  if (typeof g.document !== "undefined") return "browser";
  return "node";
}

/** The runtime the rig says it started, or undefined when the tests were started by hand. */
export function expectedRuntime(): Runtime | undefined {
  // In the browser there is no process.env; the browser config `define`s this global instead.
  const raw = (globalThis as { __EVALKERN_TEST_RUNTIME__?: string }).__EVALKERN_TEST_RUNTIME__ ?? g.process?.env?.EVALKERN_TEST_RUNTIME;
  return raw === "node" || raw === "deno" || raw === "browser" ? raw : undefined;
}

/** A one-line description for logs, e.g. "deno 2.9.6 (v8 15.0.245.2-rusty, /path/to/deno, pid 123)". */
export function runtimeDescription(): string {
  switch (detectedRuntime()) {
    case "deno":
      return `deno ${g.Deno!.version.deno} (v8 ${g.Deno!.version.v8}, ${g.Deno!.execPath()}, pid ${g.process?.pid})`;
    case "browser":
      return `browser ${g.navigator?.userAgent ?? "unknown"}`;
    default:
      return `node ${g.process?.versions?.node} (v8 ${g.process?.versions?.v8}, ${g.process?.execPath}, pid ${g.process?.pid})`;
  }
}
