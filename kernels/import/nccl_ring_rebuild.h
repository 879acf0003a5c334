#pragma once
// NCCL up to 2.8 print a ring as its hops ("Ring 00 : 6[6] -> 7[7] via P2P/direct pointer",
// "Ring 00 : 7 -> 8 [send] via NET/IB/0", "Ring 00 : 7 -> 1 -> 3") and not as an order; the
// order is rebuilt by following each rank's next rank until the chain closes. A chain that
// does not close (a log holding one host's lines, two communicators on one channel) is
// reported, never completed by guessing.
#include "import/nccl_log_importer.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace wb {

// `links` are (rank, next rank) pairs, repeats allowed. The ring starts at its lowest rank.
// Returns the ring, or why there is none ("ring 00: the chain stops at rank 8 …").
std::variant<NcclRing, std::string> rebuildNcclRing(int channel,
                                                    const std::vector<std::pair<int, int>>& links);

} // namespace wb
