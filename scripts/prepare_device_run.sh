#!/usr/bin/env bash
# Run HERE (the development machine) before a device run: the GPU machine has no package
# registry and no nlohmann_json, so a copy of the header-only library travels with the tree.
#   scripts/prepare_device_run.sh            # copies /usr/include/nlohmann (or $NLOHMANN_DIR)
# Then, through the device tool:
#   run(command="bash scripts/device_check.sh", carry=["third_party"], timeout_s=540)
# third_party/ is git-ignored, so it travels only because `carry` names it (about 1 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${NLOHMANN_DIR:-/usr/include/nlohmann}
if [[ ! -f "$src/json.hpp" ]]; then
    echo "prepare_device_run: $src/json.hpp not found; install nlohmann-json3-dev or set NLOHMANN_DIR" >&2
    exit 1
fi
dst=third_party/nlohmann/include
rm -rf "$dst"
mkdir -p "$dst"
# The distribution's json.hpp includes its detail/ headers, so the whole folder is copied.
cp -r "$src" "$dst/nlohmann"
echo "prepared $dst/nlohmann ($(du -sh "$dst" | cut -f1)); carry [\"third_party\"] in the device run"
