// Where the CPU of the cluster producer goes, from `perf record -e cpu-clock -g` of the producer process
// (node run with --perf-basic-prof, so JIT frames have names): perf samples only on-CPU time, every
// thread, kernel included, so on a loaded machine the buckets are CPU seconds, not walls. Each sample is
// put in the bucket of the deepest frame of its stack that names one; memcpy and allocation frames go to
// the caller's bucket, GC (main thread or V8's helper threads) to its own. Used by `queue.bench.mjs --perf`.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

/** An alternation of regex sources, each a way a frame's symbol may look. */
const any = (...alts) => new RegExp(alts.join("|"));

/** [bucket, pattern of one frame's symbol]: the deepest frame that matches a rule names the sample's bucket. */
const RULES = [
  [
    "GC",
    any(
      "v8::internal::(Heap|Scavenger|MarkCompact|ConcurrentMarking|IncrementalMarking|MinorMarkCompact|Sweeper|GCTracer)",
      "ScavengeJob",
      "MemoryAllocator",
      "Unmapper",
    ),
  ],
  ["hash", any("sha256_block", "Hash::HashUpdate", "HashDigest")], // split by its caller below
  ["checkpoints, fsync", any("JS:\\S*(writeCheckpoint|syncFile|writeFileAtomic) ")],
  ["output + statistics writes", any("JS:\\S*(writeAt|append) .*/checkpoint\\.js")],
  ["result frames: decode", any("JS:\\S*(decodeResult|decodeSums|unframe) ")],
  [
    "bootstrap super-blocks (stats read back, payloads)",
    any("JS:\\S*(superBlock|superBlockRows|encodeSuperBlock|fileRows|corpusResults|bootstrapCiOf|frame) "),
  ],
  ["input: read, cut", any("JS:\\S*(readBlocks|push|linesAfterFirst|countNewlines) .*(pipeline|cutter|records|producer)\\.js")],
  [
    "Redis receive (RESP parse, reply buffers)",
    any("DataHandler", "/resp/", "JS:\\S*(execute|returnReply) .*ioredis", "OnUvRead", "uv__read", "skb_datagram", "tcp_recvmsg"),
  ],
  [
    "Redis send (commands, socket writes)",
    any("JS:\\S*(sendCommand|toWritable|execPipeline|exec) .*ioredis", "uv__write", "WriteGeneric", "writeUtf8String", "tcp_sendmsg"),
  ],
  ["file writes (kernel)", any("ext4_", "generic_perform_write", "vfs_fsync", "file_write_and_wait")],
  ["BullMQ (jobs, events, state polls)", any("bullmq")],
  [
    "start-up (module loading, compiling)",
    any(
      "node:internal/(modules|bootstrap|main)",
      "esm/",
      "cjs/loader",
      "_dl_",
      "InitializeOncePerProcess",
      "v8::internal::Compiler::Compile",
    ),
  ],
  [
    "memory: malloc, page faults of big buffers",
    any("^(_int_malloc|malloc|_int_free|free|unlink_chunk|exc_page_fault|do_anonymous_page|unmap_page_range)\\b"),
  ],
];

/** Which bytes a hash sample was hashing, from the JS frames above it. */
function hashBucket(frames) {
  for (const f of frames) {
    if (/JS:\S*sha256Hex /.test(f)) return "hash: input, per-chunk sha256 (job's shared range)";
    if (/JS:\S*append .*checkpoint\.js/.test(f)) return "hash: output + statistics (checkpoint)";
    if (/JS:\S*(push|onBytes) .*(cutter|pipeline)\.js/.test(f)) return "hash: input, content hash (checkpoint)";
  }
  return "hash: other";
}

/**
 * Buckets of a perf.data file: Map bucket → seconds (sample period × samples); the perf-<pid>.map files of
 * its processes are removed once read. The main thread is the process's pid; other threads are V8's
 * GC/compiler helpers or libuv's pool.
 */
export function producerBuckets(perfData) {
  const r = spawnSync("perf", ["script", "-i", perfData, "-F", "pid,tid,period,ip,sym"], { encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`perf script failed: ${r.stderr}`);
  const out = new Map();
  const add = (b, ns) => out.set(b, (out.get(b) ?? 0) + ns / 1e9);
  for (const sample of r.stdout.split("\n\n")) {
    const lines = sample.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    const head = /^\s*\S+\s+(\d+)\/(\d+)\s+(\d+)/.exec(lines[0]) ?? /^\s*(\d+)\/(\d+)\s+(\d+)/.exec(lines[0]);
    if (!head) continue;
    const [, pid, tid, period] = head;
    const frames = lines.slice(1).map((l) => l.trim().replace(/^[0-9a-f]+\s+/, ""));
    let bucket;
    for (const f of frames) {
      bucket = RULES.find(([, re]) => re.test(f))?.[0];
      if (bucket === "hash") bucket = hashBucket(frames);
      if (bucket) break;
    }
    if (!bucket && pid !== tid)
      bucket = frames.some((f) => /Compile|Turbofan|Maglev/.test(f)) ? "JIT compiler threads" : "other threads (libuv pool)";
    add(bucket ?? "other", Number(period));
  }
  // the JIT symbol maps that --perf-basic-prof left in /tmp are read: remove them
  const pids = new Set([...r.stdout.matchAll(/^\s*(\d+)\//gm)].map((m) => m[1]));
  for (const pid of pids) rmSync(`/tmp/perf-${pid}.map`, { force: true });
  return out;
}
