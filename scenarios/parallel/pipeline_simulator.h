#pragma once
// The three pipeline schedules executed op by op: each device runs its forward and backward
// passes in the order its schedule prescribes, and an op starts when the device is free and
// the op it depends on (the previous stage's forward, the next stage's backward) has
// finished and its activations have crossed the stage boundary. The bubble is then measured
// from the ops, not assumed, and must come out at (P−1)/(V·M) of the ideal compute time
// (pipeline_schedule.h) when the sends cost nothing.
//
// Orders (Narayanan et al., SC'21 §2.2; Megatron-LM's schedules.py):
//  - GPipe: all M forwards, then all M backwards.
//  - 1F1B (PipeDream-Flush): P−d−1 warm-up forwards on device d, then one forward / one
//    backward alternately, then the remaining backwards; at most P micro-batches in flight.
//  - Interleaved 1F1B: V model chunks per device (virtual stage c·P + d); micro-batches go in
//    groups of P through chunk 0, then chunk 1, ...; warm-up (P−d−1)·2 + (V−1)·P micro-steps.
//    Needs M to be a multiple of P, as Megatron-LM does.
#include <string>
#include <vector>

namespace wb {

enum class PipelineScheduleKind { GPipe, OneFOneB, Interleaved };
std::string scheduleName(PipelineScheduleKind k); // "GPipe", "1F1B", "interleaved 1F1B"

struct PipelineOp {
    int device = 0;
    int microbatch = 0;
    int chunk = 0; // model chunk on this device (0 unless interleaved)
    bool backward = false;
    double startS = 0.0;
    double endS = 0.0;
};

struct PipelineRun {
    std::vector<PipelineOp> ops; // in the order they were placed; per device in issue order
    double makespanS = 0.0;      // first forward to last backward
    double busyPerDeviceS = 0.0; // M·(forward + backward): the ideal compute time
    double bubbleS = 0.0;        // makespan − busy (every device idles the same total)
    double bubbleOfIdeal = 0.0;  // bubble ÷ busy, to compare with (P−1)/(V·M)
    // Most micro-batch activations device 0 holds at once, in whole-stage units (a chunk
    // holds 1/V of a stage's layers): GPipe holds M, 1F1B at most P.
    double peakActivationsInFlight = 0.0;
};

struct PipelineTiming {
    double forwardS = 1.0;  // one micro-batch through one whole stage (all V chunks)
    double backwardS = 2.0; // backward ≈ 2× forward (the 6ND split: 2 forward, 4 backward)
    double sendS = 0.0;     // one activation (or gradient) crossing a stage boundary
};

// Throws std::invalid_argument for stages/micro-batches/chunks < 1, non-finite or negative
// times, V > 1 with a schedule other than interleaved, or interleaving with M not a multiple
// of P.
PipelineRun simulatePipeline(PipelineScheduleKind kind, int stages, int microbatches,
                             int interleave, const PipelineTiming& timing);

} // namespace wb
