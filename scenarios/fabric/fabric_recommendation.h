#pragma once
// the roce-vs-infiniband lesson's decision panel: InfiniBand or RoCE for a cluster, with each
// reason tied to what the fabric simulation measured on one incast, and the conditions that would
// flip the answer.
#include "fabric/fabric_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct FabricConditions {
    bool teamRunsLosslessEthernet = false; // has operated PFC + ECN/DCQCN in production
    int gpus = 1024;
    bool multiTenant = false;
    bool vendorLockInConcern = false;
    bool budgetConstrained = false;
};

// One N:1 incast (with the victim flow) run four ways by FabricSim.
struct FabricEvidence {
    int senders = 0;
    double linkGbps = 0;
    double durationS = 0;
    double ibGoodputGbps = 0;
    long long ibDropped = 0;
    double ibVictimGbps = 0;
    double lossyGoodputGbps = 0; // RoCE without PFC or ECN
    double lossyGoodputLoss = 0; // 1 − lossy ÷ IB
    long long lossyDropped = 0;
    long long lossyRetransmitted = 0;
    long long pfcPauseFrames = 0; // RoCE with PFC, no ECN
    int pfcLinksPaused = 0;
    int pfcPauseDepth = 0;
    double pfcVictimGbps = 0;
    double victimFairGbps = 0;      // the victim's share without head-of-line blocking
    long long dcqcnPauseFrames = 0; // RoCE with PFC and ECN/DCQCN
    double dcqcnVictimGbps = 0;
};

FabricEvidence measureFabricEvidence(int senders, double linkGbps, double durationS,
                                     std::uint64_t seed);

struct FabricReason {
    std::string condition; // "team", "gpus", "multi-tenant", "vendor-lock-in", "budget"
    int weight = 0;        // > 0 favours RoCE, < 0 InfiniBand
    std::string text;      // the reason, quoting the evidence it rests on
};

struct FabricRecommendation {
    FabricKind choice = FabricKind::InfiniBand;
    int score = 0; // sum of the weights; > 0 → RoCE, otherwise InfiniBand
    std::vector<FabricReason> reasons;
    std::vector<std::string> flips; // "condition → value": each alone changes the choice
};

// GPUs at or above this count are "large scale" (more switch tiers for a pause to climb).
inline constexpr int kLargeScaleGpus = 4096;

FabricRecommendation recommendFabric(const FabricConditions& c, const FabricEvidence& e);

} // namespace wb
