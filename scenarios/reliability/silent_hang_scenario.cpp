#include "reliability/silent_hang_scenario.h"

#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "imported/ncu_kernels.h"
#include "imported/watchdog_timeouts.h"
#include "node/gpu_util_sampler.h"
#include "reliability/collective_hang.h"

#include <algorithm>
#include <functional>
#include <memory>

namespace wb {

namespace {

constexpr const char* kHangRecorderSource = "PyTorch Flight Recorder tutorial";
constexpr const char* kHangEnvSource = "PyTorch ProcessGroupNCCL environment variables";
constexpr const char* kHangTimeoutSource = "PyTorch torch.distributed.init_process_group (timeout)";
constexpr const char* kHangOrderSource = "NCCL User Guide, Communicators";
constexpr const char* kHangPySpySource = "py-spy README (dump)";
// PyTorch's documented default for the NCCL backend's collective timeout, in minutes.
constexpr int kHangWatchdogDefaultMin = 10;
// Sequence numbers the recorder view spans: up to five before the stuck one, the stuck one,
// and room for its never-ending spin.
constexpr int kHangSlots = 8;

// Nominal times for the progress chart, so it has a time axis: 4 ms of compute before each
// collective, then the collective at 100 GB/s bus bandwidth plus 50 µs latency. Only the order
// of calls matters to the hang; these durations just lay it out.
constexpr double kHangComputeS = 4e-3;
constexpr double kHangBusBytesPerS = 100e9;
constexpr double kHangCallLatencyS = 50e-6;
double hangCallS(const CollectiveCall& c) {
    return kHangCallLatencyS + static_cast<double>(c.bytes) / kHangBusBytesPerS;
}

std::string hangCallShort(const CollectiveCall& c) {
    return fill("%1 %2", {c.op, formatBytes(static_cast<double>(c.bytes))});
}

std::string hangRanksLabel(const std::vector<int>& ranks) {
    return fill(ranks.size() == 1 ? "rank %1" : "ranks %1", {formatIndexRanges(ranks)});
}

struct SilentHangModel {
    HangSimulation sim;
    HangTriage triage;
    std::vector<std::vector<int>> groups; // ranks whose recorders read the same
    std::vector<double> startS;           // when healthy ranks start call k
    double hangS = 0;                     // when the stuck collective was entered
    double endS = 0;
    int waiting = 0;    // ranks spinning in the stuck collective
    int notCalled = 0;  // ranks that never called it
    int windowFrom = 0; // first sequence number the recorder views show

