#!/usr/bin/env bash
# The GPU smoke suite in one command, for a machine with an NVIDIA GPU and driver but no Rust,
# no LLVM and no internet: it only runs a prebuilt weft binary. In order, each step under a
# timeout: `weft devices`; allgather and allreduce on 1 PE; the GEMM family (gemm, ag_gemm,
# gemm_rs; bf16 and f32; even and uneven shapes) on 1 PE, verified; then the same on every
# GPU, one process per GPU (README, "CUDA transport"), when there are two or more.
#
#   bench/gpu/run.sh [--dry-run]
#
# Environment:
#   WEFT               the weft binary (default: target/release/weft)
#   WEFT_TOOLS_DIR     ptxas at $WEFT_TOOLS_DIR/bin/ptxas, NVSHMEM bitcode at
#                      $WEFT_TOOLS_DIR/nvshmem/lib (default: .tools next to this repo, if present)
#   WEFT_NVSHMEM_LIB   NVSHMEM's host library, libnvshmem_host.so.3
#   WEFT_GPUS          how many GPUs to use for the multi-PE steps (default: all `weft devices` lists)
#   WEFT_SHARE_GPU     N: with one GPU, run the multi-PE steps as N PEs on GPU 0 (each PE gets
#                      1/N of the SMs; under CUDA MPS, started here when nvidia-cuda-mps-control is
#                      on the PATH and stopped at the end)
#   STEP_TIMEOUT       seconds per step (default 300)
# Prints one PASS/FAIL line per step and a summary; exits non-zero if any step failed.

set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
dry=0
case "${1:-}" in
  --dry-run) dry=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac

WEFT="${WEFT:-$repo/target/release/weft}"
if [ -z "${WEFT_TOOLS_DIR:-}" ] && [ -d "$repo/.tools" ]; then
  export WEFT_TOOLS_DIR="$repo/.tools"
fi
STEP_TIMEOUT="${STEP_TIMEOUT:-300}"
if [ "$dry" = 1 ]; then logs="\$LOGS"; else logs="$(mktemp -d "${TMPDIR:-/tmp}/weft-gpu-suite.XXXXXX")"; fi
failed=0
passed=0

# Shapes: square, and uneven ones (rows not divisible by the PE count, odd n and k).
shapes=("--m 1024 --n 1024 --k 512" "--m 1000 --n 520 --k 328" "--m 129 --n 77 --k 96")

# step NAME CMD...: runs CMD under the timeout, logs it, prints PASS/FAIL.
step() {
  local name="$1"; shift
  if [ "$dry" = 1 ]; then
    echo "would run [$name]: timeout $STEP_TIMEOUT $*"
    return
  fi
  local log="$logs/$(printf %s "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
  local t0=$SECONDS
  timeout --kill-after=10 "$STEP_TIMEOUT" "$@" >"$log" 2>&1
  local rc=$?
  report "$name" "$rc" "$((SECONDS - t0))" "$log"
}

report() {
  local name="$1" rc="$2" secs="$3" log="$4"
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    echo "PASS  $name  (${secs}s)"
  else
    failed=$((failed + 1))
    local why="exit $rc"
    [ "$rc" = 124 ] || [ "$rc" = 137 ] && why="timed out after ${STEP_TIMEOUT}s"
    echo "FAIL  $name  ($why; log $log)"
    tail -n 5 "$log" | sed 's/^/      /'
  fi
}

# multi NAME N ARGS...: `weft ARGS` as N processes, one per GPU, meeting through a uid file.
multi() {
  local name="$1" n="$2"; shift 2
  local uid="$logs/uid-$(date +%s%N)"
  if [ "$dry" = 1 ]; then
    echo "would run [$name]: for each rank r < $n, in parallel: WEFT_RANK=\$r WEFT_WORLD_SIZE=$n WEFT_LOCAL_RANK=\$r WEFT_LOCAL_SIZE=$n WEFT_NVSHMEM_UID_FILE=$uid ${share:+WEFT_CUDA_DEVICE=0 }timeout $STEP_TIMEOUT $WEFT $* &"
    return
  fi
  local t0=$SECONDS pids=() rc=0 r
  for ((r = 0; r < n; r++)); do
    WEFT_RANK=$r WEFT_WORLD_SIZE=$n WEFT_LOCAL_RANK=$r WEFT_LOCAL_SIZE=$n WEFT_NVSHMEM_UID_FILE="$uid" ${share:+WEFT_CUDA_DEVICE=0} \
      timeout --kill-after=10 "$STEP_TIMEOUT" "$WEFT" "$@" >"$logs/$name.pe$r.log" 2>&1 &
    pids+=($!)
  done
  for r in "${!pids[@]}"; do
    wait "${pids[$r]}" || { local e=$?; [ "$rc" = 0 ] && rc=$e; }
  done
  cat "$logs/$name".pe*.log >"$logs/$name.log"
  report "$name" "$rc" "$((SECONDS - t0))" "$logs/$name.log"
}

