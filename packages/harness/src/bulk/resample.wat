;; The hot loop of one-pass bootstrap resampling (src/bulk/bootstrap.ts), in WebAssembly SIMD.
;; draw(x, stride, intBytes, floatBytes, T, L, threshold, st, acc): T times, draw a row r in [0, L) from
;; the xoshiro128** state at `st` (Lemire's multiply-shift, rejecting low words below `threshold`), then
;; add its integer columns (i32x4 lanes, `intBytes` bytes at x + r·stride) into the i32 accumulators at
;; `acc`, and its float columns (f64x2 lanes, the next `floatBytes` bytes) into the f64 accumulators at
;; acc + intBytes. The state is written back. Same draws, same order of additions as the JS kernel.
;; scripts/build-resample-wasm.mjs adds `d<ni>_<nf>` variants of this loop that keep the accumulators in
;; locals (registers) for up to 12 vectors, and embeds the bytes in resample-wasm.ts: run it after edits.
(module
  (memory (export "memory") 4)
  (func $rotl (param $x i32) (param $k i32) (result i32)
    (i32.rotl (local.get $x) (local.get $k)))
  (func (export "draw")
    (param $x i32) (param $stride i32) (param $nib i32) (param $nfb i32) (param $T i32) (param $L i32)
    (param $thr i32) (param $st i32) (param $acc i32)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $t i32) (local $r i32)
    (local $m i64) (local $row i32) (local $v i32) (local $p i32) (local $q i32) (local $sh i32)
    (local $accf i32)
    (local.set $s0 (i32.load offset=0 (local.get $st)))
    (local.set $s1 (i32.load offset=4 (local.get $st)))
    (local.set $s2 (i32.load offset=8 (local.get $st)))
    (local.set $s3 (i32.load offset=12 (local.get $st)))
    (local.set $accf (i32.add (local.get $acc) (local.get $nib)))
    (local.set $t (i32.const 0))
    (block $done
      (loop $draws
        (br_if $done (i32.ge_u (local.get $t) (local.get $T)))
        (loop $retry
          (local.set $r (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9)))
          (local.set $sh (i32.shl (local.get $s1) (i32.const 9)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
          (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
          (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
          (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $sh)))
          (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
          (local.set $m (i64.mul (i64.extend_i32_u (local.get $r)) (i64.extend_i32_u (local.get $L))))
          (br_if $retry (i32.lt_u (i32.wrap_i64 (local.get $m)) (local.get $thr))))
        (local.set $row (i32.add (local.get $x)
          (i32.mul (i32.wrap_i64 (i64.shr_u (local.get $m) (i64.const 32))) (local.get $stride))))
        (local.set $v (i32.const 0))
        (block $ie
          (loop $il
            (br_if $ie (i32.ge_u (local.get $v) (local.get $nib)))
            (local.set $p (i32.add (local.get $acc) (local.get $v)))
            (v128.store (local.get $p)
              (i32x4.add (v128.load (local.get $p)) (v128.load (i32.add (local.get $row) (local.get $v)))))
            (local.set $v (i32.add (local.get $v) (i32.const 16)))
            (br $il)))
        (local.set $q (i32.add (local.get $row) (local.get $nib)))
        (local.set $v (i32.const 0))
        (block $fe
          (loop $fl
            (br_if $fe (i32.ge_u (local.get $v) (local.get $nfb)))
            (local.set $p (i32.add (local.get $accf) (local.get $v)))
            (v128.store (local.get $p)
              (f64x2.add (v128.load (local.get $p)) (v128.load (i32.add (local.get $q) (local.get $v)))))
            (local.set $v (i32.add (local.get $v) (i32.const 16)))
            (br $fl)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $draws)))
    (i32.store offset=0 (local.get $st) (local.get $s0))
    (i32.store offset=4 (local.get $st) (local.get $s1))
    (i32.store offset=8 (local.get $st) (local.get $s2))
    (i32.store offset=12 (local.get $st) (local.get $s3))))
