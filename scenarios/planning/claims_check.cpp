#include "planning/claims_check.h"

#include "engine/number_format.h"
#include "engine/require.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "parallel/transformer_step.h"
#include "reliability/llama3_interruptions.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

constexpr double kSecondsPerDay = 86400.0;
constexpr double kUnlikely = 0.01; // a Poisson tail below 1 % is called improbable

bool positive(double v) {
    return v > 0 && std::isfinite(v);
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

// v as m × 10^e with m rounded to three significant digits in [1, 10): 9.996e24 is 1 × 10²⁵,
// not 10 × 10²⁴.
struct SfTimesTen {
    double mantissa = 0.0;
    int decade = 0;
};

SfTimesTen sfTimesTen(double v) {
    if (!(v > 0) || !std::isfinite(v))
        return {v, 0};
    int decade = static_cast<int>(std::floor(std::log10(v)));
    double m = std::round(v / std::pow(10.0, decade) * 100.0) / 100.0;
    if (m >= 10.0) {
        m /= 10.0;
        ++decade;
    }
    return {m, decade};
}

} // namespace

double timesTenToMantissa(double v) {
    return sfTimesTen(v).mantissa;
}

std::string formatTimesTenTo(double v) {
    static const char* const kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    const SfTimesTen t = sfTimesTen(v);
    if (t.decade < 4)
        return formatSignificant(v, 3);
    std::string power;
    for (const char d : std::to_string(t.decade))
        power += kSuperscript[d - '0'];
    return fill("%1 × 10%2", {formatSignificant(t.mantissa, 3), power});
}

double parseClaimedMfu(std::string_view text) {
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    const bool percent = !text.empty() && text.back() == '%';
    std::string_view digits = percent ? text.substr(0, text.size() - 1) : text;
    while (!digits.empty() && digits.back() == ' ')
        digits.remove_suffix(1);
    const std::optional<double> n = parseNumber(digits);
    const std::string typed(text);
    require(
        n.has_value() && std::isfinite(*n),
        fill("MFU '%1' is not a number: write a fraction (0.41) or a percentage (41%)", {typed}));
    if (percent) {
        require(*n > 0 && *n <= 100, fill("MFU %1 is not a percentage in (0, 100]", {typed}));
        return *n / 100.0;
    }
    require(*n > 0 && *n <= 1,
            fill("MFU %1 is not a fraction in (0, 1]: write %2 or %3%",
                 {typed, formatSignificant(*n / 100.0, 4), formatSignificant(*n, 4)}));
    return *n;
}

double llama3InterruptionsPerGpuDay() {
    const Llama3Record& r = llama3Record();
    return static_cast<double>(r.unexpected) / (static_cast<double>(r.gpus) * r.days);
}

