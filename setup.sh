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
  # The oshmem transport (Open MPI's OSHMEM over UCX) and the GEMM baseline.
  openmpi-bin libopenmpi-dev libopenblas-dev
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
echo "weft setup: ok (LLVM/MLIR $(/usr/lib/llvm-22/bin/llvm-config --version))" >&2
