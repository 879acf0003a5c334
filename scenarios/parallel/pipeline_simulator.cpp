#include "parallel/pipeline_simulator.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

std::string scheduleName(PipelineScheduleKind k) {
    switch (k) {
    case PipelineScheduleKind::GPipe:
        return "GPipe";
    case PipelineScheduleKind::OneFOneB:
        return "1F1B";
    case PipelineScheduleKind::Interleaved:
        break;
    }
    return "interleaved 1F1B";
}

namespace {

struct Slot {
    int microbatch;
    int chunk;
    bool backward;
};

// Megatron-LM's micro-step → (micro-batch, chunk) mapping for the interleaved schedule:
// micro-batches advance in groups of P through chunk 0, then chunk 1, ...; backwards walk
// the chunks in reverse.
Slot interleavedSlot(int k, int P, int V, bool backward) {
    const int inGroup = k % (P * V);
    int chunk = inGroup / P;
    if (backward)
        chunk = V - 1 - chunk;
    return {(k / (P * V)) * P + k % P, chunk, backward};
}

std::vector<Slot> deviceOrder(PipelineScheduleKind kind, int d, int P, int M, int V) {
    std::vector<Slot> order;
    if (kind == PipelineScheduleKind::GPipe) {
        for (int m = 0; m < M; ++m)
            order.push_back({.microbatch = m, .chunk = 0, .backward = false});
        for (int m = 0; m < M; ++m)
            order.push_back({.microbatch = m, .chunk = 0, .backward = true});
        return order;
    }
    const int total = M * V;
    const int warm = kind == PipelineScheduleKind::OneFOneB
                         ? std::min(P - d - 1, M)
                         : std::min((P - d - 1) * 2 + (V - 1) * P, total);
    auto forward = [&](int k) {
        return kind == PipelineScheduleKind::OneFOneB
                   ? Slot{.microbatch = k, .chunk = 0, .backward = false}
                   : interleavedSlot(k, P, V, false);
    };
    auto backward = [&](int k) {
        return kind == PipelineScheduleKind::OneFOneB
                   ? Slot{.microbatch = k, .chunk = 0, .backward = true}
                   : interleavedSlot(k, P, V, true);
    };
    for (int k = 0; k < warm; ++k)
        order.push_back(forward(k));
    for (int i = 0; i < total - warm; ++i) {
        order.push_back(forward(warm + i));
        order.push_back(backward(i));
    }
    for (int k = total - warm; k < total; ++k)
        order.push_back(backward(k));
    return order;
}

} // namespace

PipelineRun simulatePipeline(PipelineScheduleKind kind, int P, int M, int V,
                             const PipelineTiming& timing) {
    if (P < 1 || M < 1 || V < 1)
        throw std::invalid_argument(
            "stages, micro-batches and model chunks must each be at least 1");
    if (V > 1 && kind != PipelineScheduleKind::Interleaved)
        throw std::invalid_argument("model chunks V > 1 need the interleaved schedule");
    if (kind == PipelineScheduleKind::Interleaved && M % P != 0)
        throw std::invalid_argument(fill("the interleaved schedule needs the micro-batches (%1) "
                                         "to be a multiple of the stages (%2)",
                                         {std::to_string(M), std::to_string(P)}));
    for (double x : {timing.forwardS, timing.backwardS, timing.sendS})
        if (!std::isfinite(x) || x < 0)
            throw std::invalid_argument("pass and send times must be finite and not negative");
    if (static_cast<long long>(P) * M * V > 4'000'000)
        throw std::invalid_argument("stages × micro-batches × chunks is too large to simulate "
                                    "(over 4 million passes)");

    const int S = P * V; // virtual stages
    const double fwd = timing.forwardS / V, bwd = timing.backwardS / V;
    // Finish times per (virtual stage, micro-batch); < 0 = not run yet.
    std::vector<double> fDone(static_cast<std::size_t>(S) * static_cast<std::size_t>(M), -1.0),
        bDone(fDone);
    auto at = [M](int vs, int m) {
        return static_cast<std::size_t>(vs) * static_cast<std::size_t>(M) +
               static_cast<std::size_t>(m);
    };

    std::vector<std::vector<Slot>> orders;
    for (int d = 0; d < P; ++d)
        orders.push_back(deviceOrder(kind, d, P, M, V));
    std::vector<std::size_t> next(static_cast<std::size_t>(P), 0);
    std::vector<double> free(static_cast<std::size_t>(P), 0.0);

    PipelineRun run;
    int inFlight = 0, peak = 0;
    std::size_t remaining = 0;
    for (const auto& o : orders)
        remaining += o.size();
    // Each pass places every op whose dependency is done; an op's start depends only on its
    // device's previous op and its dependency, so the pass order cannot change the result.
    while (remaining > 0) {
        bool placed = false;
        for (int d = 0; d < P; ++d) {
            const auto ud = static_cast<std::size_t>(d);
            while (next[ud] < orders[ud].size()) {
                const Slot s = orders[ud][next[ud]];
                const int vs = s.chunk * P + d;
                double ready = 0.0;
                bool crossDevice = false;
                if (!s.backward) {
                    if (vs > 0) {
                        ready = fDone[at(vs - 1, s.microbatch)];
                        crossDevice = P > 1;
                    }
                } else if (vs < S - 1) {
                    ready = bDone[at(vs + 1, s.microbatch)];
                    crossDevice = P > 1;
                } else {
                    ready = fDone[at(vs, s.microbatch)];
                }
                if (ready < 0)
                    break; // waits for another device
                if (crossDevice)
                    ready += timing.sendS;
                PipelineOp op;
                op.device = d;
                op.microbatch = s.microbatch;
                op.chunk = s.chunk;
                op.backward = s.backward;
                op.startS = std::max(free[ud], ready);
                op.endS = op.startS + (s.backward ? bwd : fwd);
                free[ud] = op.endS;
                (s.backward ? bDone : fDone)[at(vs, s.microbatch)] = op.endS;
                if (d == 0) {
                    inFlight += s.backward ? -1 : 1;
                    peak = std::max(peak, inFlight);
                }
                run.ops.push_back(op);
                ++next[ud];
                --remaining;
                placed = true;
            }
        }
        if (!placed)
            throw std::logic_error("pipeline schedule deadlocked"); // a bug in an order above
    }
    run.makespanS = *std::max_element(free.begin(), free.end());
    run.busyPerDeviceS = M * (timing.forwardS + timing.backwardS);
    run.bubbleS = run.makespanS - run.busyPerDeviceS;
    run.bubbleOfIdeal = run.busyPerDeviceS > 0 ? run.bubbleS / run.busyPerDeviceS : 0.0;
    run.peakActivationsInFlight = static_cast<double>(peak) / V;
    return run;
}

} // namespace wb
