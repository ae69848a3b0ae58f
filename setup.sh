#!/usr/bin/env bash
# Installs everything weft needs on Debian 12 (bookworm). Idempotent: when everything is
# already there it only checks, which takes well under a second.
set -euo pipefail

packages=(
  # LLVM / MLIR 22 (bookworm-security): melior, mlir-sys, llvm-sys and bindgen link these.
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 libclang-22-dev lld-22 libpolly-22-dev
  # What a static LLVM link pulls in.
  zlib1g-dev libzstd-dev libxml2-dev libffi-dev libncurses-dev
  # Kernel libraries are linked with the system C driver.
  build-essential pkg-config
  # The mpi transport (Open MPI: mpirun, mpi.h for bindgen, libmpi.so.40) and the GEMM baseline.
  openmpi-bin libopenmpi-dev libopenblas-dev
  # A Python venv for the GPU tool wheels below.
  python3-venv python3-pip
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "weft setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "weft setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "weft setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
[ -x /usr/lib/llvm-22/bin/llvm-config ] || { echo "weft setup: /usr/lib/llvm-22 is missing after install" >&2; exit 1; }

# GPU tools, project-local in .tools/ (git-ignored): ptxas and NVSHMEM's device bitcode and
# headers come from PyPI wheels, pinned. ptxas 12.9 takes PTX ISA <= 8.8, which is what the
# NVPTX back end emits. The build and the tests find them as .tools/bin/ptxas and
# .tools/nvshmem/{lib,include}; nothing is downloaded at test time.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools="$root/.tools"
wheels=(nvidia-cuda-nvcc-cu12==12.9.86 nvidia-nvshmem-cu12==3.8.0)
stamp="$tools/wheels.txt"
if [ "$(cat "$stamp" 2>/dev/null)" != "${wheels[*]}" ] || [ ! -x "$tools/bin/ptxas" ] || [ ! -f "$tools/nvshmem/lib/libnvshmem_device_sm_90.bc" ]; then
  echo "weft setup: installing ${wheels[*]} into $tools" >&2
  py=python3
  [ -x /usr/bin/python3 ] && py=/usr/bin/python3
  [ -x "$tools/py/bin/pip" ] || "$py" -m venv "$tools/py"
  "$tools/py/bin/pip" install -q --disable-pip-version-check "${wheels[@]}"
  site="$("$tools/py/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  ptxas="$(find "$site/nvidia" -type f -name ptxas -path '*bin*' | head -n1)"
  bc="$(find "$site/nvidia" -type f -name 'libnvshmem_device_sm_90.bc' | head -n1)"
  hdr="$(find "$site/nvidia" -type f -name nvshmem.h -path '*include*' | head -n1)"
  [ -n "$ptxas" ] && [ -n "$bc" ] && [ -n "$hdr" ] || { echo "weft setup: the wheels lack ptxas, NVSHMEM bitcode or headers" >&2; exit 1; }
  mkdir -p "$tools/bin" "$tools/nvshmem"
  chmod +x "$ptxas"
  ln -sfn "$ptxas" "$tools/bin/ptxas"
  ln -sfn "$(dirname "$bc")" "$tools/nvshmem/lib"
  ln -sfn "$(dirname "$hdr")" "$tools/nvshmem/include"
  echo "${wheels[*]}" >"$stamp"
  # The runtime binds NVSHMEM's host headers at build time: make cargo rerun its build script.
  touch "$root/runtime/build.rs"
fi
# A clean debug build plus the test binaries takes about 4 GB (each test binary links LLVM and
# MLIR statically); a full disk shows up later as a linker crash (SIGBUS), so say it here.
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$target"
free_gb=$(( $(df -Pk "$target" | awk 'NR==2 {print $4}') / 1048576 ))
if [ "$free_gb" -lt 6 ]; then
  echo "weft setup: warning: only ${free_gb} GB free under $target; building and testing weft needs about 6 GB" >&2
fi
"$tools/bin/ptxas" --version >/dev/null || { echo "weft setup: $tools/bin/ptxas does not run" >&2; exit 1; }
echo "weft setup: ok (LLVM/MLIR $(/usr/lib/llvm-22/bin/llvm-config --version), $("$tools/bin/ptxas" --version | tail -n1))" >&2
