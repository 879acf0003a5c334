#pragma once
// The resume walk (scale-fluency): a claims sheet about a training run, checked against the same
// models the other lessons use: 6·N·D (trainingFlops), MFU (PaLM's definition, against the
// catalogue's dense BF16 peak), ZeRO model states (memory_budget), Llama 3's interruption rate and
// storage bandwidth. Every inconsistency is explained with the numbers that contradict it.
//
// Reference figures (FACTS.md):
//  - best published MFU 56.3 % (Korthikanti et al. Table 5, 1T model on A100; §7); PaLM
//    46.2 % (§9.4); Llama 3 38–43 % (§4.2);
//  - Llama 3: 419 unexpected interruptions in 54 days on 16,384 GPUs (§4.3, §4.5, read from
//    reliability/llama3_interruptions.h); "higher than 90 % effective training time";
//    Tectonic storage 2 TB/s sustained, 7 TB/s peak (§4.1).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

// The reference figures the check compares with; scenarios print the same constants.
inline constexpr double kBestPublishedMfu = 0.563;    // Korthikanti Table 5, 1T on A100 (§7)
inline constexpr double kStoragePeakBytesPerS = 7e12; // Llama 3's Tectonic peak (§4.1)
inline constexpr double kStorageSustainedBytesPerS = 2e12;
inline constexpr double kLlama3MfuLow = 0.38;         // Llama 3 Table 4, 16K GPUs at 131K context
inline constexpr double kLlama3MfuHigh = 0.43;        // Llama 3 Table 4, 8K GPUs
inline constexpr double kEffectiveTrainingTime = 0.9; // Llama 3 §3.3.4: "higher than 90%"
// A stated FLOP count agrees with 6·N·D within these ratios: 6·N·D leaves out attention (a
// few percent at 8K context, more at long context), so a stated count may run above it, but
// not far, and not below it by more than rounding.
inline constexpr double kStatedFlopsLow = 0.9;
inline constexpr double kStatedFlopsHigh = 1.3;

struct Claims {
    int gpus = 1;
    double params = 0.0;               // N
    double tokens = 0.0;               // D
    double days = 0.0;                 // wall-clock
    std::optional<double> mfu;         // claimed, as a fraction in (0, 1]
    std::optional<double> statedFlops; // the training FLOPs the claims state, if any
    std::optional<double> checkpointBytes;
    std::optional<double> checkpointSeconds; // time to write one checkpoint
    std::optional<double> failures;          // interruptions seen over the run
};

struct ClaimsGpu {
    std::string name;
    double peakFlops = 0.0; // dense BF16, per GPU
    double hbmBytes = 0.0;
};

struct ClaimsVerdict {
    double trainingFlops = 0.0;           // 6·N·D
    double impliedMfu = 0.0;              // 6ND ÷ (GPUs × peak × wall time)
    double statedFlopsRatio = 0.0;        // stated FLOPs ÷ 6ND; 0 when none is stated
    double gpuDays = 0.0;                 // GPUs × wall-clock days
    double tokensPerGpuSecond = 0.0;      // D ÷ (GPUs × wall time): the throughput claimed
    double tokensPerGpuSecondAtMfu = 0.0; // peak × MFU ÷ 6N; 0 when no MFU is claimed
    double daysAtClaimedMfu = 0.0;        // 0 when no MFU is claimed
    double modelStateBytesPerGpu = 0.0;   // 16Ψ fully sharded over every GPU (ZeRO-3)
    double weightBytes = 0.0;             // bf16 weights, 2Ψ
    double resumableStateBytes = 0.0;     // weights + optimizer state, 14Ψ
    double checkpointBandwidth = 0.0;     // bytes/s; 0 when not claimed
    double expectedFailures = 0.0;        // at Llama 3's rate
    double fewFailuresChance = 1.0;       // Poisson P(X ≤ claimed); 1 when none is claimed
    bool consistent = true;
    std::vector<std::string> issues;
    std::vector<std::string> probes; // what an interviewer would ask next
};

// Throws std::invalid_argument for non-positive or non-finite inputs, and for a claimed MFU
// above 1 (a fraction, not a percentage).
ClaimsVerdict checkClaims(const Claims& c, const ClaimsGpu& gpu);

// A claimed MFU as typed: a fraction in (0, 1] ("0.41") or a percentage in (0, 100] with its
// sign ("41%", "41 %"). A bare number above 1 ("41") is rejected rather than read as 4,100 %;
// throws std::invalid_argument saying how to write it.
double parseClaimedMfu(std::string_view text);

// A FLOP count as a person writes it, "3.79 × 10²⁵": SI prefixes stop at exa, and 1e25 FLOP
// would read "37.9 million EFLOP". The mantissa is what the text shows before "× 10".
std::string formatTimesTenTo(double v);
double timesTenToMantissa(double v);

// Llama 3's unexpected interruptions per GPU-day: 419 ÷ (16,384 × 54), from llama3Record().
double llama3InterruptionsPerGpuDay();

} // namespace wb
