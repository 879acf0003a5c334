#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. ctest's summary is the
# last thing printed; the exit code is non-zero on any failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$WB_BUILD"
ctest --output-on-failure --no-tests=error -j"$(nproc)"
