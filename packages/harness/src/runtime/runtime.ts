// The few host services the runtime-neutral parts (Evaluate, BYOB, settings) need, behind one small
// interface so they never import `node:*` themselves. `src/runtime/node.ts` installs the Node
// implementation (AsyncLocalStorage, process streams, node:fs); other hosts can install their own with
// `setRuntime`. Without one, a fallback keeps working with reduced abilities (documented per field).

/** Carries a value along an asynchronous call tree (AsyncLocalStorage, or TC39 AsyncContext). */
export interface AsyncContextAdapter<T> {
  /** Run `fn` with `value` as the current store; the store follows every await and timer started inside. */
  run<R>(value: T, fn: () => R): R;
  /** The current store, or undefined outside any `run`. */
  get(): T | undefined;
}

/** A text sink (stdout/stderr). */
export interface TextSink {
  write(text: string): void;
  /** True when the sink is an interactive terminal (a live progress bar is drawn only then). */
  readonly isTTY: boolean;
  /** Terminal width in columns, when known. */
  readonly columns?: number | undefined;
}

export interface Runtime {
  readonly name: string;
  createAsyncContext<T>(): AsyncContextAdapter<T>;
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Monotonic milliseconds. */
  now(): number;
}

/**
 * Fallback async context: a synchronous stack. The store is visible during the synchronous part of
 * `fn` only; it is lost after the first `await`. Install a real adapter (Node's is installed by the
 * package entry) for `context()` to reach async workers.
 */
function stackContext<T>(): AsyncContextAdapter<T> {
  const stack: T[] = [];
  return {
    run<R>(value: T, fn: () => R): R {
      stack.push(value);
      try {
        return fn();
      } finally {
        stack.pop();
      }
    },
    get: () => stack[stack.length - 1],
  };
}

const consoleSink = (error: boolean): TextSink => ({
  write(text: string) {
    const t = text.endsWith("\n") ? text.slice(0, -1) : text;
    if (error) console.error(t);
    else console.log(t);
  },
  isTTY: false,
});

const unsupported = (what: string) => (): never => {
  throw new Error(`${what} is not available in this runtime: install a runtime adapter with setRuntime()`);
};

const fallback: Runtime = {
  name: "fallback",
  createAsyncContext: stackContext,
  stdout: consoleSink(false),
  stderr: consoleSink(true),
  readFile: unsupported("readFile"),
  writeFile: unsupported("writeFile"),
  now: () => (typeof performance !== "undefined" ? performance.now() : Date.now()),
};

let current: Runtime = fallback;
const listeners: (() => void)[] = [];

/** The installed runtime. */
export function runtime(): Runtime {
  return current;
}

/** Install a runtime (the package's Node entry does this on import). */
export function setRuntime(next: Runtime): void {
  current = next;
  for (const l of listeners) l();
}

/** Whether `host` carries values along async call trees (the fallback's context ends at the first await). */
export function hasAsyncContext(host: Runtime): boolean {
  return host.createAsyncContext !== stackContext;
}

/** Called whenever a runtime is installed (settings rebuild their async context). */
export function onRuntimeChange(listener: () => void): void {
  listeners.push(listener);
}
