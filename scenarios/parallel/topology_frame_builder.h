#pragma once
// Draws a layout's traffic on the cluster: which nodes to show (rank 0's node and the nodes
// its TP, PP and DP partners live on, up to a limit), every shown GPU's ring neighbour in
// each strategy as a flow, packet rates proportional to the bytes per second each strategy
// moves, and link colours from the share of the step each link class is busy. Only the
// model's StepEstimate is read; nothing here is drawn by hand.
#include "frames/topology_frame.h"
#include "parallel/transformer_step.h"

namespace wb {

struct TopologyDrawing {
    int maxNodes = 8;          // nodes drawn; the rest are counted in hiddenNodes
    double maxPacketsPerS = 6; // the busiest strategy's packet rate on screen
};

// Colour indices of the flow classes: 0 TP, 1 PP, 2 DP.
TopologyFrame topologyFrame(const std::string& title, const ClusterTopology& t,
                            const ParallelLayout& l, const StepEstimate& e, double phaseS,
                            const TopologyDrawing& view = {});

// Coordinate of `rank` along strategy `s` (0 … size−1) and its ring neighbour in that group.
int coordinateOf(const ParallelLayout& l, int rank, Strategy s);
int ringNext(const ParallelLayout& l, int rank, Strategy s);

} // namespace wb
