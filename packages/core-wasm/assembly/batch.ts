// The batch input layout shared by every text kernel (written by the JS side into the I/O region):
//
//   bytes     UTF-8 of all strings, back to back
//   strOffs   u32[stringCount + 1]: string k is bytes[strOffs[k] .. strOffs[k+1])
//   refStart  u32[n + 1] (pair kernels): item i's hypothesis is string i and its references are the
//             strings refStart[i] .. refStart[i+1]-1 (the JS side puts them after the n hypotheses)
//
// Outputs are f64 arrays at a pointer the JS side chooses, so one boundary crossing serves a batch.

// @ts-ignore: decorator
@inline export function strPtr(bytes: usize, strOffs: usize, k: i32): usize {
  return bytes + <usize>load<u32>(strOffs + (<usize>k << 2));
}

// @ts-ignore: decorator
@inline export function strLen(strOffs: usize, k: i32): i32 {
  const p = strOffs + (<usize>k << 2);
  return <i32>(load<u32>(p, 4) - load<u32>(p));
}

// @ts-ignore: decorator
@inline export function refFirst(refStart: usize, i: i32): i32 {
  return <i32>load<u32>(refStart + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline export function refEnd(refStart: usize, i: i32): i32 {
  return <i32>load<u32>(refStart + (<usize>i << 2), 4);
}
