#include "reliability/silent_hang_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/collective_hang.h"

#include <algorithm>
#include <memory>

namespace wb {

namespace {

const char* kNvml = "NVML GPU-Util (nvmlUtilization_t.gpu) is the share of time one or more "
                    "kernels ran (NVML API reference)";

// Nominal times for the timeline, so the picture has a time axis: 4 ms of compute before each
// collective, then the collective at 100 GB/s bus bandwidth plus 50 µs latency. Only the order
// of calls matters to the hang; these durations just lay it out.
constexpr double kComputeS = 4e-3;
double callS(const CollectiveCall& c) {
    return 50e-6 + static_cast<double>(c.bytes) / 100e9;
}

std::string callShort(const CollectiveCall& c) {
    return fill("%1 %2", {c.op, formatBytes(static_cast<double>(c.bytes))});
}

struct SilentHangModel {
    HangSimulation sim;
    HangTriage triage;
    std::vector<double> startS; // when healthy ranks start call k
    double hangS = 0;           // when the stuck collective was entered
    double endS = 0;
};

bool suspected(const std::vector<int>& suspects, int rank) {
    return std::find(suspects.begin(), suspects.end(), rank) != suspects.end();
}

// One row per rank: its calls as the flight recorder has them; a call that never completes
// spins to the end of the axis; a dead rank's row ends where its process did.
ScheduleFrame timeline(const SilentHangModel& m, const std::vector<int>& suspects, double t) {
    ScheduleFrame f;
    f.title = "Each rank's collectives (flight recorder, time laid out nominally)";
    // Palette order blue, orange, green, red: a dead process takes the red.
    f.categories = {"completed", "started, spinning", "alive, not issued", "process dead"};
    f.endS = m.endS;
    f.cursorS = t >= 1.0 ? -1.0 : t * m.endS;
    f.axisUnit = "ms";
    f.axisUnitS = 1e-3;
    for (const RankFlightRecord& r : m.sim.ranks) {
        ScheduleRow row;
        row.label =
            fill("rank %1%2", {std::to_string(r.rank), suspected(suspects, r.rank) ? " ?" : ""});
        for (const FlightEntry& e : r.entries) {
            const double s = m.startS[static_cast<std::size_t>(e.seq)];
            const bool done = e.state == CallState::Completed;
            row.bars.push_back({.startS = s,
                                .endS = done ? s + callS(e.call) : m.endS,
                                .kind = ScheduleKind::AllReduce,
                                .label = std::to_string(e.seq),
                                .shade = 0,
                                .tip = fill("#%1 %2, %3", {std::to_string(e.seq), callShort(e.call),
                                                           callStateName(e.state)}),
                                .category = done ? 0 : 1});
        }
        // From the hang on, a dead rank's row or a live one that never reached the stuck call.
        const bool dead = !r.alive;
        if (dead || (m.sim.hung && r.stateAt(m.sim.stuckSeq) == CallState::NotIssued))
            row.bars.push_back({.startS = m.hangS,
                                .endS = m.endS,
                                .kind = ScheduleKind::AllReduce,
                                .label = dead ? "dead" : "elsewhere",
                                .shade = 0,
                                .tip = dead ? "the process exited: no more calls"
                                            : "alive, but never called the stuck collective",
                                .category = dead ? 3 : 2});
        f.rows.push_back(row);
    }
    f.caption = m.sim.hung
                    ? fill("collective #%1 of %2 never completes; from %3 nothing progresses",
                           {std::to_string(m.sim.stuckSeq), std::to_string(m.sim.program.size()),
                            formatSi(m.hangS, "s")})
                    : std::string("no hang");
    return f;
}

// One row per group of ranks whose last entry, GPU-Util and suspicion read the same: sixteen
// identical rows would hide the one that differs, and 32 ranks would not fit the panel.
FactsFrame recorders(const SilentHangModel& m, const std::vector<int>& suspects,
                     const std::string& title) {
    FactsFrame f;
    f.title = title;
    const HangConfig& c = m.sim.config;
    struct Group {
        std::vector<int> ranks;
        std::string call, value, source;
        bool emphasis = false;
    };
    std::vector<Group> groups;
    const bool narrowed = suspects.size() < m.sim.ranks.size();
    for (const RankFlightRecord& r : m.sim.ranks) {
        const FlightEntry* e = r.last();
        Group g;
        g.call = e ? callShort(e->call) : std::string("nothing recorded");
        // Short value (the last call's number and state, the GPU-Util); the op in the label.
        const std::string lastCall =
            e ? fill("#%1 %2", {std::to_string(e->seq),
                                e->state == CallState::Completed ? "done" : "started"})
              : std::string("no call");
        g.value =
            fill("%1 · %2", {lastCall, r.alive ? fill("%1 %", {formatSignificant(r.gpuUtil, 3)})
                                               : std::string("dead")});
        const int spinning = r.gpuUtil > 0 ? c.channels : 0;
        g.source = fill("GPU-Util %1 % (NVML) · SM activity %2 %: %3 of %4 SMs spin in NCCL",
                        {formatSignificant(r.gpuUtil, 3), formatSignificant(r.smActivity * 100, 3),
                         std::to_string(spinning), std::to_string(c.smCount)});
        g.emphasis = suspected(suspects, r.rank) && narrowed;
        auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& o) {
            return o.call == g.call && o.value == g.value && o.source == g.source &&
                   o.emphasis == g.emphasis;
        });
        if (same != groups.end()) {
            same->ranks.push_back(r.rank);
            continue;
        }
        g.ranks = {r.rank};
        groups.push_back(std::move(g));
    }
    for (const Group& g : groups) {
        const std::string label = fill(g.ranks.size() == 1 ? "rank %1: %2" : "ranks %1: %2",
                                       {formatIndexRanges(g.ranks), g.call});
        f.rows.push_back({label, g.value, g.source, g.emphasis});
    }
    return f;
}

