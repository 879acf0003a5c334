#pragma once
// The ProfilerStep windows of one rank and which step each GPU event belongs to.
// A step is a CPU-side "ProfilerStep#N" annotation (user_annotation or cpu_op; the GPU-side
// gpu_user_annotation copies are ignored). A GPU event belongs to the step in which its
// launch started (gpu_launches.h), since a kernel often runs after its step closed on the
// CPU; without a matched launch, to the step its own start falls in. A trace without
// annotations is one step spanning it all (number -1). Unlike HTA, which drops the last
// ProfilerStep as possibly incomplete, every step is kept: the figures say what ran.
#include "analysis/analysis_scope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct ProfilerStep {
    long number = -1; // N of ProfilerStep#N; -1 for the whole trace
    std::int64_t startNs = 0, endNs = 0;
};

struct StepAssignment {
    std::vector<ProfilerStep> steps; // by start
    // For every event index: the index into `steps`, or -1 (not GPU activity, outside every
    // step, or outside the range).
    std::vector<int> stepOfEvent;
};

// Steps overlapping `range` (clipped to it), and the GPU events inside the range assigned.
StepAssignment assignSteps(const TraceStore& store, const std::vector<std::uint32_t>& launches,
                           const AnalysisRange& range);

// "ProfilerStep#12", or "whole trace" for number -1.
std::string stepLabel(const ProfilerStep& step);

} // namespace wb
