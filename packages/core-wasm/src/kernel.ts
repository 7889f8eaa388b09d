// Loading the WebAssembly module and moving batches across the boundary.
//
// One async `ready()` compiles and instantiates the inlined module once; everything after it is
// synchronous. Inputs go in as UTF-8 written with `TextEncoder.encodeInto` straight into the module's
// I/O region, plus u32 offset tables; results come back as f64s. One boundary crossing per batch (or
// per chunk of a huge batch).
import {
  EvalkernError,
  InputTooLargeError,
  InvalidArgumentError,
  KernelAbortError,
  NotReadyError,
  OutOfMemoryError,
  describe,
} from "./errors.js";
import { INPUT_LIMITS, checkPairSizes } from "./limits.js";
import { WASM_BASE64 } from "./wasm.generated.js";
import { wasmExports, type PairCallName, type WasmExports } from "./wasm-exports.js";

let modulePromise: Promise<WebAssembly.Module> | undefined;
let readyPromise: Promise<void> | undefined;
let exportsRef: WasmExports | undefined;
/** The compiled module of the current instance: a fresh instance of it is cheap (no compilation). */
let moduleRef: WebAssembly.Module | undefined;

/**
 * After a call, a memory that grew past this (by an unusually large input) is given back: the module
 * is instantiated afresh from the compiled module, so memory use returns to its baseline instead of
 * staying at the high-water mark of the largest input ever seen.
 */
export const MEMORY_RESET_BYTES = 64 * 2 ** 20;

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Reads an AssemblyScript string (UTF-16, byte length stored just before it) for abort messages. */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return "";
  const len = new Uint32Array(memory.buffer, ptr - 4, 1)[0]! >>> 1;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, len));
}

export interface ReadyOptions {
  /**
   * Use these module bytes (or a compiled module) instead of the inlined release build: for a CSP that
   * forbids compiling from memory you can fetch the `.wasm` yourself; the tests use it for the debug build.
   */
  readonly wasm?: BufferSource | WebAssembly.Module;
}

/** The imports of one instance: `abort` turns the kernel's refusals into typed errors. */
function importsFor(memory: () => WebAssembly.Memory | undefined): WebAssembly.Imports {
  return {
    env: {
      abort(msg: number, file: number, line: number, column: number): never {
        const mem = memory();
        const m = mem ? readAsString(mem, msg) : "";
        if (m === "input too large: table") {
          throw new InputTooLargeError(
            "the input needs a kernel table over 512 MiB " +
              "(a product of two lengths, e.g. a long hypothesis of many distinct tokens for ROUGE-L): refused",
            { argument: "input", kind: "table", limit: 512 * 2 ** 20, size: 512 * 2 ** 20 + 1, unit: "bytes" },
          );
        }
        if (m === "input too large: memory") {
          const limit = INPUT_LIMITS.maxMemoryBytes;
          throw new InputTooLargeError(
            `the input needs more than the kernels' memory limit of ${limit / 2 ** 20} MiB ` +
              `(INPUT_LIMITS.maxMemoryBytes; e.g. millions of distinct n-grams): refused, and the memory given back`,
            { argument: "input", kind: "memory", limit, size: limit + 1, unit: "bytes" },
          );
        }
        if (m === "out of memory") {
          throw new OutOfMemoryError(
            "the WebAssembly memory could not grow to what this input needs: it was refused; the module was reset",
          );
        }
        const f = mem ? readAsString(mem, file) : "";
        throw new KernelAbortError(`evalkern kernel aborted: ${m} at ${f}:${line}:${column}`);
      },
    },
  };
}

function adopt(ex: WasmExports, mod: WebAssembly.Module): void {
  exportsRef = ex;
  moduleRef = mod;
  views = undefined;
}

async function instantiate(options: ReadyOptions | undefined): Promise<void> {
  let mod: WebAssembly.Module;
  if (options?.wasm instanceof WebAssembly.Module) mod = options.wasm;
  else if (options?.wasm) mod = await WebAssembly.compile(options.wasm);
  else mod = await (modulePromise ??= WebAssembly.compile(base64ToBytes(WASM_BASE64) as BufferSource));
  let ex: WasmExports | undefined;
  const instance = await WebAssembly.instantiate(
    mod,
    importsFor(() => ex?.memory),
  );
  ex = wasmExports(instance);
  adopt(ex, mod);
}

