#!/usr/bin/env bash
# Compiles weft's GEMM for sm_90a at the two codegen-bench configs (128x128x64 w8 and 64x64x32 w4,
# num_stages 3, bf16, divisible-by-16 and small-integer facts) into DIR (default
# bench/gpu/cubins), for bench/gpu/gemm_vs_triton.py to run on a machine with a GPU and
# PyTorch/Triton but no Rust. Run it where weft builds: `bench/gpu/gemm_cubins.sh [DIR]`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/cubins}"
weft="${WEFT:-$here/../../target/release/weft}"
[ -x "$weft" ] || { echo "gemm_cubins: no weft binary at $weft (cargo build --release, or set WEFT)" >&2; exit 1; }
mkdir -p "$out"
for cfg in "128 128 64 8" "64 64 32 4"; do
  set -- $cfg
  "$weft" compile gemm --target sm_90a --dtype bf16 -D BLOCK_M=$1 -D BLOCK_N=$2 -D BLOCK_K=$3 -D num_warps=$4 \
    -D num_stages=3 -D divisible_by_16=a,b,c,m,n,k -D small_ints=m,n,k --emit cubin -o "$out/g$1.cubin" --dump-dir "$out/g$1" >"$out/g$1.report"
  # The TMA descriptors the kernel takes after its arguments (sm_90a staging), one per line.
  { grep '^tensor map ' "$out/g$1.report" || true; } | sed 's/^tensor map //' > "$out/g$1.tma"
  # The launch needs the dynamic shared memory the cubin was compiled for (none: static only).
  smem=$(grep -o 'dynamic shared [0-9]*' "$out/g$1/gemm.cubin.txt" | grep -o '[0-9]*' || true)
  echo "${smem:-0}" > "$out/g$1.smem"
  ctas=$(grep -o 'minnctapersm [0-9]*' "$out/g$1/gemm.ptx.ptx" | grep -o '[0-9]*' || true)
  echo "${ctas:-1}" > "$out/g$1.ctas"
  echo "g$1.cubin: $(cat "$out/g$1.smem") B dynamic shared, $(cat "$out/g$1.ctas") CTAs per SM asked, $(wc -l < "$out/g$1.tma") tensor maps"
done
