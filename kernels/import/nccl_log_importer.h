#pragma once
// NCCL_DEBUG=INFO logs: communicators, rings, ring edges with their transport, trees, NVLS and
// the network. NcclLogParser takes one line at a time so the nccl-tests importer can feed it
// the INFO lines that share a file (or even a line) with its table.
#include "import/importer.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wb {

struct NcclComm {
    std::string host, pid, comm, commId, busId;
    int rank = -1, nranks = -1, cudaDev = -1, nNodes = -1, localRanks = -1;
};
struct NcclRing {
    int channel = 0;
    std::vector<int> ranks;
};
struct NcclEdge {
    int channel = 0, from = -1, to = -1;
    std::string via;       // as written: "P2P/direct pointer/read", "NET/IB/0/GDRDMA"
    std::string transport; // kind: "P2P/direct", "P2P/IPC", "SHM", "NET/IB/GDRDMA", ...
};
struct NcclTree {
    int channel = 0, rank = -1, parent = -1;
    std::vector<int> children; // -1 slots dropped
};

struct NcclLogData {
    std::vector<NcclComm> comms;
    std::vector<NcclRing> rings; // one per (channel, order), channel order
    std::vector<NcclEdge> edges;
    std::vector<NcclTree> trees;
    std::optional<int> nranks;
    std::string nranksSource; // "comm", "coll", "inferred" (highest rank seen + 1)
    int channels = 0;         // from "Channel 00/24" (or distinct ring channels)
    std::optional<bool> nvlsAvailable;
    std::optional<int> collChannels, nvlsChannels, p2pChannels;
    std::string network, netDevices, version;
    std::map<std::string, std::uint64_t> collectives; // per-call COLL lines by op
    std::uint64_t ncclLines = 0, warnLines = 0, garbledLines = 0;
    bool complete = true; // false when the last line was cut (no line end)
    nlohmann::ordered_json summary() const;
};

class NcclLogParser {
public:
    // One line without terminator. Returns the part of the line that is not NCCL log (text
    // before an embedded "host:pid:tid [dev] NCCL INFO"), or the whole line when none.
    std::string_view feed(std::string_view line);
    // Derives nranks and sorts; call once at the end.
    void finish();
    NcclLogData& data() { return m_data; }

private:
    void message(std::string_view host, std::string_view pid, std::string_view level,
                 std::string_view msg);
    bool commLine(std::string_view host, std::string_view pid, std::string_view msg);
    bool channelLine(std::string_view msg, bool oldRing);
    bool treesLine(std::string_view msg);
    bool treeLine(std::string_view msg);
    bool addTree(int channel, std::string_view a, std::string_view b, std::string_view c);

    NcclLogData m_data;
    std::set<std::string, std::less<>> m_hosts; // seen at line starts: splits "…-1mew0:"
    std::set<std::tuple<int, std::vector<int>>> m_ringSeen;
    std::set<std::tuple<int, int, int, std::string>> m_edgeSeen;
    std::set<std::tuple<int, int, int, std::vector<int>>> m_treeSeen;
    std::optional<int> m_collNranks;
};

struct NcclLogResult : ImportResult {
    NcclLogData log;
    nlohmann::ordered_json summary() const override;
};

} // namespace wb
