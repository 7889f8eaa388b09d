// The Node implementation of the runtime adapter: AsyncLocalStorage for `context()`, process streams
// for progress and tables, node:fs for dataset loading and result files.
import { AsyncLocalStorage } from "node:async_hooks";
import { readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { fileSystemError, makeDirectory } from "../node/files.js";
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
    makeDirectory(dirname(path)); // not mkdir -p: Node's loops forever under /proc
    try {
      await writeFile(path, data);
    } catch (e) {
      throw fileSystemError(e, "write", path);
    }
  },
  now: () => performance.now(),
};