    // "entries #5 to #10", or "entry #0" when the stuck call is the first.
    std::string entriesWords() const {
        return windowFrom == sim.stuckSeq
                   ? fill("entry #%1", {std::to_string(windowFrom)})
                   : fill("entries #%1 to #%2",
                          {std::to_string(windowFrom), std::to_string(sim.stuckSeq)});
    }
    const RankFlightRecord& rank(int r) const { return sim.ranks[static_cast<std::size_t>(r)]; }
    // The call every rank but the odd ones made at `seq` (the healthy program's).
    const CollectiveCall& programCall(int seq) const {
        return sim.program[static_cast<std::size_t>(seq)];
    }
};

bool hangSuspected(const std::vector<int>& suspects, int rank) {
    return std::find(suspects.begin(), suspects.end(), rank) != suspects.end();
}

// The job as the operator sees it: collectives that completed on every rank against time,
// and the same count had nothing gone wrong. The per-rank picture waits for the recorders.
ChartFrame hangProgressChart(const SilentHangModel& m, double t) {
    ChartFrame c;
    c.title = "Collectives the whole job has completed";
    const double planEnd = m.startS.back();
    const double axisEnd = std::max(m.endS, planEnd);
    c.x = {.title = "time (ms, laid out nominally)", .log = false, .min = 0, .max = axisEnd * 1e3};
    const double n = static_cast<double>(m.sim.program.size());
    c.y = {.title = "collectives completed", .log = false, .min = 0, .max = n * 1.05};
    ChartSeries plan{.name = "a healthy run",
                     .points = {{0, 0}},
                     .style = ChartSeries::Style::Dashed,
                     .colorIndex = 7};
    ChartSeries job{
        .name = "this job", .points = {{0, 0}}, .style = ChartSeries::Style::Line, .colorIndex = 0};
    const double shownS = t * axisEnd;
    double count = 0;
    for (std::size_t k = 0; k < m.sim.program.size(); ++k) {
        const double doneS = m.startS[k] + hangCallS(m.sim.program[k]);
        plan.points.push_back({doneS * 1e3, count});
        plan.points.push_back({doneS * 1e3, count + 1});
        if (static_cast<int>(k) < std::max(0, m.sim.stuckSeq) && doneS <= shownS) {
            job.points.push_back({doneS * 1e3, count});
            job.points.push_back({doneS * 1e3, count + 1});
        }
        count += 1;
    }
    const double completed = job.points.back().y;
    job.points.push_back({shownS * 1e3, completed});
    c.series = {plan, job};
    if (shownS >= m.hangS)
        c.markers.push_back({.at = {m.hangS * 1e3, completed},
                             .label = fill("no progress after %1", {formatSi(m.hangS, "s")}),
                             .tooltip = "every rank waits; none reports an error",
                             .colorIndex = 3,
                             .estimate = false,
                             .emphasis = true});
    c.footnote = fill("Time assumed: %1 of compute before each call, each call at %2 plus %3. Only "
                      "the order of the calls matters to the hang.",
                      {formatSi(kHangComputeS, "s"), formatSi(kHangBusBytesPerS, "B/s"),
                       formatSi(kHangCallLatencyS, "s")});
    return c;
}

FactsFrame hangSymptomFacts(const SilentHangModel& m) {
    FactsFrame f;
    f.title = "What the job reports";
    f.rows.push_back({.label = "Collectives completed by the job",
                      .value = fill("%1 of %2", {std::to_string(m.sim.stuckSeq),
                                                 std::to_string(m.sim.program.size())}),
                      .source = "the training loop's own progress"});
    f.rows.push_back({.label = "Errors or crashes reported",
                      .value = "none",
                      .source = "the job's logs",
                      .emphasis = true});
    f.rows.push_back({.label = "NCCL watchdog fires after (PyTorch default)",
                      .value = fill("%1 min", {std::to_string(kHangWatchdogDefaultMin)}),
                      .source = kHangTimeoutSource});
    return f;
}

// What nvidia-smi's 100 % is made of on a rank waiting in the stuck collective: every waiting
// rank reads the same, so one pair of bars stands for all of them.
BarChartFrame hangUtilBars(const SilentHangModel& m) {
    const HangConfig& c = m.sim.config;
    BarChartFrame f;
    f.title = "One waiting rank: what nvidia-smi says against what the SMs do";
    f.caption = fill("%1 NCCL channels keep %2 of %3 SMs spinning on flags; NVML reads %4",
                     {std::to_string(c.channels), std::to_string(c.channels),
                      std::to_string(c.smCount), formatPercent(100.0)});
    f.series = {"share of the sample period or of the SMs"};
    f.unit = BarValueUnit::Percent;
    f.horizontal = true;
    f.axisTitle = "percent";
    const double sm = static_cast<double>(c.channels) / c.smCount;
    f.categories.push_back({.label = "GPU-Util (NVML)",
                            .segments = {{.value = 1.0, .series = 0, .tip = kNvmlGpuUtilSource}},
                            .tip = "share of time one or more kernels ran"});
    f.categories.push_back({.label = "SMs holding a block",
                            .segments = {{.value = sm, .series = 0, .tip = "one SM per channel"}},
                            .tip = "NCCL runs one block per channel"});
    f.emphasis = 0;
    f.axisMax = 1.0;
    return f;
}

FactsFrame hangUtilFacts(const SilentHangModel& m) {
    const HangConfig& c = m.sim.config;
    FactsFrame f;
    f.title = "Why a waiting GPU reads busy";
    f.rows.push_back({.label = "GPU-Util: time any kernel was running",
                      .value = formatPercent(100.0),
                      .source = kNvmlGpuUtilSource,
                      .emphasis = true});
    f.rows.push_back(
        {.label = "SMs the spinning NCCL kernel holds",
         .value = fill("%1 of %2", {std::to_string(c.channels), std::to_string(c.smCount)}),
         .source = "one block per NCCL channel (parameter)"});
    f.rows.push_back({.label = "Useful work done meanwhile",
                      .value = "none",
                      .source = "the kernel polls flags for peers that never arrive"});
    return f;
}

// One row per group of ranks whose recorders read the same: sixteen identical rows would
// hide the one that differs, and 32 ranks would not fit the panel.
FactsFrame hangRecorders(const SilentHangModel& m, const std::vector<int>& suspects,
                         const std::string& title) {
    FactsFrame f;
    f.title = title;
    const HangConfig& c = m.sim.config;
    const bool narrowed = suspects.size() < m.sim.ranks.size();
    for (const std::vector<int>& g : m.groups) {
        const RankFlightRecord& r = m.rank(g.front());
        const FlightEntry* e = r.last();
        const std::string call = e ? hangCallShort(e->call) : std::string("nothing recorded");
        const std::string lastCall =
            e ? fill("#%1 %2", {std::to_string(e->seq),
                                e->state == CallState::Completed ? "done" : "started"})
              : std::string("no call");
        const int spinning = r.gpuUtil > 0 ? c.channels : 0;
        f.rows.push_back({.label = fill("%1: %2", {hangRanksLabel(g), call}),
                          .value = fill("%1 · %2", {lastCall, r.alive ? formatPercent(r.gpuUtil)
                                                                      : std::string("no process")}),
                          .source = fill("GPU-Util %1 (NVML) · %2 of %3 SMs spin in NCCL",
                                         {formatPercent(r.gpuUtil), std::to_string(spinning),
                                          std::to_string(c.smCount)}),
                          .emphasis = narrowed && hangSuspected(suspects, g.front())});
    }
    return f;
}

// How many ranks are in each state at each sequence number around the stuck one: the first
// column that is not all "completed" is where the job stopped.
BarChartFrame hangSeqStates(const SilentHangModel& m) {
    BarChartFrame f;
    f.title = "Ranks by state at each sequence number (flight recorders)";
    f.caption = fill("#%1 is the lowest number not completed on every rank",
                     {std::to_string(m.sim.stuckSeq)});
    f.series = {"completed", "started, never completes", "not called"};
    f.axisTitle = "ranks";
    const int last = std::min(m.sim.stuckSeq + 1, static_cast<int>(m.sim.program.size()) - 1);
    for (int s = m.windowFrom; s <= last; ++s) {
        int n[3] = {0, 0, 0};
        for (const RankFlightRecord& r : m.sim.ranks)
            ++n[static_cast<int>(r.stateAt(s))];
        BarCategory cat{.label = fill("#%1", {std::to_string(s)}), .segments = {}, .tip = ""};
        for (int i = 0; i < 3; ++i)
            if (n[i] > 0)
                cat.segments.push_back(
                    {.value = static_cast<double>(n[i]),
                     .series = i,
                     .tip = fill("%1 at #%2: %3", {f.series[static_cast<std::size_t>(i)],
                                                   std::to_string(s), std::to_string(n[i])})});
        if (s == m.sim.stuckSeq)
            f.emphasis = static_cast<int>(f.categories.size());
        f.categories.push_back(std::move(cat));
    }
    f.axisMax = static_cast<double>(m.sim.ranks.size());
    return f;
}

// What the recorder views may mark once the triage has found it.
enum class HangMark { Nothing, NotCalled, Mismatch, Culprit };

// Categories of the recorder view, indexed by palette colour: blue, orange, (green, unused),
// red, then grey at 7.
const std::vector<std::string>& hangSeqCategories() {
    static const std::vector<std::string> c = {"completed",
                                               "started, never completes",
                                               "",
                                               "the culprit's call or gap",
                                               "disagrees with the majority",
                                               "",
                                               "",
                                               "not called"};
    return c;
}

// The flight recorders side by side in sequence space: one row per group of ranks that read
// the same, one slot per sequence number from the window's start to the stuck one, so the
// calls at one number line up in a column whatever their durations. `mark` says what the
// triage has found so far and may be drawn.
ScheduleFrame hangSequenceFrame(const SilentHangModel& m, const std::vector<int>& suspects,
                                HangMark mark, std::string title) {
    ScheduleFrame f;
    f.title = std::move(title);
    f.categories = hangSeqCategories();
    f.axisUnit = "seq";
    f.axisUnitS = 1.0;
    const int stuck = m.sim.stuckSeq;
    // Eight slots wide, whatever the window holds, so the axis ticks whole sequence numbers;
    // the stuck calls spin on to its end.
    f.startS = m.windowFrom;
    f.endS = m.windowFrom + kHangSlots;
    const bool narrowed = suspects.size() < m.sim.ranks.size();
    for (const std::vector<int>& g : m.groups) {
        const RankFlightRecord& r = m.rank(g.front());
        const bool suspect = narrowed && hangSuspected(suspects, r.rank);
        ScheduleRow row;
        row.label = fill("%1%2", {hangRanksLabel(g), !suspect                    ? ""
                                                     : mark == HangMark::Culprit ? " · culprit"
                                                                                 : " ?"});
        for (int s = m.windowFrom; s <= stuck; ++s) {
            const CallState state = r.stateAt(s);
            const double at = s;
            if (state == CallState::NotIssued) {
                const bool red = mark == HangMark::Culprit || mark == HangMark::NotCalled;
                row.bars.push_back(
                    {.startS = at,
                     .endS = f.endS,
                     .kind = ScheduleKind::AllReduce,
                     .label = r.alive ? "never called" : "never called: process gone",
                     .shade = 0,
                     .tip = fill("#%1 not in this rank's recorder", {std::to_string(s)}),
                     .category = red && suspect ? 3 : 7});
                break;
            }
            const FlightEntry& e = r.entries[static_cast<std::size_t>(s)];
            const bool odd = s == stuck && !(e.call == m.programCall(s));
            int category = state == CallState::Completed ? 0 : 1;
            if (odd && mark == HangMark::Mismatch)
                category = 4;
            if (odd && mark == HangMark::Culprit)
                category = 3;
            const bool open = state == CallState::Started;
            row.bars.push_back({.startS = at,
                                .endS = open ? f.endS : at + 0.92,
                                .kind = ScheduleKind::AllReduce,
                                .label = hangCallShort(e.call),
                                .shade = 0,
                                .tip = fill("#%1 %2, %3", {std::to_string(s), hangCallShort(e.call),
                                                           callStateName(state)}),
                                .category = category});
        }
        f.rows.push_back(std::move(row));
    }
    f.caption = fill("every rank's %1, one slot per sequence number", {m.entriesWords()});
    return f;
}

// The calls the ranks made at the stuck number, one row per distinct call.
FactsFrame hangCallsAt(const SilentHangModel& m) {
    const int stuck = m.sim.stuckSeq;
    FactsFrame f;
    f.title = fill("The calls recorded at #%1", {std::to_string(stuck)});
    std::vector<std::pair<CollectiveCall, std::vector<int>>> calls;
    for (const RankFlightRecord& r : m.sim.ranks) {
        const FlightEntry& e = r.entries[static_cast<std::size_t>(stuck)];
        auto it = std::find_if(calls.begin(), calls.end(),
                               [&](const auto& c) { return c.first == e.call; });
        if (it == calls.end())
            calls.push_back({e.call, {r.rank}});
        else
            it->second.push_back(r.rank);
    }
    std::size_t most = 0;
    for (const auto& c : calls)
        most = std::max(most, c.second.size());
    for (const auto& [call, ranks] : calls)
        f.rows.push_back(
            {.label = fill("%1: %2", {hangRanksLabel(ranks), hangCallShort(call)}),
             .value = formatCount(static_cast<long long>(ranks.size()), "rank", "ranks"),
             .source = ranks.size() == most ? "the majority's call" : "disagrees with the majority",
             .emphasis = ranks.size() < most});
    // A call one ahead of the program is what a skipped or a swapped call looks like: the
    // recorders cannot tell the two apart, the code can.
    const std::size_t next = static_cast<std::size_t>(stuck) + 1;
    for (const auto& [call, ranks] : calls)
        if (ranks.size() < most && next < m.sim.program.size() && call == m.sim.program[next])
            f.rows.push_back({.label = fill("%1's call is the program's next one, #%2",
                                            {hangRanksLabel(ranks), std::to_string(next)}),
                              .value = "one ahead",
                              .source = "a skipped call or two swapped ones",
                              .emphasis = false});
    return f;
}

// The culprit found: what to run on it next, chosen by what its recorder shows.
FactsFrame hangNextTool(const SilentHangModel& m, int culprit) {
    const RankFlightRecord& r = m.rank(culprit);
    const int stuck = m.sim.stuckSeq;
    FactsFrame f;
    f.title = fill("Next: look at rank %1 itself", {std::to_string(culprit)});
    if (!r.alive) {
        f.rows.push_back({.label = "Its process",
                          .value = "gone",
                          .source = "no process on its GPU",
                          .emphasis = true});
        f.rows.push_back({.label = "Read its own log and the host's kernel log",
                          .value = "dmesg",
                          .source = "the crash, the OOM kill or the lost GPU is there"});
    } else if (r.stateAt(stuck) == CallState::NotIssued) {
        f.rows.push_back({.label = "Its process",
                          .value = "alive, outside NCCL",
                          .source = "its recorder stops before the stuck number",
                          .emphasis = true});
        f.rows.push_back({.label = "Dump its Python stacks",
                          .value = "py-spy dump --pid",
                          .source = kHangPySpySource});
    } else {
        f.rows.push_back({.label = "Its call",
                          .value = "disagrees",
                          .source = "a rank-dependent branch or uneven data",
                          .emphasis = true});
        f.rows.push_back({.label = "Compare where it and a healthy rank called from",
                          .value = "py-spy dump --pid",
                          .source = kHangPySpySource});
    }
    f.rows.push_back({.label = "Next time: dump every recorder when the watchdog fires",
                      .value = "TORCH_NCCL_DUMP_ON_TIMEOUT",
                      .source = kHangEnvSource});
    return f;
}

// Every value the slides may quote, in the unit of its quantity.
std::vector<ResultValue> hangResults(const SilentHangModel& m) {
    const HangConfig& c = m.sim.config;
    std::vector<ResultValue> out{{"first sequence number not completed everywhere", m.sim.stuckSeq},
                                 {"collectives in the program", m.sim.program.size()},
                                 {"ranks waiting in it", m.waiting},
                                 {"ranks that never called it", m.notCalled},
                                 {"GPU-Util of a waiting rank, percent", 100.0},
                                 {"SM activity of a waiting rank", double(c.channels) / c.smCount},
                                 {"SMs per GPU", c.smCount},
                                 {"when the job stops", m.hangS},
                                 {"watchdog default, minutes", kHangWatchdogDefaultMin},
                                 {"first sequence number shown", m.windowFrom},
                                 {"one rank", 1},
                                 {"a trace buffer size that records nothing", 0}};
    for (int s = m.windowFrom; s <= m.sim.stuckSeq + 1; ++s)
        out.push_back({"a sequence number shown", s});
    for (const std::vector<int>& g : m.groups) {
        out.push_back({"ranks in a group", g.size()});
        // formatIndexRanges prints each run's first and last rank.
        for (std::size_t i = 0; i < g.size(); ++i)
            if (i == 0 || i + 1 == g.size() || g[i - 1] + 1 != g[i] || g[i + 1] != g[i] + 1)
                out.push_back({"a rank in a label", g[i]});
    }
    for (const RankFlightRecord& r : m.sim.ranks)
        for (const FlightEntry& e : r.entries)
            if (e.seq >= m.windowFrom)
                out.push_back({"bytes of a recorded call", e.call.bytes});
    for (const RankFlightRecord& r : m.sim.ranks)
        if (const FlightEntry* e = r.last())
            out.push_back({"bytes of a last entry", e->call.bytes});
    for (const TriageStep& s : m.triage.steps)
        out.push_back({"suspects left", s.suspects.size()});
    return out;
}

} // namespace

std::string SilentHangScenario::question() const {
    return "Every GPU in the job shows 100 % utilisation, yet the loss has not moved for an hour "
           "and nothing crashed. How do you find the rank that hangs it?";
}

std::string SilentHangScenario::answer() const {
    return R"(**A collective completes only when every rank calls it in the same order with the same op and size; otherwise everyone who entered it waits, and no one reports an error.**
- NCCL matches calls by order: the k-th collective on a communicator pairs with every other rank's k-th. A rank that died, skipped a call, or called with another size or in another order leaves collective k pending (NCCL User Guide, Communicators).
- The ranks that entered it keep an NCCL kernel resident, spinning on flags. NVML's GPU-Util is the share of time "one or more kernels was executing" (NVML API Reference, nvmlUtilization_t), so it reads **100 %** while one SM per channel is busy and no FLOP is useful. Utilisation cannot tell victims from the culprit.
- Make the hang an error and keep the evidence: PyTorch's ProcessGroupNCCL watchdog aborts a collective after the process group's timeout (10 minutes by default for NCCL); with TORCH_NCCL_TRACE_BUFFER_SIZE > 0 and TORCH_NCCL_DUMP_ON_TIMEOUT=1 every rank dumps its flight recorder (collective sequence number, op, sizes, state) when it fires (PyTorch Flight Recorder tutorial, ProcessGroupNCCL environment variables).
- Triage from the dumps: find the lowest sequence number not completed everywhere; the ranks that never issued it are the suspects; if all issued it, the ranks whose op or size disagrees with the majority are.
- Then look at the culprit itself: a dead process → its log and the host's kernel log; alive but elsewhere → its Python stacks with py-spy dump --pid (py-spy README); a mismatched call → compare its code path with a healthy rank's.)";
}

