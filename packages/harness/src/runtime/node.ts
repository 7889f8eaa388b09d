// The Node implementation of the runtime adapter: AsyncLocalStorage for `context()`, process streams
// for progress and tables, node:fs for dataset loading and result files.
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import type { AsyncContextAdapter, Runtime, TextSink } from "./runtime.js";

function sink(stream: NodeJS.WriteStream): TextSink {
  return {
    write: (text) => void stream.write(text),
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
  };
}

export const nodeRuntime: Runtime = {
  name: "node",
  createAsyncContext<T>(): AsyncContextAdapter<T> {
    const als = new AsyncLocalStorage<T>();
    return { run: (value, fn) => als.run(value, fn), get: () => als.getStore() };
  },
  stdout: sink(process.stdout),
  stderr: sink(process.stderr),
  readFile: async (path) => new Uint8Array(await readFile(path)),
  async writeFile(path, data) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
  },
  now: () => performance.now(),
};
