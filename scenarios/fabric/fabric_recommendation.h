#pragma once
// the roce-vs-infiniband lesson's decision model: InfiniBand or RoCE for a cluster. Seven factors,
// each with a direction and a weight (the weights are judgement, labelled assumed wherever they
// are shown), each reason tied to what the fabric simulation measured on one incast or to a
// primary source; and the single changes of condition that would flip the answer. `calc
// fabric-decision` and the lesson's decision panel both print this one model.
#include "fabric/fabric_config.h"
#include "fabric/fabric_sim.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct FabricConditions {
    bool teamRunsLosslessEthernet = false; // in-house skill: has run PFC + ECN/DCQCN in production
    int gpus = 1024;
    bool multiTenant = false;
    // The collective library spreads each GPU pair over many flows (Meta: 16 per pair with
    // enhanced ECMP), so Ethernet's per-flow hashing balances without adaptive routing.
    bool spreadsFlows = false;
    // The job is all-reduce-bound and would use reduction inside InfiniBand switches (SHARP).
    bool inNetworkReduction = false;
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
    double lossyVictimGbps = 0;
    long long pfcPauseFrames = 0; // RoCE with PFC, no ECN
    int pfcLinksPaused = 0;
    int pfcPauseDepth = 0;
    double pfcVictimGbps = 0;
    double victimFairGbps = 0;      // victimFairShareGbps: the share without head-of-line blocking
    long long dcqcnPauseFrames = 0; // RoCE with PFC and ECN/DCQCN
    double dcqcnVictimGbps = 0;
};

// The evidence from four runs of the same incast, however they were run: the lesson steps its
// runs frame by frame and quotes these same summaries, so every slide shows one number per
// quantity.
FabricEvidence fabricEvidence(int senders, double linkGbps, const FabricSummary& ib,
                              const FabricSummary& lossy, const FabricSummary& pfc,
                              const FabricSummary& dcqcn);
// Runs the four (IB, lossy RoCE, PFC alone, PFC + DCQCN) for `durationS` and summarises them.
FabricEvidence measureFabricEvidence(int senders, double linkGbps, double durationS,
                                     std::uint64_t seed);

// One factor of the decision. Every factor is always listed, with weight 0 when this run's
// conditions make it favour neither fabric.
struct FabricReason {
    std::string condition; // the parameter it reads: "team-lossless-ethernet", "gpus", ...
    std::string factor;    // what it weighs: "operations skill", "scale", ...
    std::string setting;   // this run's value of the condition, in words
    int weight = 0;        // > 0 favours RoCE, < 0 InfiniBand, 0 neither (assumed: judgement)
    std::string text;      // why, quoting the evidence it rests on
    std::string source;    // primary source, or "this incast" for the simulation's numbers
};

// A single change of condition that changes the choice, and the score it gives.
struct FabricFlip {
    std::string condition; // as in FabricReason
    std::string factor;
    std::string setting; // the new value, in words
    int score = 0;
};

struct FabricRecommendation {
    FabricKind choice = FabricKind::InfiniBand;
    int score = 0; // sum of the weights; > 0 → RoCE, otherwise InfiniBand
    std::vector<FabricReason> reasons;
    std::vector<FabricFlip> flips; // each alone changes the choice
};

// At or above this many GPUs the fabric is a large line item, so a budget constraint weighs
// double (assumed). Scale itself favours neither fabric: Meta trained Llama 3 405B on a
// 24K-GPU RoCE cluster (Grattafiori et al. 2024 §3.3.1).
inline constexpr int kLargeScaleGpus = 4096;
// Victim goodputs closer than this share of its fair share count as the same (both stall it).
inline constexpr double kVictimMargin = 0.1;

FabricRecommendation recommendFabric(const FabricConditions& c, const FabricEvidence& e);

// "InfiniBand" | "RoCE (lossless Ethernet)".
std::string fabricChoiceWords(FabricKind k);

} // namespace wb