/**
 * Replace the instance by a fresh one of the same compiled module (synchronous and cheap: no
 * compilation). Used after a trap (the module's state cannot be trusted) and to give memory back.
 */
function resetInstance(): void {
  const mod = moduleRef;
  if (!mod) return;
  let ex: WasmExports | undefined;
  const instance = new WebAssembly.Instance(
    mod,
    importsFor(() => ex?.memory),
  );
  ex = wasmExports(instance);
  adopt(ex, mod);
}

/** After a call: give memory back when it grew past `MEMORY_RESET_BYTES`. */
function afterCall(): void {
  if (exportsRef && memoryViews().u8.length > MEMORY_RESET_BYTES) resetInstance();
}

/**
 * Runs one whole call into the module (`body` may cross the boundary many times): a trap becomes a
 * typed error and a fresh instance, and memory grown past `MEMORY_RESET_BYTES` is given back after.
 */
export function guarded<T>(body: () => T): T {
  depth++;
  try {
    return body();
  } catch (error) {
    throw kernelError(error);
  } finally {
    // only the outermost guarded call gives memory back: an inner one must not swap the instance
    // under a caller that still holds pointers into it
    if (--depth === 0) afterCall();
  }
}

/** What a throw inside a kernel call becomes (resetting the instance when its state cannot be trusted). */
function kernelError(error: unknown): unknown {
  if (EvalkernError.isInstance(error)) {
    if (error instanceof KernelAbortError || error instanceof OutOfMemoryError || error instanceof InputTooLargeError) resetInstance();
    return error;
  }
  if (error instanceof WebAssembly.RuntimeError) {
    resetInstance();
    return new KernelAbortError(`evalkern kernel trapped: ${error.message} (a bug in evalkern: please report it; the module was reset)`, {
      cause: error,
    });
  }
  if (error instanceof RangeError) {
    // the JS side could not allocate (an array buffer, a string past the engine's maximum length)
    resetInstance();
    return new OutOfMemoryError(`the input needs more memory than this runtime gives: ${error.message}`, { cause: error });
  }
  return error;
}

/** Nesting depth of `guarded` calls. */
let depth = 0;

/**
 * Compile and instantiate the kernels. Idempotent: call it as often as you like, await it once before
 * any other function of this package. Each worker/realm has its own instance.
 */
export function ready(options?: ReadyOptions): Promise<void> {
  if (typeof options === "object" && options !== null && options.wasm) {
    const previous = readyPromise;
    const p: Promise<void> = instantiate(options).catch((error: unknown) => {
      // bytes that are no module (or a module without our exports) leave the current instance in place
      if (readyPromise === p) readyPromise = previous;
      throw new InvalidArgumentError(
        `options.wasm must be the evalkern kernel module (bytes or a compiled WebAssembly.Module): ` +
          `${error instanceof Error ? error.message : String(error)}`,
        { argument: "options.wasm", expected: "evalkern .wasm", actual: describe(options.wasm) },
      );
    });
    return (readyPromise = p);
  }
  return (readyPromise ??= instantiate(undefined).catch((error: unknown) => {
    readyPromise = undefined;
    throw error;
  }));
}

/** True once `ready()` has resolved. */
export function isReady(): boolean {
  return exportsRef !== undefined;
}

export function kernels(): WasmExports {
  if (!exportsRef) throw new NotReadyError();
  return exportsRef;
}

interface Views {
  buffer: ArrayBuffer;
  u8: Uint8Array;
  u32: Uint32Array;
  f64: Float64Array;
}
let views: Views | undefined;

/** Typed views of the module memory, rebuilt after the memory grew (a stale view has length 0). */
export function memoryViews(): Views {
  // growing the memory detaches its old buffer (every view of it then has length 0), and a new instance
  // clears `views` (adopt): a view of nonzero length is current, with no call of the `buffer` getter
  const v = views;
  if (v !== undefined && v.u8.length !== 0) return v;
  const buffer = kernels().memory.buffer as ArrayBuffer;
  if (!views || views.buffer !== buffer) {
    views = { buffer, u8: new Uint8Array(buffer), u32: new Uint32Array(buffer), f64: new Float64Array(buffer) };
  }
  return views;
}

const encoder = new TextEncoder();

