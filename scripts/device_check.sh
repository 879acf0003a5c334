#!/usr/bin/env bash
# The one script to run on the GPU machine (no Qt, no package registry; nvcc, cmake, ninja).
# Prepare here first:  scripts/prepare_device_run.sh
# Then:                run(command="bash scripts/device_check.sh", carry=["third_party"],
#                          timeout_s=540)
# It builds the Qt-free targets for sm_90, runs the GPU tests (ctest label "gpu"), records
# every live scenario into $OUT/traces/<scenario-id>.json and logs everything to
# $OUT/device_check.log (at most 8 files come back: the log and 6 traces).
# Exit status: 0 all green; otherwise the first failing stage's status.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/traces"
exec > >(tee "$OUT/device_check.log") 2>&1

stage() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
status=0
fail() { echo "*** FAILED: $1 (exit $2)"; [[ $status -ne 0 ]] || status=$2; }

NL_DIR=$PWD/third_party/nlohmann/include
if [[ ! -f $NL_DIR/nlohmann/json.hpp ]]; then
    echo "missing $NL_DIR/nlohmann/json.hpp: run scripts/prepare_device_run.sh here and carry third_party"
    exit 2
fi

stage "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv || true
nvcc --version | tail -2 || true
cmake --version | head -1 || true
c++ --version | head -1 || true

BUILD=build-device
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 8)}
stage "configure"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPBOARD_BUILD_GUI=OFF \
    -DWARPBOARD_BENCHMARKS=OFF -DWARPBOARD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DWB_NLOHMANN_INCLUDE_DIR="$NL_DIR" || { fail configure $?; exit $status; }

stage "build"
cmake --build "$BUILD" -j "$JOBS" --target wb_kernels warpboard-record test_gpu_runner_cpu \
    test_gpu_kernels || { fail build $?; exit $status; }

stage "ctest (label gpu)"
(cd "$BUILD" && ctest -L gpu --output-on-failure -V --timeout 300) || fail ctest $?

stage "warpboard-record all"
"$BUILD/kernels/warpboard-record" all --out "$OUT/traces" || fail warpboard-record $?
ls -l "$OUT/traces" || true

stage "done: status $status"
exit $status
