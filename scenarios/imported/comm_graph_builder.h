#pragma once
// An NCCL_DEBUG=INFO log as a CommGraphFrame (ranks, ring edges per channel with their
// transport, tree parent → child edges) and the facts beside it.
#include "frames/comm_graph_frame.h"
#include "frames/facts_frame.h"
#include "import/nccl_log_importer.h"

#include <string>

namespace wb {

// `path` names the file in the caption and the tips.
CommGraphFrame commGraphFrame(const NcclLogData& log, const std::string& path);
// Channels, ranks, transports (with edge counts), NVLS, network, NCCL version.
FactsFrame commGraphFacts(const NcclLogData& log, const std::string& path);

} // namespace wb
