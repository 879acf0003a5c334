#pragma once
// A whole training cluster at one moment of a failure (blast-radius blast radius): every GPU as a
// cell in its node, rack and pod, with the ToR, spine, PDU, cooling, storage and scheduler
// components around them, each coloured by what the failure did to it.
#include <array>
#include <string>
#include <vector>

namespace wb {

// The component kinds in the order of ComponentKind (reliability/cluster_failure_model.h), so
// a kind number means the same on both sides; the view's click signal speaks it too.
enum class MapKind { Gpu, Node, Rack, Tor, Spine, Pdu, Cooling, Storage, Scheduler };
inline constexpr int kMapKinds = 9;

// What the failure did to one GPU, in the order it is revealed: lost with its component, then
// a member of a parallel group that lost a rank (the first broken dimension, TP before PP
// before DP), then idle because the synchronous job stopped.
enum class MapGpuState : unsigned char { Healthy, Lost, TpBroken, PpBroken, DpBroken, Stopped };
enum class MapComponentState : unsigned char { Up, Failed, Down };

struct ClusterMapFrame {
    std::string title;
    // The failure-domain shape (ClusterSpec): where each GPU is drawn follows from these.
    int gpusPerNode = 8;
    int nodesPerRack = 2;
    int racksPerPod = 192;
    int spinesPerPod = 8;
    int racksPerPdu = 8;
    int racksPerCoolingZone = 64;
    // The layout, for hover tips: rank r (= GPU r) sits at (r / stride) % size per dimension.
    int tp = 1, pp = 1, dp = 1;
    int tpStride = 1, ppStride = 1, dpStride = 1;
    std::string layoutName; // "TP 8 × PP 16 × DP 128 (tp-pp-dp)"
    std::vector<MapGpuState> gpus;
    // State of every component of each kind, indexed by MapKind (the Gpu entry stays empty:
    // `gpus` holds the GPUs).
    std::array<std::vector<MapComponentState>, kMapKinds> components;
    int failedKind = -1; // MapKind of the component failed by hand, -1 for none
    int failedIndex = -1;
    // The failure's consequences in order ("1. 16 GPUs lost", ...); `revealed` of them shown.
    std::vector<std::string> consequences;
    int revealed = 0;
    std::string caption; // counts: GPUs lost, groups broken, job state
    bool operator==(const ClusterMapFrame&) const = default;
};

} // namespace wb
