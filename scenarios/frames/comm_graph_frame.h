#pragma once
// A communicator's graph as NCCL built it: ranks as nodes, one directed edge per ring channel
// (rank → next rank, with the transport NCCL chose for it) and the trees' parent → child
// edges. Read from an NCCL_DEBUG=INFO log; the view draws a plain ring/tree diagram.
#include <string>
#include <vector>

namespace wb {

struct CommGraphNode {
    int rank = 0;
    std::string label; // "rank 0"
    std::string tip;   // host, device, bus id: what the log says about it
    bool operator==(const CommGraphNode&) const = default;
};

struct CommGraphEdge {
    enum class Kind { Ring, Tree };
    Kind kind = Kind::Ring;
    int from = 0; // ranks (tree: parent → child)
    int to = 0;
    int channel = 0;
    std::string transport; // "P2P/IPC", "SHM", "NET/IB/GDRDMA", "" when the log does not say
    int colorIndex = 0;    // one colour per transport (the frame's transports list)
    std::string tip;
    bool operator==(const CommGraphEdge&) const = default;
};

struct CommGraphFrame {
    std::string title;
    std::vector<CommGraphNode> nodes; // in rank order
    std::vector<CommGraphEdge> edges; // rings first (channel order), then trees
    int channels = 0;                 // channels NCCL set up ("Channel 00/24" → 24)
    // The legend: transports[i] is drawn with colour index i (edges' colorIndex).
    std::vector<std::string> transports;
    std::string caption; // under the diagram: what is shown and where it came from
    bool operator==(const CommGraphFrame&) const = default;
};

} // namespace wb
