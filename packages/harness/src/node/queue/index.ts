/**
 * @evalkern/harness/queue: bulk scoring on a cluster through a BullMQ queue on Redis. The producer
 * (`scoreFileDistributed`) writes exactly what `scoreFile` writes on one machine; workers (`runWorker`)
 * on any machines that reach the Redis score the chunks with the same per-chunk code.
 */
import { nodeRuntime } from "../../runtime/node.js";
import { setRuntime } from "../../runtime/runtime.js";

setRuntime(nodeRuntime);

export { scoreFileDistributed, type DistributedScoreOptions, type QueueProgress } from "./producer.js";
export { runWorker, validateRemoteConfig, type RunWorkerOptions, type QueueWorker } from "./worker.js";
export { parseQueueUrl, checkRunName, DEFAULT_QUEUE_NAME, DEFAULT_PREFIX, type QueueConnection } from "./wire.js";
export { QueueConnectionError, ChunkFailedError, QueueJobRejectedError, QueueEngineNotInstalledError } from "../../errors.js";
