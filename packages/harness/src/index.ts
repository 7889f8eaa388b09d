/**
 * @evalkern/harness: DSPy-style `Evaluate`, NeMo BYOB benchmarks over OpenAI-compatible endpoints, and
 * bulk scoring of huge JSONL/CSV files on all cores with resumable checkpoints, exact corpus statistics,
 * shards and bootstrap confidence intervals. This entry is for Node (it installs the Node runtime
 * adapter: AsyncLocalStorage, process streams, node:fs, worker_threads).
 */
import { nodeRuntime } from "./runtime/node.js";
import { setRuntime } from "./runtime/runtime.js";

setRuntime(nodeRuntime);

export * from "./common.js";
export * from "./bulk-node.js";
export * from "./suite/index.js";
