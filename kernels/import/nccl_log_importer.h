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

// A WARN line (any form NCCL printed it in) or an error line quoting NCCL: why people open a
// log, so the summary lists them first.
struct NcclWarning {
    std::uint64_t line = 0; // 1-based line in the file; 0 when fed without one
    std::string level;      // "WARN", or "error" for application lines such as "NCCL error in:"
    std::string text;       // the message, source location included when NCCL printed one
};

struct NcclLogData {
    std::vector<NcclWarning> warnings; // the first kMaxWarnings, in file order
    static constexpr std::size_t kMaxWarnings = 200;
    std::vector<NcclComm> comms;
    std::vector<NcclRing> rings; // one per (channel, order), channel order
    std::vector<NcclEdge> edges;
    std::vector<NcclTree> trees;
    // Channels whose rings had to be rebuilt from old "Ring NN : a -> b" lines and did not
    // close: "ring 00: the chain stops at rank 8 ..." (rebuilt rings that close are in rings).
    std::vector<std::string> ringProblems;
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
    // The summary nested under "log" in another format's file summary: its warnings go to
    // `file` instead (first, as in a log's own summary; call it right after path and format).
    nlohmann::ordered_json nestedSummary(nlohmann::ordered_json& file) const;
};

class NcclLogParser {
public:
    // One line without terminator (`lineNo` is its 1-based number, for the warnings list).
    // Returns the part of the line that is not NCCL log (text before an embedded
    // "host:pid:tid [dev] NCCL INFO"), or the whole line when none.
    std::string_view feed(std::string_view line, std::uint64_t lineNo = 0);
    // Derives nranks, rebuilds rings from old ring lines and sorts; call once at the end.
    void finish();
    NcclLogData& data() { return m_data; }

private:
    void message(std::string_view host, std::string_view pid, std::string_view level,
                 std::string_view msg);
    void addWarning(std::uint64_t lineNo, std::string_view level, std::string_view text);
    void rebuildRings();
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
    // Next-rank links per channel from old "Ring NN : a -> b via …" and "Ring NN : prev -> rank
    // -> next" lines, for channels that print no ring order.
    std::map<int, std::vector<std::pair<int, int>>> m_ringLinks;
};

struct NcclLogResult : ImportResult {
    NcclLogData log;
    nlohmann::ordered_json summary() const override;
};

} // namespace wb
