#pragma once
// A seeded generator of multi-rank PyTorch-profiler (Kineto) traces for the slowdown triage
// (slowdown-triage): one JSON text per rank, shaped like a data-parallel training job. Each step
// runs a forward pass and a backward pass of transformer layers on the compute stream; gradient
// buckets are all-reduced on a second (NCCL) stream; the optimizer runs once every bucket is
// reduced. Four cases: healthy (bucketed all-reduces overlap the backward pass), straggler
// (one rank computes slower; the others wait inside the all-reduce), fabric (every
// collective is slower on every rank) and broken overlap (all-reduces start only after the
// backward pass). The texts are parsed by the real importer, like a user's files.
//
// Collectives are consistent across ranks: all-reduce k ends on every rank at the same
// instant, the moment the last rank entered it plus the transfer time, so no rank finishes
// before the last one started. Each rank's clock carries its own offset (skew), as real
// multi-host traces do.
#include "import/chrome_trace_result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {

enum class TriageCase { Healthy, Straggler, Fabric, BrokenOverlap };

const std::vector<TriageCase>& allTriageCases();
std::string triageCaseName(TriageCase c);  // "healthy", "straggler", "fabric", "overlap"
std::string triageCaseTitle(TriageCase c); // "Healthy", "Straggler", ...

struct TraceGeneratorConfig {
    TriageCase triageCase = TriageCase::Healthy;
    int ranks = 8;
    std::uint64_t seed = 1;
    int stragglerRank = 0;               // used by the straggler case
    double stragglerSlowdown = 1.3;      // the straggler's compute time factor
    double fabricSlowdown = 3.0;         // every collective's transfer time factor (fabric case)
    int steps = 3;                       // profiler steps per trace
    int layers = 12;                     // transformer layers
    int layersPerBucket = 2;             // gradient bucket = this many layers
    double bucketBytes = 100e6;          // bytes all-reduced per bucket
    double busBandwidthBytesPerS = 40e9; // healthy link rate for the α-β ring cost
    // The noise every case carries, so a healthy run's waits are small and explained: each
    // GPU's systematic speed within ± rankSpeedSpread (clocks differ a little from GPU to GPU),
    // each kernel within ± kernelJitter, and the host's data loading between steps takes
    // hostGapMinUs to hostGapMaxUs. Which rank reaches an all-reduce last then changes from
    // bucket to bucket, and every rank waits a little. A spread of a few per cent would make
    // the fastest GPUs wait for the slowest every time: a mild straggler, not a healthy run.
    double rankSpeedSpread = 0.002;
    double kernelJitter = 0.03;
    double hostGapMinUs = 400.0;
    double hostGapMaxUs = 900.0;
    double clockSkewUs = 3000.0; // each host's clock offset lies within ± this
};

// One Kineto JSON text per rank, rank 0 first. Deterministic for a given config.
std::vector<std::string> generateKinetoTraces(const TraceGeneratorConfig& config);

// The same traces parsed by the Chrome/Kineto importer (throws std::runtime_error if the
// importer rejects one, which would be a bug in the generator).
std::vector<std::shared_ptr<const ChromeTraceResult>>
generateImportedTraces(const TraceGeneratorConfig& config);

// Parses one Kineto JSON text through the importer (`name` becomes the result's path).
std::shared_ptr<const ChromeTraceResult> importKinetoText(std::string text,
                                                          const std::string& name);

} // namespace wb