/** Writes `s` as UTF-8 at `pos` (capacity 3 × s.length is reserved by the caller); returns the new end. */
export function writeUtf8(u8: Uint8Array, pos: number, s: string): number {
  // encodeInto straight into module memory: measured faster here than a hand-written ASCII loop on the
  // benchmark corpus (17.7 vs 20.6 ms per 30k pairs), and it turns lone surrogates into U+FFFD.
  return pos + encoder.encodeInto(s, u8.subarray(pos, pos + 3 * s.length)).written;
}

const align8 = (x: number): number => (x + 7) & ~7;

/** Where a batch was laid out in the I/O region. */
export interface Layout {
  readonly count: number;
  readonly bytes: number;
  readonly strOffs: number;
  readonly refStart: number;
  readonly out: number;
  readonly extra: number;
}

/**
 * Lay out items [from, to) of a batch. Item i has `hyps[i]` and the strings `refs(i)` (may be empty
 * for single-string kernels with `pairs = false`). Reserves `outPerItem` f64 per item for outputs
 * and `extraF64` more f64 for kernel-specific numeric input. `knownUnits`, the UTF-16 length of all
 * the chunk's strings, saves a pass when the caller has it (`chunks` does).
 */
export function layout(
  from: number,
  to: number,
  hyp: (i: number) => string,
  refs: ((i: number) => readonly string[]) | undefined,
  outPerItem: number,
  extraF64 = 0,
  knownUnits?: number,
): Layout {
  const count = to - from;
  let units = knownUnits ?? 0;
  let strings = count;
  for (let i = from; i < to; i++) {
    if (knownUnits === undefined) units += hyp(i).length;
    if (refs) {
      const r = refs(i);
      strings += r.length;
      if (knownUnits === undefined) for (let j = 0; j < r.length; j++) units += r[j]!.length;
    }
  }
  const offsBytes = align8(4 * (strings + 1));
  const refBytes = refs ? align8(4 * (count + 1)) : 0;
  const outBytes = 8 * count * outPerItem;
  const extraBytes = 8 * extraF64;
  const total = offsBytes + refBytes + outBytes + extraBytes + 3 * units + 8;
  const base = kernels().reserve(total);
  ioEpoch++;
  const { u8, u32 } = memoryViews();
  const strOffs = base;
  const refStart = base + offsBytes;
  const out = refStart + refBytes;
  const extra = out + outBytes;
  const bytes = extra + extraBytes;
  let pos = bytes;
  let k = strOffs >>> 2;
  u32[k++] = 0;
  for (let i = from; i < to; i++) {
    pos = writeUtf8(u8, pos, hyp(i));
    u32[k++] = pos - bytes;
  }
  if (refs) {
    let r0 = count;
    let rs = refStart >>> 2;
    u32[rs++] = r0;
    for (let i = from; i < to; i++) {
      const r = refs(i);
      for (let j = 0; j < r.length; j++) {
        pos = writeUtf8(u8, pos, r[j]!);
        u32[k++] = pos - bytes;
      }
      r0 += r.length;
      u32[rs++] = r0;
    }
  }
  return { count, bytes, strOffs, refStart, out, extra };
}

/**
 * Split [0, n) into chunks of at most ~8 M UTF-16 units and 32 Ki items (a huge string is a chunk alone)
 * and visit them as one guarded call (see `guarded`). Callers check `INPUT_LIMITS` first.
 */
export function chunks(n: number, units: (i: number) => number, visit: (from: number, to: number, units: number) => void): void {
  const MAX_UNITS = 8 << 20;
  const MAX_ITEMS = 32768;
  guarded(() => {
    let from = 0;
    while (from < n) {
      let to = from;
      let acc = 0;
      while (to < n && to - from < MAX_ITEMS) {
        const u = units(to);
        if (to > from && acc + u > MAX_UNITS) break;
        acc += u;
        to++;
      }
      visit(from, to, acc);
      from = to;
    }
  });
}

/** Copy `count` f64s out of module memory. */
export function readF64(ptr: number, count: number): Float64Array {
  const { f64 } = memoryViews();
  return f64.slice(ptr >>> 3, (ptr >>> 3) + count);
}

