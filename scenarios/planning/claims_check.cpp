#include "planning/claims_check.h"

#include "engine/number_format.h"
#include "engine/require.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "parallel/transformer_step.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace wb {

namespace {

constexpr double kSecondsPerDay = 86400.0;
constexpr double kEffectiveTrainingTime = 0.9; // Llama 3: "higher than 90%" (FACTS §4.3)
constexpr double kUnlikely = 0.01;             // a Poisson tail below 1 % is called improbable

bool positive(double v) {
    return v > 0 && std::isfinite(v);
}

// FLOP counts run to 1e25: "3.15e+23", where SI prefixes would stop at exa.
std::string flops(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

// P(X ≤ k) for X ~ Poisson(λ), summed in log space so λ in the thousands does not underflow.
double poissonAtMost(double k, double lambda) {
    if (lambda <= 0)
        return 1.0;
    double sum = 0.0;
    for (int i = 0; i <= static_cast<int>(k); ++i)
        sum += std::exp(i * std::log(lambda) - lambda - std::lgamma(i + 1.0));
    return std::min(sum, 1.0);
}

} // namespace

double llama3InterruptionsPerGpuDay() {
    return 419.0 / (16384.0 * 54.0);
}

ClaimsVerdict checkClaims(const Claims& c, const ClaimsGpu& gpu) {
    require(c.gpus >= 1, "GPUs must be at least 1");
    require(positive(c.params) && positive(c.tokens) && positive(c.days),
            "parameters, tokens and days must be positive numbers");
    require(positive(gpu.peakFlops) && positive(gpu.hbmBytes),
            "the GPU needs a positive peak and HBM size");
    require(!c.mfu || positive(*c.mfu), "a claimed MFU must be a positive fraction");
    require(!c.checkpointBytes || positive(*c.checkpointBytes),
            "a checkpoint size must be a positive number of bytes");
    require(!c.checkpointSeconds || positive(*c.checkpointSeconds),
            "a checkpoint time must be a positive number of seconds");
    require(!c.failures || (*c.failures >= 0 && *c.failures <= 1e6 && std::isfinite(*c.failures)),
            "failures seen must be 0…1000000");

    ClaimsVerdict v;
    auto flag = [&](std::string issue) {
        v.consistent = false;
        v.issues.push_back(std::move(issue));
    };
    const double gpuSeconds = c.gpus * c.days * kSecondsPerDay;
    v.trainingFlops = trainingFlops(c.params, c.tokens);
    v.impliedMfu = v.trainingFlops / (gpuSeconds * gpu.peakFlops);
    const std::string flopsText = fill("6·N·D = %1 FLOP", {flops(v.trainingFlops)});
    const std::string peakText =
        fill("%1 (%2 dense BF16)", {formatSi(gpu.peakFlops, "FLOP/s"), gpu.name});
    if (v.impliedMfu > 1.0)
        flag(fill("physically impossible: %1 needs %2 days on %3 GPUs even at 100 % of %4, not %5 "
                  "(implied MFU %6)",
                  {flopsText,
                   formatSignificant(v.trainingFlops / (c.gpus * gpu.peakFlops * kSecondsPerDay)),
                   std::to_string(c.gpus), peakText, formatSignificant(c.days),
                   formatShare(v.impliedMfu)}));
    else if (v.impliedMfu > kBestPublishedMfu)
        flag(
            fill("implausible: the implied MFU %1 is above the best published, 56.3 % (Korthikanti "
                 "et al., 1T model); Llama 3 reached 38–43 %",
                 {formatShare(v.impliedMfu)}));

    if (c.mfu) {
        v.daysAtClaimedMfu = v.trainingFlops / (c.gpus * gpu.peakFlops * *c.mfu) / kSecondsPerDay;
        if (*c.mfu > 1.0)
            flag(fill("physically impossible: a claimed MFU of %1 exceeds the peak itself (MFU is "
                      "a fraction: 0.45 means 45 %)",
                      {formatShare(*c.mfu)}));
        else if (v.impliedMfu > *c.mfu * 1.1)
            flag(fill("inconsistent: at the claimed %1 MFU, %2 takes %3 days, longer than the %4 "
                      "claimed (those days imply %5)",
                      {formatShare(*c.mfu), flopsText, formatSignificant(v.daysAtClaimedMfu),
                       formatSignificant(c.days), formatShare(v.impliedMfu)}));
        else if (v.impliedMfu < *c.mfu * kEffectiveTrainingTime * 0.85)
            flag(fill("inconsistent: at the claimed %1 MFU the run needs %2 days, but %3 were "
                      "claimed: only %4 of the time trained (Llama 3 kept more than 90 %) — or the "
                      "MFU is inflated",
                      {formatShare(*c.mfu), formatSignificant(v.daysAtClaimedMfu),
                       formatSignificant(c.days), formatShare(v.impliedMfu / *c.mfu)}));
    }

    // Model states at the least possible per GPU: 16Ψ shared by every GPU (ZeRO-3).
    const StateBytesPerParam k = stateBytesPerParam(Optimizer::Adam, TrainingPrecision::Bf16Mixed);
    v.modelStateBytesPerGpu = modelStatesPerGpu(c.params, 3, c.gpus, k).total();
    if (v.modelStateBytesPerGpu > gpu.hbmBytes)
        flag(fill("impossible without offloading: mixed-precision Adam needs 16 bytes per "
                  "parameter (ZeRO §3.1), %1 per GPU even fully sharded over %2 GPUs, more than "
                  "the %3 of HBM",
                  {formatBytes(v.modelStateBytesPerGpu), std::to_string(c.gpus),
                   formatBytes(gpu.hbmBytes)}));

    v.weightBytes = k.weights * c.params;
    v.resumableStateBytes = (k.weights + k.optimizer) * c.params;
    if (c.checkpointBytes) {
        if (*c.checkpointBytes < v.weightBytes * 0.95)
            flag(fill("impossible: a checkpoint of %1 is smaller than the BF16 weights alone (2 "
                      "bytes × N = %2)",
                      {formatBytes(*c.checkpointBytes), formatBytes(v.weightBytes)}));
        else if (*c.checkpointBytes < v.resumableStateBytes * 0.95)
            v.probes.push_back(
                fill("the checkpoint (%1) holds less than weights + Adam state (14 "
                     "bytes × N = %2): how did training resume with its optimizer "
                     "state?",
                     {formatBytes(*c.checkpointBytes), formatBytes(v.resumableStateBytes)}));
    }
    if (c.checkpointBytes && c.checkpointSeconds) {
        v.checkpointBandwidth = *c.checkpointBytes / *c.checkpointSeconds;
        if (v.checkpointBandwidth > kStoragePeakBytesPerS)
            flag(fill("implausible: writing %1 in %2 s is %3, above Llama 3's storage peak of 7 "
                      "TB/s (2 TB/s sustained) — unless it went to host memory first",
                      {formatBytes(*c.checkpointBytes), formatSignificant(*c.checkpointSeconds),
                       formatSi(v.checkpointBandwidth, "B/s")}));
        else if (v.checkpointBandwidth > kStorageSustainedBytesPerS)
            v.probes.push_back(fill("a checkpoint at %1 beats Llama 3's sustained 2 TB/s: "
                                    "asynchronous, to host memory, or sharded to local disks?",
                                    {formatSi(v.checkpointBandwidth, "B/s")}));
    }

    v.expectedFailures = llama3InterruptionsPerGpuDay() * c.gpus * c.days;
    if (c.failures) {
        const double seen = std::floor(*c.failures);
        const double atMost = poissonAtMost(seen, v.expectedFailures);
        const double atLeast = seen < 1 ? 1.0 : 1.0 - poissonAtMost(seen - 1, v.expectedFailures);
        if (atMost < kUnlikely)
            flag(fill("improbable: %1 interruptions on %2 GPUs over %3 days, where Llama 3's "
                      "rate (419 in 54 days on 16,384 GPUs) predicts about %4 (chance of so few: "
                      "%5)",
                      {formatSignificant(seen), std::to_string(c.gpus), formatSignificant(c.days),
                       formatSignificant(v.expectedFailures), formatSignificant(atMost, 2)}));
        else if (atLeast < kUnlikely)
            flag(fill("unusual: %1 interruptions where Llama 3's rate predicts about %2: an "
                      "unhealthy cluster, or planned interruptions counted too?",
                      {formatSignificant(seen), formatSignificant(v.expectedFailures)}));
    }
    if (v.expectedFailures >= 10.0)
        v.probes.push_back(
            fill("at Llama 3's rate a failure comes every %1 h: what was the checkpoint interval, "
                 "and the restart time?",
                 {formatSignificant(24.0 / (llama3InterruptionsPerGpuDay() * c.gpus))}));
    return v;
}

} // namespace wb
