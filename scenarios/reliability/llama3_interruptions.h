#pragma once
// Llama 3's interruption record (Grattafiori et al., "The Llama 3 Herd of Models",
// arXiv:2407.21783, §3.3.4 and Table 5; FACTS.md §4.3–4.5), as published, and the failure
// rates a simulator derives from it.
#include "reliability/failure_simulator.h"

#include <string>
#include <vector>

namespace wb {

struct InterruptionCause {
    std::string component; // "Faulty GPU", "GPU HBM3 Memory", ...
    std::string category;  // "GPU", "Host", "Network", "Dependency", ...
    int count = 0;
    double printedPercent = 0.0; // as printed in Table 5 (see llama3TableNote)
};

struct Llama3Record {
    int days = 54;
    int gpus = 16384;
    int interruptions = 466;
    int planned = 47;
    int unexpected = 419;
    double printedGpuPercent = 58.7;      // "GPU issues … 58.7% of all unexpected issues"
    double printedHardwarePercent = 78.0; // "Approximately 78% … confirmed hardware issues"
    int manualInterventions = 3;
    std::vector<InterruptionCause> causes; // Table 5, in the paper's order
};

const Llama3Record& llama3Record();

// The paper's own inconsistency, in words: the counts sum to 419, but "Faulty GPU" prints
// 30.1% where 148/419 = 35.3%, so the printed percentages sum to 94.9% and the 58.7% GPU share
// is the sum of printed GPU rows (64.0% from the counts). FACTS.md §4.4.
std::string llama3TableNote();

// One failure source per Table 5 row, its rate scaled from the 16,384-GPU job to `gpus`
// (rate ∝ GPUs): per-GPU MTBF = 16,384 × 54 × 24 h / count (FACTS.md §4.5, assuming the job
// ran at 16K GPUs throughout). Throws std::invalid_argument for gpus < 1.
std::vector<FailureSource> llama3FailureSources(int gpus);

// Per-GPU MTBF for the GPU-category rows alone: 16,384 × 54 × 24 h / 268 ≈ 79,000 h, about
// 9 years (FACTS.md §4.5).
double llama3GpuMtbfHours();

// Llama 3's scale with GPU faults only: 16,384 GPUs at llama3GpuMtbfHours() for the 54-day
// snapshot. The interval, checkpoint and restart times are the caller's (the paper gives none).
JobConfig llama3ScaleGpuJob(double intervalS, double checkpointS, double restartS);

} // namespace wb