ClaimsVerdict checkClaims(const Claims& c, const ClaimsGpu& gpu) {
    require(c.gpus >= 1, "GPUs must be at least 1");
    require(positive(c.params) && positive(c.tokens) && positive(c.days),
            "parameters, tokens and days must be positive numbers");
    require(positive(gpu.peakFlops) && positive(gpu.hbmBytes),
            "the GPU needs a positive peak and HBM size");
    require(!c.mfu || (positive(*c.mfu) && *c.mfu <= 1.0),
            "a claimed MFU must be a fraction in (0, 1]: 0.41 for 41 %");
    require(!c.statedFlops || positive(*c.statedFlops),
            "stated training FLOPs must be a positive number");
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
    const Llama3Record& llama = llama3Record();
    const std::string best = formatShare(kBestPublishedMfu);
    const std::string llamaRange =
        fill("%1–%2", {formatSignificant(kLlama3MfuLow * 100, 2), formatShare(kLlama3MfuHigh)});
    const double gpuSeconds = c.gpus * c.days * kSecondsPerDay;
    v.gpuDays = c.gpus * c.days;
    v.trainingFlops = trainingFlops(c.params, c.tokens);
    v.impliedMfu = v.trainingFlops / (gpuSeconds * gpu.peakFlops);
    v.tokensPerGpuSecond = c.tokens / gpuSeconds;
    const std::string flopsText = fill("6·N·D = %1 FLOP", {formatTimesTenTo(v.trainingFlops)});
    const std::string peakText =
        fill("%1 (%2 dense BF16)", {formatSi(gpu.peakFlops, "FLOP/s"), gpu.name});
    if (c.statedFlops) {
        v.statedFlopsRatio = *c.statedFlops / v.trainingFlops;
        if (v.statedFlopsRatio < kStatedFlopsLow || v.statedFlopsRatio > kStatedFlopsHigh)
            flag(fill(
                "inconsistent: %1 FLOP were stated, %2 of %3; 6·N·D leaves out only "
                "attention, so the two should nearly agree",
                {formatTimesTenTo(*c.statedFlops), formatShare(v.statedFlopsRatio), flopsText}));
    }
    if (v.impliedMfu > 1.0)
        flag(fill("physically impossible: %1 needs %2 days on %3 GPUs even at %4 of %5, not %6 "
                  "(implied MFU %7)",
                  {flopsText,
                   formatSignificant(v.trainingFlops / (c.gpus * gpu.peakFlops * kSecondsPerDay)),
                   std::to_string(c.gpus), formatShare(1.0), peakText, formatSignificant(c.days),
                   formatShare(v.impliedMfu)}));
    else if (v.impliedMfu > kBestPublishedMfu)
        flag(fill("implausible: the implied MFU %1 is above the best published, %2 (Korthikanti "
                  "et al., 1T model); Llama 3 reached %3",
                  {formatShare(v.impliedMfu), best, llamaRange}));

    if (c.mfu) {
        v.daysAtClaimedMfu = v.trainingFlops / (c.gpus * gpu.peakFlops * *c.mfu) / kSecondsPerDay;
        v.tokensPerGpuSecondAtMfu = gpu.peakFlops * *c.mfu / (v.trainingFlops / c.tokens);
        if (v.impliedMfu > *c.mfu * 1.1)
            flag(fill("inconsistent: at the claimed %1 MFU, %2 takes %3 days, longer than the %4 "
                      "claimed (those days imply %5)",
                      {formatShare(*c.mfu), flopsText, formatSignificant(v.daysAtClaimedMfu),
                       formatSignificant(c.days), formatShare(v.impliedMfu)}));
        else if (v.impliedMfu < *c.mfu * kEffectiveTrainingTime * 0.85)
            flag(fill("inflated: at the claimed %1 MFU the run needs %2 days, but %3 were "
                      "claimed: only %4 of the time trained (Llama 3 kept more than %5), or "
                      "the MFU is inflated and the days imply %6",
                      {formatShare(*c.mfu), formatSignificant(v.daysAtClaimedMfu),
                       formatSignificant(c.days), formatShare(v.impliedMfu / *c.mfu),
                       formatShare(kEffectiveTrainingTime), formatShare(v.impliedMfu)}));
        else if (*c.mfu > kBestPublishedMfu)
            flag(fill("implausible: a claimed MFU of %1 is above the best published, %2 "
                      "(Korthikanti et al., 1T model)",
                      {formatShare(*c.mfu), best}));
    }

    // Model states at the least possible per GPU: 16Ψ shared by every GPU (ZeRO-3).
    const StateBytesPerParam k = stateBytesPerParam(Optimizer::Adam, TrainingPrecision::Bf16Mixed);
    v.modelStateBytesPerGpu = modelStatesPerGpu(c.params, 3, c.gpus, k).total();
    if (v.modelStateBytesPerGpu > gpu.hbmBytes)
        flag(fill("impossible without offloading: mixed-precision Adam needs %1 bytes per "
                  "parameter (ZeRO §3.1), %2 per GPU even fully sharded over %3 GPUs, more than "
                  "the %4 of HBM",
                  {formatSignificant(k.total()), formatBytes(v.modelStateBytesPerGpu),
                   std::to_string(c.gpus), formatBytes(gpu.hbmBytes)}));

    v.weightBytes = k.weights * c.params;
    v.resumableStateBytes = (k.weights + k.optimizer) * c.params;
    if (c.checkpointBytes) {
        if (*c.checkpointBytes < v.weightBytes * 0.95)
            flag(fill("impossible: a checkpoint of %1 is smaller than the BF16 weights alone (%2 "
                      "bytes × N = %3)",
                      {formatBytes(*c.checkpointBytes), formatSignificant(k.weights),
                       formatBytes(v.weightBytes)}));
        else if (*c.checkpointBytes < v.resumableStateBytes * 0.95)
            v.probes.push_back(
                fill("the checkpoint (%1) holds less than weights + Adam state (%2 "
                     "bytes × N = %3): how did training resume with its optimizer "
                     "state?",
                     {formatBytes(*c.checkpointBytes), formatSignificant(k.weights + k.optimizer),
                      formatBytes(v.resumableStateBytes)}));
    }
    if (c.checkpointBytes && c.checkpointSeconds) {
        v.checkpointBandwidth = *c.checkpointBytes / *c.checkpointSeconds;
        if (v.checkpointBandwidth > kStoragePeakBytesPerS)
            flag(fill("implausible: writing %1 in %2 s is %3, above Llama 3's storage peak of %4 "
                      "(%5 sustained), unless it went to host memory first",
                      {formatBytes(*c.checkpointBytes), formatSignificant(*c.checkpointSeconds),
                       formatSi(v.checkpointBandwidth, "B/s"),
                       formatSi(kStoragePeakBytesPerS, "B/s"),
                       formatSi(kStorageSustainedBytesPerS, "B/s")}));
        else if (v.checkpointBandwidth > kStorageSustainedBytesPerS)
            v.probes.push_back(fill("a checkpoint at %1 beats Llama 3's sustained %2: "
                                    "asynchronous, to host memory, or sharded to local disks?",
                                    {formatSi(v.checkpointBandwidth, "B/s"),
                                     formatSi(kStorageSustainedBytesPerS, "B/s")}));
    }

    v.expectedFailures = llama3InterruptionsPerGpuDay() * v.gpuDays;
    if (c.failures) {
        const double seen = std::floor(*c.failures);
        const double atMost = poissonAtMost(seen, v.expectedFailures);
        v.fewFailuresChance = atMost;
        const double atLeast = seen < 1 ? 1.0 : 1.0 - poissonAtMost(seen - 1, v.expectedFailures);
        if (atMost < kUnlikely)
            flag(fill("improbable: %1 interruptions on %2 GPUs over %3 days, where Llama 3's "
                      "rate (%4 in %5 days on %6 GPUs) predicts about %7 (chance of so few: "
                      "%8)",
                      {formatSignificant(seen), std::to_string(c.gpus), formatSignificant(c.days),
                       std::to_string(llama.unexpected), std::to_string(llama.days),
                       std::to_string(llama.gpus), formatSignificant(v.expectedFailures),
                       formatSignificant(atMost, 2)}));
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