ChartFrame utilisation(const SilentHangModel& m) {
    ChartFrame c;
    c.title = "What nvidia-smi shows vs what the SMs do";
    const double n = static_cast<double>(m.sim.ranks.size());
    c.x = {.title = "rank", .log = false, .min = 0, .max = n - 1};
    c.y = {.title = "percent", .log = false, .min = 0, .max = 105};
    ChartSeries util{.name = "GPU-Util (NVML)",
                     .points = {},
                     .style = ChartSeries::Style::Line,
                     .colorIndex = 0};
    ChartSeries sm{
        .name = "SM activity", .points = {}, .style = ChartSeries::Style::Dashed, .colorIndex = 1};
    for (const RankFlightRecord& r : m.sim.ranks) {
        util.points.push_back({static_cast<double>(r.rank), r.gpuUtil});
        sm.points.push_back({static_cast<double>(r.rank), r.smActivity * 100});
    }
    c.series = {util, sm};
    c.footnote = fill("%1; a resident spinning kernel counts as busy", {kNvml});
    return c;
}

} // namespace

std::string SilentHangScenario::question() const {
    return "Every GPU in the job shows 100 % utilisation, yet the loss has not moved for an hour "
           "and nothing crashed. How do you find the rank that hangs it?";
}

std::string SilentHangScenario::answer() const {
    return R"(**A collective completes only when every rank calls it with the same op and size; otherwise everyone who entered it waits forever.**
- NCCL matches calls by order: the k-th collective on a communicator pairs with every other rank's k-th. A rank that died, skipped a call, or called with another size or in another order leaves collective k pending.
- The ranks that entered it keep an NCCL kernel resident, spinning on flags. NVML's GPU-Util is the "percent of time … one or more kernels was executing" (NVML API reference, nvmlUtilization_t), so it reads **100 %** while only one SM per channel (16 of 132 here) is busy and no FLOP is useful. Utilisation cannot tell victims from the culprit.
- Triage from data, not from guesses: dump every rank's flight recorder (PyTorch's NCCL flight recorder: sequence id, op, sizes, state); find the lowest sequence number not completed everywhere; the ranks that never issued it are the suspects; if all issued it, the ranks whose op or size disagrees with the majority are.
- Then look at the culprit itself: a dead process → its log and the host's kernel log; alive but elsewhere → its stack (py-spy dump); a mismatched call → a rank-dependent code path.)";
}

