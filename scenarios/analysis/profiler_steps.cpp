#include "analysis/profiler_steps.h"

#include "analysis/gpu_launches.h"

#include <algorithm>
#include <charconv>

namespace wb {

namespace {

constexpr std::string_view kAnStepPrefix = "ProfilerStep#";

// The step holding instant `ts` (steps sorted by start), or -1.
int anStepAt(const std::vector<ProfilerStep>& steps, std::int64_t ts) {
    // The last step starting at or before ts; steps do not nest, so no earlier one can hold
    // ts when it does not.
    auto it = std::upper_bound(steps.begin(), steps.end(), ts,
                               [](std::int64_t t, const ProfilerStep& s) { return t < s.startNs; });
    if (it == steps.begin())
        return -1;
    --it;
    return ts < it->endNs || ts == it->startNs ? static_cast<int>(it - steps.begin()) : -1;
}

} // namespace

StepAssignment assignSteps(const TraceStore& s, const std::vector<std::uint32_t>& launches,
                           const AnalysisRange& range) {
    StepAssignment out;
    for (const StoredEvent& e : s.events()) {
        if ((e.kind != EventKind::Annotation && e.kind != EventKind::CpuOp) || e.phase != 'X')
            continue;
        const std::string_view name = s.strings().text(e.name);
        if (!name.starts_with(kAnStepPrefix) ||
            s.strings().text(e.category) == "gpu_user_annotation")
            continue;
        ProfilerStep step;
        const std::string_view digits = name.substr(kAnStepPrefix.size());
        if (std::from_chars(digits.data(), digits.data() + digits.size(), step.number).ec !=
            std::errc())
            continue; // "ProfilerStep#" without a number is not a step
        std::int64_t a = 0, b = 0;
        if (!clipToRange(e, range, a, b))
            continue;
        step.startNs = a;
        step.endNs = b;
        out.steps.push_back(step);
    }
    std::sort(out.steps.begin(), out.steps.end(),
              [](const ProfilerStep& x, const ProfilerStep& y) { return x.startNs < y.startNs; });
    const bool whole = out.steps.empty();
    if (whole && s.hasTime() && std::max(s.minNs(), range.fromNs) < std::min(s.maxNs(), range.toNs))
        out.steps.push_back(
            {-1, std::max(s.minNs(), range.fromNs), std::min(s.maxNs(), range.toNs)});

    out.stepOfEvent.assign(s.events().size(), -1);
    for (std::size_t i = 0; i < s.events().size(); ++i) {
        const StoredEvent& e = s.events()[i];
        std::int64_t a = 0, b = 0;
        if (!isGpuActivity(e.kind) || e.phase != 'X' || !clipToRange(e, range, a, b))
            continue;
        if (whole) {
            out.stepOfEvent[i] = out.steps.empty() ? -1 : 0;
            continue;
        }
        const std::uint32_t l = launches[i];
        int k = l != kNoLaunch ? anStepAt(out.steps, s.events()[l].startNs) : -1;
        // No launch, or one outside every (clipped) step: the kernel's own start decides.
        if (k < 0)
            k = anStepAt(out.steps, e.startNs);
        out.stepOfEvent[i] = k;
    }
    return out;
}

std::string stepLabel(const ProfilerStep& step) {
    if (step.number < 0)
        return "whole trace";
    return std::string(kAnStepPrefix).append(std::to_string(step.number));
}

} // namespace wb
