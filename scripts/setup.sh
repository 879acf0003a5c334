#!/usr/bin/env bash
# Installs what is missing (Debian 12 / Ubuntu 24.04 packages) and builds Warpboard into
# build/. Sourced by run.sh and test.sh; safe to run again (only missing packages install,
# and the build is incremental). WB_BUILD_TARGET names what to build (run.sh: only the app,
# so that the first picture does not wait for the tests); empty builds everything.
set -euo pipefail

WB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WB_BUILD="${WB_BUILD:-$WB_ROOT/build}"

bash "$WB_ROOT/scripts/install-deps.sh"

# nvcc is optional: the kernels build for it when found (e.g. /usr/local/cuda/bin).
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

cmake_args=(-S "$WB_ROOT" -B "$WB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release)
cmake_args+=(-DWARPBOARD_WERROR="${WARPBOARD_WERROR:-OFF}")
[ -n "${WARPBOARD_CUDA:-}" ] && cmake_args+=(-DWARPBOARD_CUDA="$WARPBOARD_CUDA")

cmake "${cmake_args[@]}" >/dev/null
if [ -n "${WB_BUILD_TARGET:-}" ]; then
  cmake --build "$WB_BUILD" -j"$(nproc)" --target "$WB_BUILD_TARGET"
else
  cmake --build "$WB_BUILD" -j"$(nproc)"
fi