std::vector<SourceRef> SilentHangScenario::sources() const {
    return {
        {"NVML API reference, nvmlUtilization_t", "https://docs.nvidia.com/deploy/nvml-api/"},
        {"PyTorch, NCCL flight recorder (torch.distributed)",
         "https://pytorch.org/docs/stable/torch_nccl_flight_recorder.html"},
        {"NCCL user guide: collective operations must be called in the same order on all ranks",
         "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html"},
    };
}

std::vector<ParamSpec> SilentHangScenario::parameters() const {
    std::vector<std::string> faults;
    for (const std::string& n : hangFaultNames())
        if (n != "none")
            faults.push_back(n);
    return {
        ParamSpec::choice("fault", "Injected fault", faults, "dead-rank",
                          "dead rank, skipped collective, size or order mismatch"),
        ParamSpec::integer("ranks", "Ranks", "", 4, 32, 16),
        ParamSpec::integer("culprit", "Culprit rank", "", 0, 31, 5),
        ParamSpec::integer("collectives", "Collectives per rank", "", 4, 48, 24),
        ParamSpec::integer("fault-at", "Fault at call", "", 0, 46, 10, false,
                           "the culprit's call (from 0) that goes wrong"),
        ParamSpec::integer("channels", "NCCL channels", "", 1, 64, 16, false,
                           "SMs a spinning collective occupies, of 132 (H100 SXM)"),
        ParamSpec::integer("seed", "Seed", "", 1, 1000, 1, false, "draws the collectives"),
    };
}

Story SilentHangScenario::build(const Params& p, const ScenarioInputs&) const {
    HangConfig c;
    c.fault = parseHangFault(p.text("fault"));
    c.ranks = static_cast<int>(p.integer("ranks"));
    c.culprit = static_cast<int>(p.integer("culprit"));
    c.collectives = static_cast<int>(p.integer("collectives"));
    c.faultAt = static_cast<int>(p.integer("fault-at"));
    c.channels = static_cast<int>(p.integer("channels"));
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    auto m = std::make_shared<SilentHangModel>();
    m->sim = simulateHang(c, seed); // validates the config
    m->triage = triageHang(m->sim.ranks);
    double s = 0;
    for (const CollectiveCall& call : m->sim.program) {
        s += kComputeS;
        m->startS.push_back(s);
        s += callS(call);
    }
    m->startS.push_back(s + kComputeS); // past the program, for a culprit's shifted call
    m->hangS = m->sim.hung ? m->startS[static_cast<std::size_t>(m->sim.stuckSeq)] : s;
    m->endS = m->hangS * 1.25 + 0.02;

    std::vector<int> everyone;
    for (const RankFlightRecord& r : m->sim.ranks)
        everyone.push_back(r.rank);

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 ranks, %2 collectives each, fault '%3' on rank %4 "
             "at call %5, seed %6",
             {std::to_string(c.ranks), std::to_string(c.collectives), hangFaultName(c.fault),
              std::to_string(c.culprit), std::to_string(c.faultAt), std::to_string(seed)});
    story.steps.push_back(
        {"The job stops, and nothing says why",
         "Every rank issues the same collectives in order. At one of them the job stops: no "
         "error, no crash, the ranks that entered it simply wait. The cursor is time.",
         8.0, [m, everyone](double t) {
             return Frames{{timeline(*m, {}, t),
                            recorders(*m, everyone, "Flight recorders: last entry per rank")}};
         }});
    story.steps.push_back(
        {"Every GPU at 100 %",
         "NVML counts a GPU as busy whenever any kernel is running, and a pending NCCL kernel "
         "never stops running. So nvidia-smi shows 100 % on every waiting rank while a handful "
         "of SMs spin on flags.",
         6.0, [m, everyone](double) {
             return Frames{
                 {utilisation(*m), recorders(*m, everyone, "GPU-Util and SM activity per rank")}};
         }});
    for (const TriageStep& step : m->triage.steps) {
        const std::vector<int> suspects = step.suspects;
        const std::string title =
            fill("Suspects: %1 of %2", {std::to_string(suspects.size()), std::to_string(c.ranks)});
        story.steps.push_back(
            {step.title, step.explanation, 6.0, [m, suspects, title](double t) {
                 return Frames{{recorders(*m, suspects, title), timeline(*m, suspects, t)}};
             }});
    }
    return story;
}

} // namespace wb
