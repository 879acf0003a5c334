#pragma once
// The recording command shared by the plain `warpboard-record` executable (machines with a
// GPU and no Qt) and the app's `warpboard record`: parses `all|ID [--out DIR] [--quick]
// [--device N]`, records, writes DIR/<id>.json. Returns the exit code: 0 recorded, 1 a run
// failed, 2 usage error, 3 no GPU (it never writes a modeled file in place of a measurement).
#include <string>
#include <vector>

namespace wb {

int runRecordCommand(const std::string& program, const std::vector<std::string>& args);

} // namespace wb