std::vector<SourceRef> SilentHangScenario::sources() const {
    return {
        {"NVML API Reference, nvmlUtilization_t",
         "https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html"},
        {"PyTorch Flight Recorder tutorial (TORCH_NCCL_TRACE_BUFFER_SIZE, collective sequence "
         "numbers, fr_trace analyzer)",
         "https://docs.pytorch.org/tutorials/unstable/flight_recorder_tutorial.html"},
        {"PyTorch ProcessGroupNCCL environment variables (TORCH_NCCL_DUMP_ON_TIMEOUT, watchdog)",
         "https://docs.pytorch.org/docs/stable/torch_nccl_environment_variables.html"},
        {"PyTorch torch.distributed.init_process_group (timeout: 10 minutes for NCCL)",
         "https://docs.pytorch.org/docs/stable/distributed.html"},
        {"NCCL User Guide, Communicators: collectives in the same order on every rank",
         "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html"},
        {"py-spy README: py-spy dump prints the Python stacks of a running process",
         "https://github.com/benfred/py-spy"},
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

Story SilentHangScenario::build(const Params& p, const ScenarioInputs& inputs) const {
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
    m->groups = identicalRankGroups(m->sim.ranks);
    double s = 0;
    for (const CollectiveCall& call : m->sim.program) {
        s += kHangComputeS;
        m->startS.push_back(s);
        s += hangCallS(call);
    }
    m->startS.push_back(s + kHangComputeS); // past the program
    // Every fault the scenario offers hangs (the model's tests hold it to that).
    const int stuck = m->sim.stuckSeq;
    m->hangS = m->startS[static_cast<std::size_t>(stuck)];
    m->endS = m->hangS * 1.25 + 0.02;
    m->windowFrom = std::max(0, stuck - 5);
    for (const RankFlightRecord& r : m->sim.ranks)
        ++(r.stateAt(stuck) == CallState::Started ? m->waiting : m->notCalled);

    Story story;
    story.results = hangResults(*m);
    story.provenance =
        fill("modeled on CPU: %1 ranks, %2 collectives each, fault '%3' on rank %4 "
             "at call %5, seed %6",
             {std::to_string(c.ranks), std::to_string(c.collectives), hangFaultName(c.fault),
              std::to_string(c.culprit), std::to_string(c.faultAt), std::to_string(seed)});
    const std::string ranksWords = formatCount(c.ranks, "rank", "ranks");
    story.steps.push_back(
        {"The job stops, and nothing says why",
         fill("All %1 issue the same collectives in the same order. %2 the job's progress "
              "goes flat: no error, no crash, no rank says it is the one. Until the NCCL "
              "watchdog's timeout fires, nothing will.",
              {ranksWords, stuck == 0 ? std::string("At the very first one")
                                      : fill("After %1 of them", {std::to_string(stuck)})}),
         6.0, [m](double t) {
             return Frames{{hangProgressChart(*m, t), hangSymptomFacts(*m)}};
         }});
    story.steps.push_back(
        {fill("nvidia-smi says %1 busy", {formatPercent(100.0)}),
         fill("NVML's GPU-Util counts the time any kernel runs, and a waiting NCCL kernel never "
              "stops: it keeps %1 of %2 SMs polling flags. So a waiting GPU reads %3 while it "
              "does no useful work, and utilisation cannot tell a victim from the culprit.",
              {std::to_string(c.channels), std::to_string(c.smCount), formatPercent(100.0)}),
         5.0, [m](double) {
             return Frames{{hangUtilBars(*m), hangUtilFacts(*m)}};
         }});
    for (const TriageStep& step : m->triage.steps) {
        const std::vector<int> suspects = step.suspects;
        const std::string title =
            fill("Suspects: %1 of %2", {std::to_string(suspects.size()), std::to_string(c.ranks)});
        const std::string seqTitle = fill("Flight recorders, %1", {m->entriesWords()});
        std::function<Frames(double)> frames;
        switch (step.kind) {
        case TriageKind::NoHang:
        case TriageKind::FirstIncomplete:
            frames = [m](double) {
                return Frames{{hangSeqStates(*m),
                               hangRecorders(*m, m->triage.steps.front().suspects,
                                             "Flight-recorder dumps: last entry per rank")}};
            };
            break;
        case TriageKind::NeverIssued:
            frames = [m, suspects, title, seqTitle](double) {
                return Frames{{hangSequenceFrame(*m, suspects, HangMark::NotCalled, seqTitle),
                               hangRecorders(*m, suspects, title)}};
            };
            break;
        case TriageKind::AllIssued:
            frames = [m, suspects, title, seqTitle](double) {
                return Frames{{hangSequenceFrame(*m, suspects, HangMark::Nothing, seqTitle),
                               hangRecorders(*m, suspects, title)}};
            };
            break;
        case TriageKind::CompareCalls:
            frames = [m, suspects, seqTitle](double) {
                return Frames{{hangSequenceFrame(*m, suspects, HangMark::Mismatch, seqTitle),
                               hangCallsAt(*m)}};
            };
            break;
        case TriageKind::Culprit:
            frames = [m, suspects, seqTitle](double) {
                return Frames{{hangSequenceFrame(*m, suspects, HangMark::Culprit, seqTitle),
                               hangNextTool(*m, suspects.front())}};
            };
            break;
        }
        story.steps.push_back({step.title, step.explanation, 6.0, frames});
    }

    // The whiteboard: this run's numbers, each with its primary source.
    const std::vector<int>& culprits = m->triage.culprits;
    const bool named = culprits.size() == 1;
    const int culprit = named ? culprits.front() : c.culprit;
    const RankFlightRecord& bad = m->rank(culprit);
    const bool missing = bad.stateAt(stuck) == CallState::NotIssued;
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("A collective completes only when every rank calls it in the same order with the "
              "same op and size. Here #%1 never completes: %2 of %3 wait in it, and nothing "
              "errors until the NCCL watchdog's timeout (%4 min by default) fires.",
              {std::to_string(stuck), std::to_string(m->waiting), std::to_string(c.ranks),
               std::to_string(kHangWatchdogDefaultMin)}),
         fill("%1; %2", {kHangOrderSource, kHangTimeoutSource})},
        {fill("nvidia-smi's %1 is NVML GPU-Util, the share of time any kernel ran. The waiting "
              "NCCL kernel holds %2 of %3 SMs and does no useful work: utilisation cannot find "
              "the culprit.",
              {formatPercent(100.0), std::to_string(c.channels), std::to_string(c.smCount)}),
         kNvmlGpuUtilSource},
        {"Keep the evidence: TORCH_NCCL_TRACE_BUFFER_SIZE > 0 records each collective's sequence "
         "number, op, sizes and state; TORCH_NCCL_DUMP_ON_TIMEOUT dumps every rank's record when "
         "the watchdog fires.",
         fill("%1; %2", {kHangRecorderSource, kHangEnvSource})},
        {!named ? fill("In the dumps, #%1 is the lowest number not completed everywhere; the "
                       "calls there give no majority, so the recorders stop short of a culprit.",
                       {std::to_string(stuck)})
         : missing
             ? fill("In the dumps, #%1 is the lowest number not completed everywhere; rank %2 "
                    "never called it, so the other %3 wait for it.",
                    {std::to_string(stuck), std::to_string(culprit), std::to_string(m->waiting)})
             : fill("In the dumps, every rank called #%1, but rank %2 called %3 where the others "
                    "called %4: a desync, and rank %2 is the odd one out.",
                    {std::to_string(stuck), std::to_string(culprit),
                     hangCallShort(bad.entries[static_cast<std::size_t>(stuck)].call),
                     hangCallShort(m->programCall(stuck))}),
         kHangRecorderSource},
        {!bad.alive ? fill("Rank %1's process is gone, so there is no stack for py-spy dump to "
                           "take: its own log and the host's kernel log (dmesg) say why.",
                           {std::to_string(culprit)})
         : missing  ? fill("Rank %1 is alive outside NCCL: py-spy dump --pid prints its Python "
                            "stacks, which show where it is stuck instead.",
                           {std::to_string(culprit)})
                    : fill("py-spy dump --pid on rank %1 and on a healthy rank shows which code "
                            "path issued the odd call (a rank-dependent branch, uneven data).",
                           {std::to_string(culprit)}),
         kHangPySpySource},
    };
    const double smShare = static_cast<double>(c.channels) / c.smCount;
    story.checks = {
        {fill("nvidia-smi reads %1 on a waiting rank. What share of its %2 SMs, in percent, does "
              "the spinning NCCL kernel with %3 channels actually hold?",
              {formatPercent(100.0), std::to_string(c.smCount), std::to_string(c.channels)}),
         smShare * 100.0, "%", 0.02,
         fill("One block per channel: %1 of %2 SMs = %3.",
              {std::to_string(c.channels), std::to_string(c.smCount), formatShare(smShare)})},
        {fill("In this run's flight recorders, how many of the %1 are waiting inside collective "
              "#%2?",
              {ranksWords, std::to_string(stuck)}),
         static_cast<double>(m->waiting), "ranks", 0.0,
         fill("#%1 is started on %2 and missing on %3: %4 wait.",
              {std::to_string(stuck), formatCount(m->waiting, "rank", "ranks"),
               formatCount(m->notCalled, "rank", "ranks"), std::to_string(m->waiting)})},
    };
    addWhiteboardStep(story,
                      named ? fill("Recorders, not utilisation: the lowest incomplete sequence "
                                   "number, #%1, points at rank %2.",
                                   {std::to_string(stuck), std::to_string(culprit)})
                            : fill("Recorders, not utilisation: the lowest incomplete sequence "
                                   "number is #%1.",
                                   {std::to_string(stuck)}));
    // The user's watchdog output after the lesson, read as the recorders were: the lowest
    // SeqNum.
    std::vector<std::string> paths;
    for (const auto& wd : inputs.imported.watchdogs) {
        paths.push_back(wd->path);
        auto drawn = std::make_shared<const std::pair<BarChartFrame, FactsFrame>>(
            watchdogSeqBars(*wd, wd->path), watchdogFacts(*wd, wd->path));
        story.steps.push_back(
            {inputs.imported.watchdogs.size() > 1
                 ? fill("Your watchdog log · %1", {fileNameOf(wd->path)})
                 : std::string("Your watchdog log"),
             fill("Each line is one rank whose collective ran past the timeout; its SeqNum is "
                  "the rank's own call counter, as in the recorders. %1",
                  {watchdogVerdict(*wd)}),
             6.0, [drawn](double) {
                 return Frames{{drawn->first, drawn->second}};
             }});
    }
    story.provenance += importedNote(paths);

    return story;
}

} // namespace wb
