#pragma once
// Recordings shipped in resources/traces, embedded at build time: file name → Trace JSON.
#include <map>
#include <string_view>

namespace wb {

const std::map<std::string_view, std::string_view>& embeddedTraces();

} // namespace wb