/**
 * Run a pair kernel over a whole batch: lays out each chunk, calls `call` (which invokes the WASM
 * export with the layout's pointers and writes `outPerItem` f64 per item at `layout.out`), and
 * gathers the outputs into one array (n × outPerItem). `extraF64` reserves room at `layout.extra`
 * for kernel-specific input that `call` writes first. Sizes are checked against `INPUT_LIMITS` first
 * (`names` are the argument names the errors use).
 */
export function runPairKernel(
  hyps: readonly string[],
  refs: readonly (readonly string[])[],
  outPerItem: number,
  call: (l: Layout) => void,
  extraF64 = 0,
  names: readonly [hyp: string, ref: string] = ["hyps", "refs"],
): Float64Array {
  checkPairSizes(hyps, refs, names[0], names[1], false);
  if (shared && sameBatch(shared, hyps, refs)) {
    const r = guarded(() => runShared(shared!, outPerItem, call, extraF64));
    if (r) return r;
  }
  const n = hyps.length;
  const result = new Float64Array(n * outPerItem);
  chunks(
    n,
    (i) => {
      let u = hyps[i]!.length;
      const r = refs[i]!;
      for (let j = 0; j < r.length; j++) u += r[j]!.length;
      return u;
    },
    (from, to, units) => {
      const l = layout(
        from,
        to,
        (i) => hyps[i]!,
        (i) => refs[i]!,
        outPerItem,
        extraF64,
        units,
      );
      call(l);
      const { f64 } = memoryViews();
      result.set(f64.subarray(l.out >>> 3, (l.out >>> 3) + l.count * outPerItem), from * outPerItem);
    },
  );
  return result;
}

/**
 * Run a numeric kernel: copies `input` into the I/O region, reserves `outCount` f64 for the result,
 * calls `call(inPtr, outPtr)` and returns a copy of the output.
 */
export function runNumericKernel(input: Float64Array, outCount: number, call: (inPtr: number, outPtr: number) => void): Float64Array {
  return guarded(() => {
    const base = kernels().reserve(8 * (input.length + outCount) + 16);
    ioEpoch++;
    const inPtr = (base + 7) & ~7;
    const outPtr = inPtr + 8 * input.length;
    memoryViews().f64.set(input, inPtr >>> 3);
    call(inPtr, outPtr);
    return readF64(outPtr, outCount);
  });
}

// ------------------------------------------------------------------------------ shared layouts

/** Bumped by every `reserve` of the I/O region: a layout is only valid in the epoch that wrote it. */
let ioEpoch = 0;

/** Output and extra room of a shared layout, enough for every kernel's statistics row (chrF++ 25, ROUGE × 11 types 33). */
const SHARED_OUT_PER_ITEM = 40;
const SHARED_EXTRA_F64 = 8;

interface SharedBatch {
  readonly hyps: readonly string[];
  readonly refs: readonly (readonly string[])[];
  written?: {
    readonly layout: Layout;
    readonly epoch: number;
    readonly exports: WasmExports;
    readonly outCap: number;
    readonly extraCap: number;
  };
}
let shared: SharedBatch | undefined;

function sameBatch(s: SharedBatch, hyps: readonly string[], refs: readonly (readonly string[])[]): boolean {
  if (s.hyps === hyps && s.refs === refs) return true;
  const n = hyps.length;
  if (s.hyps.length !== n || s.refs.length !== n) return false;
  // the validated copies the batch functions make keep each item's strings and reference arrays
  for (let i = 0; i < n; i++) if (hyps[i] !== s.hyps[i] || refs[i] !== s.refs[i]) return false;
  return true;
}

/** A pair kernel on the shared layout (written by the first kernel of the batch); undefined when the batch needs several chunks. */
function runShared(s: SharedBatch, outPerItem: number, call: (l: Layout) => void, extraF64: number): Float64Array | undefined {
  const n = s.hyps.length;
  let w = s.written;
  if (!w || w.epoch !== ioEpoch || w.exports !== exportsRef || w.outCap < outPerItem || w.extraCap < extraF64) {
    let visits = 0;
    let whole = false;
    let units = 0;
    chunks(
      n,
      (i) => {
        let u = s.hyps[i]!.length;
        const r = s.refs[i]!;
        for (let j = 0; j < r.length; j++) u += r[j]!.length;
        return u;
      },
      (from, to, u) => {
        visits++;
        whole = from === 0 && to === n;
        units = u;
      },
    );
    if (visits !== 1 || !whole) return undefined;
    const outCap = Math.max(outPerItem, SHARED_OUT_PER_ITEM);
    const extraCap = Math.max(extraF64, SHARED_EXTRA_F64);
    const layoutOnce = layout(
      0,
      n,
      (i) => s.hyps[i]!,
      (i) => s.refs[i]!,
      outCap,
      extraCap,
      units,
    );
    w = s.written = { layout: layoutOnce, epoch: ioEpoch, exports: kernels(), outCap, extraCap };
  }
  const l = w.layout;
  call(l);
  const { f64 } = memoryViews();
  return f64.slice(l.out >>> 3, (l.out >>> 3) + n * outPerItem);
}