# The single- and multi-PE lists of runs: "name|weft arguments".
runs() {
  echo "allgather f32|run allgather --transport cuda --elems 1000003 --dtype f32 --iters 3"
  echo "allreduce bf16|run allreduce --transport cuda --elems 1000003 --dtype bf16 --iters 3"
  local k dt s
  for k in gemm ag_gemm gemm_rs; do
    for dt in bf16 f32; do
      for s in "${shapes[@]}"; do
        echo "$k $dt ${s//--/}|run $k --transport cuda --dtype $dt $s --iters 3"
      done
    done
  done
}

if [ "$dry" = 0 ] && [ ! -x "$WEFT" ]; then
  echo "FAIL  weft binary  ($WEFT is not an executable; build it with cargo build --release or set WEFT)"
  exit 1
fi
echo "weft: $WEFT   tools: ${WEFT_TOOLS_DIR:-<built-in>}   NVSHMEM: ${WEFT_NVSHMEM_LIB:-<default>}   logs: $logs"
# Say up front what weft would only say at its first compile or launch.
if [ -n "${WEFT_TOOLS_DIR:-}" ]; then
  [ -x "$WEFT_TOOLS_DIR/bin/ptxas" ] || echo "WARN  no ptxas at $WEFT_TOOLS_DIR/bin/ptxas"
  ls "$WEFT_TOOLS_DIR"/nvshmem/lib/libnvshmem_device*.bc >/dev/null 2>&1 || echo "WARN  no NVSHMEM bitcode in $WEFT_TOOLS_DIR/nvshmem/lib"
fi
if [ -n "${WEFT_NVSHMEM_LIB:-}" ] && [ ! -f "$WEFT_NVSHMEM_LIB" ]; then
  echo "WARN  WEFT_NVSHMEM_LIB=$WEFT_NVSHMEM_LIB is not a file"
fi

step "devices" "$WEFT" devices
gpus="${WEFT_GPUS:-}"
share=""
if [ -z "$gpus" ]; then
  if [ "$dry" = 1 ]; then
    gpus="N (counted from weft devices)"
  else
    gpus=$(grep -c '^GPU [0-9]' "$logs/devices.log" 2>/dev/null || true)
  fi
fi

while IFS='|' read -r name args; do
  # shellcheck disable=SC2086
  step "1 PE: $name" "$WEFT" $args
done < <(runs)

mps=0
if [ "$dry" = 1 ] || [ "${gpus:-0}" -le 1 ] 2>/dev/null; then
  if [ -n "${WEFT_SHARE_GPU:-}" ] && [ "${WEFT_SHARE_GPU}" -ge 2 ] 2>/dev/null; then
    share=1
    gpus="$WEFT_SHARE_GPU"
    if [ "$dry" = 0 ] && command -v nvidia-cuda-mps-control >/dev/null && nvidia-cuda-mps-control -d 2>/dev/null; then
      mps=1
    fi
    echo "multi-PE steps: $gpus PEs on GPU 0 ($([ "$mps" = 1 ] && echo "under MPS" || echo "without MPS"))"
  fi
fi

if [ "$dry" = 1 ]; then
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086
    multi "multi-PE: $name" "$([ -n "$share" ] && echo "$gpus" || echo N)" $args
  done < <(runs)
elif [ "${gpus:-0}" -ge 2 ] 2>/dev/null; then
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086
    multi "${gpus}pe_$(echo "$name" | tr ' ' '_')" "$gpus" $args
  done < <(runs)
else
  echo "SKIP  multi-PE steps (${gpus:-0} GPU(s) listed; they need 2 or more)"
fi

[ "$mps" = 1 ] && echo quit | nvidia-cuda-mps-control
[ "$dry" = 1 ] && exit 0
echo "summary: $passed passed, $failed failed (logs in $logs)"
[ "$failed" = 0 ]
