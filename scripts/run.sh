#!/usr/bin/env bash
# Installs what is missing, builds, and opens Warpboard on its default scenario. Without a
# display it renders that scenario to a PNG and prints where. Extra arguments go to the app
# (e.g. --scenario roofline --step 3, --present).
set -euo pipefail
WB_BUILD_TARGET=warpboard source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec "$WB_BUILD/app/warpboard" "$@"