/**
 * Run `fn` with one pair batch laid out once in module memory: every pair kernel that `fn` runs on the
 * same (hypotheses, references), e.g. the BLEU, chrF, ROUGE and token F1 statistics of one chunk of
 * rows, reads the UTF-8 written by the first one instead of encoding the strings again. The kernels and
 * their results are unchanged; a batch too large for one layout, or one whose layout another kernel
 * call has since overwritten, is simply laid out again.
 */
export function sharedPairBatch<T>(hyps: readonly string[], refs: readonly (readonly string[])[], fn: () => T): T {
  const previous = shared;
  shared = { hyps, refs };
  try {
    return fn();
  } finally {
    shared = previous;
  }
}

// ------------------------------------------------------------------------------ the per-call path

/** The argument names the size errors of `pairCall` use by default (as a batch of one of `hyps`/`refs`). */
const PAIR_NAMES: readonly [string, string] = ["hyps", "refs"];

/** The results of the last `pairCall`. */
let pairResults = new Float64Array(64);

/** Strings whose UTF-16 length is at most this can be within no size limit only by being short: no per-string check. */
const PAIR_CALL_FAST_UNITS = Math.floor(Math.min(INPUT_LIMITS.maxStringBytes, INPUT_LIMITS.maxItemBytes) / 3);

/**
 * The per-call path every pair kernel can share: writes `hyp` and `refs` straight into the I/O region
 * (no layout object, no closures, no copies of the output), makes one call of `fn` with room for
 * `outF64` results, and returns them. Traps and refusals become typed errors as in `guarded`; inputs are
 * checked against `INPUT_LIMITS` (as `hyps[0]` / `refs[0]`, or the `names` given, like a batch of one)
 * only when they could exceed them. `name` is the export, in the current instance. The results are copied into
 * a reused array before the call ends (a call that grew the memory past `MEMORY_RESET_BYTES` gives it
 * back, replacing the instance): the returned array is valid until the next `pairCall`.
 */
export function pairCall(
  name: PairCallName,
  hyp: string,
  refs: readonly string[],
  outF64: number,
  a = 0,
  b = 0,
  c = 0,
  d = 0,
  e = 0,
  f = 0,
  names: readonly [hyp: string, ref: string] = PAIR_NAMES,
): Float64Array {
  const nStr = refs.length + 1;
  let units = hyp.length;
  for (let j = 0; j < refs.length; j++) units += refs[j]!.length;
  if (units > PAIR_CALL_FAST_UNITS) checkPairSizes([hyp], [refs], names[0], names[1], false);
  depth++;
  try {
    const ex = kernels();
    const offsBytes = align8(4 * (nStr + 1));
    const base = ex.reserve(offsBytes + 8 * outF64 + 3 * units + 8);
    ioEpoch++;
    const { u8, u32 } = memoryViews();
    const out = base + offsBytes;
    const bytes = out + 8 * outF64;
    let k = base >>> 2;
    u32[k++] = 0;
    let pos = writeUtf8(u8, bytes, hyp);
    u32[k++] = pos - bytes;
    for (let j = 0; j < refs.length; j++) {
      pos = writeUtf8(u8, pos, refs[j]!);
      u32[k++] = pos - bytes;
    }
    ex[name](bytes, base, nStr, a, b, c, d, e, f, out);
    if (pairResults.length < outF64) pairResults = new Float64Array(outF64);
    const f64 = memoryViews().f64;
    const r = pairResults;
    for (let i = 0, o = out >>> 3; i < outF64; i++) r[i] = f64[o + i]!;
    return r;
  } catch (error) {
    throw kernelError(error);
  } finally {
    if (--depth === 0) afterCall();
  }
}
