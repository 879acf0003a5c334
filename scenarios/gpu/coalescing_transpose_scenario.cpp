#include "gpu/coalescing_transpose_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/memory_access_model.h"
#include "gpu/transpose_model.h"
#include "gpu/transpose_recording.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

namespace wb {

namespace {

constexpr const char* kCoalescingSource =
    "CUDA C++ Best Practices Guide, Coalesced Access to Global Memory";
constexpr const char* kBanksSource =
    "CUDA C++ Best Practices Guide, Shared Memory and Memory Banks";
constexpr const char* kPaddingSource =
    "NVIDIA cuda-samples transpose; Harris, An Efficient Matrix Transpose in CUDA C/C++";
constexpr const char* kTimeModelSource =
    "model: max(sector bytes at the HBM rate, shared-memory wavefronts), relative to the copy";
constexpr std::array<TransposeVariant, 4> kVariants{TransposeVariant::Copy, TransposeVariant::Naive,
                                                    TransposeVariant::Tiled,
                                                    TransposeVariant::Padded};
// Where the instructions of a step's warp sit in TransposeModel::warpFrames: the global load
// first, the global store last, and for the tiled kernels the column read of the tile third.
constexpr std::size_t kColumnRead = 2;
// A step plays its warp's instructions in program order until this t, then rests on the one
// the step is about.
constexpr double kRestFrom = 0.75;

std::string variantTitle(TransposeVariant v) {
    switch (v) {
    case TransposeVariant::Copy:
        return "copy";
    case TransposeVariant::Naive:
        return "naive";
    case TransposeVariant::Tiled:
        return "tiled";
    case TransposeVariant::Padded:
        return "padded";
    }
    return {};
}

std::string sectorsText(std::size_t n) {
    return formatCount(static_cast<long long>(n), "sector", "sectors");
}
std::string wavefrontsText(int n) {
    return formatCount(n, "wavefront", "wavefronts");
}
std::string lanesText(const MemoryAccessFrame& f) {
    const auto active =
        std::count_if(f.lanes.begin(), f.lanes.end(), [](const LaneAccess& l) { return l.active; });
    return formatCount(active, "lane", "lanes");
}

struct Kernels {
    TransposeConfig base;
    std::array<std::vector<MemoryAccessFrame>, 4> frames; // per variant, warp 0 of block 0
    std::array<TransposeSummary, 4> summaries;

    const std::vector<MemoryAccessFrame>& of(TransposeVariant v) const {
        return frames[static_cast<std::size_t>(v)];
    }
    const TransposeSummary& summary(TransposeVariant v) const {
        return summaries[static_cast<std::size_t>(v)];
    }
    const MemoryAccessFrame& load(TransposeVariant v) const { return of(v).front(); }
    const MemoryAccessFrame& store(TransposeVariant v) const { return of(v).back(); }
    const MemoryAccessFrame& column(TransposeVariant v) const { return of(v)[kColumnRead]; }
    std::string shape() const {
        return fill(
            "n = %1, %2-byte elements, %3×%3 tile",
            {std::to_string(base.n), std::to_string(base.elementBytes), std::to_string(base.tile)});
    }
};

// The output rows one warp's naive store writes to: each its own sector or more.
int rowsTouched(const MemoryAccessFrame& store, int n, int elementBytes) {
    std::set<std::uint64_t> rows;
    const auto rowBytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(elementBytes);
    for (const LaneAccess& l : store.lanes)
        if (l.active)
            rows.insert(l.address / rowBytes);
    return static_cast<int>(rows.size());
}

// What one step's kernel costs, beside its warp's picture.
FactsFrame variantFacts(const Kernels& k, TransposeVariant v) {
    const TransposeSummary& s = k.summary(v);
    const TransposeSummary& copy = k.summary(TransposeVariant::Copy);
    FactsFrame f;
    f.title = fill("The %1 kernel · %2", {variantTitle(v), k.shape()});
    f.rows.push_back({.label = "threads per block = tile × block rows",
                      .value = fill("%1 × %2 = %3",
                                    {std::to_string(k.base.tile), std::to_string(k.base.blockRows),
                                     std::to_string(k.base.tile * k.base.blockRows)}),
                      .source = "NVIDIA cuda-samples transpose (TILE_DIM × BLOCK_ROWS)",
                      .emphasis = false});
    f.rows.push_back({.label = "global load: 32-byte sectors per request",
                      .value = formatSignificant(s.loadSectorsPerRequest, 3),
                      .source = kCoalescingSource,
                      .emphasis = false});
    f.rows.push_back({.label = "global store: 32-byte sectors per request",
                      .value = formatSignificant(s.storeSectorsPerRequest, 3),
                      .source = kCoalescingSource,
                      .emphasis = s.storeSectorsPerRequest > copy.storeSectorsPerRequest});
    f.rows.push_back({.label = "L1↔L2 sector traffic, whole kernel",
                      .value = formatBytes(double(s.l1l2Bytes)),
                      .source = "derived: sectors × 32 B, between L1 and L2 (not DRAM)",
                      .emphasis = false});
    if (s.smemWorstWavefronts > 0) {
        const MemoryAccessFrame& c = k.column(v);
        f.rows.push_back({.label = fill("shared column read of %1: wavefronts",
                                        {formatBytes(double(c.bytesRequested))}),
                          .value = fill("%1, fewest %2", {std::to_string(c.wavefronts),
                                                          std::to_string(c.minWavefronts)}),
                          .source = kBanksSource,
                          .emphasis = extraWavefronts(c) > 0});
    }
    f.rows.push_back({.label = "time relative to the copy (model)",
                      .value = fill("×%1", {formatSignificant(s.relativeTime, 3)}),
                      .source = kTimeModelSource,
                      .emphasis = false});
    return f;
}

// One variant's memory instructions in program order as t goes to kRestFrom, then the one the
// step is about.
Frames variantAt(const Kernels& k, TransposeVariant v, std::size_t focus, double t) {
    const auto& list = k.of(v);
    const std::size_t i =
        t >= kRestFrom
            ? focus
            : std::min(list.size() - 1, static_cast<std::size_t>(std::max(0.0, t) / kRestFrom *
                                                                 static_cast<double>(list.size())));
    return Frames{{list[i], variantFacts(k, v)}};
}

std::optional<TransposeTiming> timingOf(const std::vector<TransposeTiming>& timings,
                                        const std::string& variant) {
    for (const TransposeTiming& t : timings)
        if (t.variant == variant)
            return t;
    return std::nullopt;
}

// The bill as bars: each kernel's effective bandwidth on one axis, beside the GPU's peak and
// what a copy achieves of it, so the gap to the copy is a length.
BarChartFrame billChart(const Trace& trace, const Kernels& k, const AchievableCopy& copy) {
    BarChartFrame f;
    f.horizontal = true;
    f.unit = BarValueUnit::Plain;
    f.axisTitle = "effective bandwidth, GB/s (matrix read and written once ÷ time)";
    f.series = {"effective bandwidth"};
    const std::vector<TransposeTiming> timings = transposeTimings(trace);
    const bool modeled = trace.provenance.source == TraceSource::Modeled;
    const TransposeTiming* slowest = nullptr;
    for (const TransposeTiming& t : timings) {
        if (t.variant == "padded")
            f.emphasis = static_cast<int>(f.categories.size());
        if (slowest == nullptr || t.gbs < slowest->gbs)
            slowest = &t;
        // The copy says what share of peak it reaches: measured, or the assumed share a copy
        // achieves where the timings are modeled.
        std::string label = t.variant;
        if (t.variant == "copy")
            label = fill(modeled && !copy.measured ? "copy · %1 of peak (assumed)"
                                                   : "copy · %1 of peak",
                         {formatShare(t.gbs / copy.peakGBs, 3)});
        f.categories.push_back(
            {label + (t.referenceOk ? "" : " (wrong result)"),
             {{t.gbs, 0,
               fill("%1: %2 GB/s, %3 of the copy",
                    {t.variant, formatSignificant(t.gbs, 4), formatPercent(t.pctOfCopy, 3)})}},
             ""});
    }
    f.references.push_back(
        {copy.peakGBs, fill("peak HBM %1 GB/s", {formatSignificant(copy.peakGBs, 4)})});
    f.title = fill("Effective bandwidth · %1", {k.shape()});
    const std::string from = describeProvenance(trace.provenance);
    f.caption = slowest == nullptr
                    ? from
                    : fill("%1 · slowest: %2 at %3 of the copy",
                           {from, slowest->variant, formatPercent(slowest->pctOfCopy, 3)});
    return f;
}

// The traffic behind the bill: sectors between L1 and L2, loads and stores stacked, and the
// wavefronts bank conflicts add.
BarChartFrame trafficChart(const Kernels& k) {
    BarChartFrame f;
    f.horizontal = true;
    f.unit = BarValueUnit::Bytes;
    f.axisTitle = "bytes moved between L1 and L2 in 32-byte sectors";
    f.series = {"loads", "stores"};
    for (const TransposeVariant v : kVariants) {
        const TransposeSummary& s = k.summary(v);
        const double loads = s.loadSectorsPerRequest * double(s.loadRequests) * 32.0;
        const double stores = double(s.l1l2Bytes) - loads;
        const std::string label =
            s.smemWorstWavefronts == 0 ? variantTitle(v)
            : s.smemWorstExtraWavefronts == 0
                ? fill("%1 · no bank conflict", {variantTitle(v)})
                : fill("%1 · up to %2",
                       {variantTitle(v), formatCount(s.smemWorstExtraWavefronts, "extra wavefront",
                                                     "extra wavefronts")});
        f.categories.push_back(
            {label,
             {{loads, 0, fill("%1 loads: %2", {variantTitle(v), formatBytes(loads)})},
              {stores, 1, fill("%1 stores: %2", {variantTitle(v), formatBytes(stores)})}},
             ""});
    }
    f.emphasis = 1;
    f.title = fill("L1↔L2 traffic · matrix %1 each way",
                   {formatBytes(double(k.base.n) * k.base.n * k.base.elementBytes)});
    return f;
}

struct Pattern {
    MemoryAccessFrame global;
    MemoryAccessFrame shared;
    std::string description;
};

Pattern userPattern(const Params& p, int elementBytes) {
    const std::string text = p.text("expr");
    std::vector<LaneIndex> lanes;
    std::string description;
    if (text.empty()) {
        const auto stride = p.integer("stride");
        lanes = MemoryAccessModel::strided(stride, p.integer("offset"));
        description = fill("a[lane × %1 + %2]",
                           {std::to_string(stride), std::to_string(p.integer("offset"))});
    } else {
        const Expression e = Expression::parse(text, {"stride", "offset"});
        ExprEnv env;
        env.params = {p.integer("stride"), p.integer("offset")};
        lanes = MemoryAccessModel::fromExpression(e, env);
        description = text;
    }
    const ArrayRef array{.name = "a", .elementBytes = elementBytes, .baseBytes = 0};
    return {MemoryAccessModel::global(lanes, array, fill("your access · global: %1", {description}),
                                      "ld.global"),
            MemoryAccessModel::shared(lanes, array, fill("your access · shared: %1", {description}),
                                      "ld.shared"),
            description};
}

FactsFrame patternFacts(const Pattern& pat, int elementBytes) {
    const MemoryAccessFrame& g = pat.global;
    const MemoryAccessFrame& s = pat.shared;
    FactsFrame f;
    f.title = fill("%1 · %2-byte elements", {pat.description, std::to_string(elementBytes)});
    f.rows.push_back({.label = "global: 32-byte sectors per request",
                      .value = formatSignificant(g.sectorsPerRequest, 3),
                      .source = kCoalescingSource,
                      .emphasis = true});
    f.rows.push_back({.label = "global: 128-byte lines",
                      .value = std::to_string(g.lines.size()),
                      .source = kCoalescingSource,
                      .emphasis = false});
    f.rows.push_back({.label = "global: bytes used of bytes moved",
                      .value = fill("%1 of %2 (%3)", {formatBytes(double(g.bytesRequested)),
                                                      formatBytes(double(g.sectors.size()) * 32.0),
                                                      formatShare(g.efficiency, 3)}),
                      .source = kCoalescingSource,
                      .emphasis = false});
    f.rows.push_back({.label = fill("shared: wavefronts (fewest for %1)",
                                    {formatBytes(double(s.bytesRequested))}),
                      .value = fill("%1, fewest %2", {std::to_string(s.wavefronts),
                                                      std::to_string(s.minWavefronts)}),
                      .source = kBanksSource,
                      .emphasis = true});
    f.rows.push_back({.label = "shared: banks used",
                      .value = std::to_string(s.banksUsed),
                      .source = kBanksSource,
                      .emphasis = false});
    return f;
}

// Every number the slides quote for one warp instruction.
void addFrameResults(std::vector<ResultValue>& out, const std::string& name,
                     const MemoryAccessFrame& f) {
    out.push_back({fill("%1: active lanes", {name}),
                   std::count_if(f.lanes.begin(), f.lanes.end(),
                                 [](const LaneAccess& l) { return l.active; })});
    out.push_back({fill("%1: bytes requested", {name}), f.bytesRequested});
    if (f.space == MemoryAccessFrame::Space::Global) {
        out.push_back({fill("%1: sectors", {name}), f.sectors.size()});
        out.push_back(
            {fill("%1: bytes moved", {name}), f.sectors.size() * MemoryAccessModel::kSectorBytes});
        out.push_back({fill("%1: lines", {name}), f.lines.size()});
        out.push_back({fill("%1: bytes used of moved", {name}), f.efficiency});
    } else {
        out.push_back({fill("%1: wavefronts", {name}), f.wavefronts});
        out.push_back({fill("%1: fewest wavefronts", {name}), f.minWavefronts});
        out.push_back({fill("%1: bank-conflict wavefronts", {name}), extraWavefronts(f)});
        out.push_back({fill("%1: banks used", {name}), f.banksUsed});
    }
}

std::vector<ResultValue> transposeResults(const Kernels& k, const std::vector<TransposeTiming>& tt,
                                          const AchievableCopy& copy, const GpuSpec& gpu,
                                          const Pattern& pat) {
    const TransposeConfig& c = k.base;
    std::vector<ResultValue> r = {
        {"n", c.n},
        {"element bytes", c.elementBytes},
        {"tile", c.tile},
        {"padded tile pitch", c.tile + 1},
        {"block rows", c.blockRows},
        {"threads per block", c.tile * c.blockRows},
        {"tile rows each thread copies", c.tile / c.blockRows},
        {"matrix bytes", double(c.n) * c.n * c.elementBytes},
        {"output row bytes", double(c.n) * c.elementBytes},
        {"warp size", MemoryAccessModel::kWarpSize},
        {"sector bytes", MemoryAccessModel::kSectorBytes},
        {"line bytes", MemoryAccessModel::kLineBytes},
        {"bank word bytes", MemoryAccessModel::kWordBytes},
        {"banks", MemoryAccessModel::kBanks},
        {"peak HBM bandwidth, GB/s", copy.peakGBs},
        {"copy's achievable share of peak", copy.share},
        {"achievable copy bandwidth, GB/s", copy.gbs},
        {"memory (in the GPU's name)", gpu.value("memory_gb") * 1e9},
        {"L2 cache bytes", gpu.value("l2_cache_mb") * 1e6},
        {"naive store: output rows touched",
         rowsTouched(k.store(TransposeVariant::Naive), c.n, c.elementBytes)},
    };
    for (const TransposeVariant v : kVariants) {
        const std::string name = variantTitle(v);
        const TransposeSummary& s = k.summary(v);
        const std::vector<MemoryAccessFrame>& frames = k.of(v);
        for (std::size_t i = 0; i < frames.size(); ++i)
            addFrameResults(r, fill("%1 instruction %2", {name, std::to_string(i)}), frames[i]);
        r.push_back({fill("%1: load sectors per request", {name}), s.loadSectorsPerRequest});
        r.push_back({fill("%1: store sectors per request", {name}), s.storeSectorsPerRequest});
        r.push_back({fill("%1: L1↔L2 bytes", {name}), s.l1l2Bytes});
        r.push_back({fill("%1: most bank-conflict wavefronts of one instruction", {name}),
                     s.smemWorstExtraWavefronts});
        r.push_back({fill("%1: worst shared wavefronts", {name}), s.smemWorstWavefronts});
        r.push_back({fill("%1: relative time", {name}), s.relativeTime});
        r.push_back({fill("%1: L1↔L2 bytes vs the copy", {name}),
                     double(s.l1l2Bytes) / double(k.summary(TransposeVariant::Copy).l1l2Bytes)});
    }
    r.push_back({"naive store sectors vs load",
                 double(k.store(TransposeVariant::Naive).sectors.size()) /
                     double(k.load(TransposeVariant::Naive).sectors.size())});
    for (const TransposeTiming& t : tt) {
        r.push_back({fill("%1: effective GB/s", {t.variant}), t.gbs});
        r.push_back({fill("%1: share of the copy", {t.variant}), t.pctOfCopy / 100.0});
        r.push_back({fill("%1: share of peak", {t.variant}), t.gbs / copy.peakGBs});
    }
    addFrameResults(r, "your access, global", pat.global);
    addFrameResults(r, "your access, shared", pat.shared);
    return r;
}

// The copy's words: what a warp asks for and touches, each way.
std::string copyNarration(const Kernels& k) {
    const MemoryAccessFrame& load = k.load(TransposeVariant::Copy);
    const MemoryAccessFrame& store = k.store(TransposeVariant::Copy);
    const std::string touches =
        load.sectors.size() == store.sectors.size()
            ? fill("%1 each way", {sectorsText(load.sectors.size())})
            : fill("%1 on the load and %2 on the store",
                   {sectorsText(load.sectors.size()), sectorsText(store.sectors.size())});
    return fill("Each thread reads one %1-byte element and writes it to the same place. A "
                "warp's %2 ask for %3 and touch %4: %5 of the bytes moved are used.",
                {std::to_string(k.base.elementBytes), lanesText(load),
                 formatBytes(double(load.bytesRequested)), touches,
                 formatShare(load.efficiency, 3)});
}

std::string naiveNarration(const Kernels& k) {
    const MemoryAccessFrame& load = k.load(TransposeVariant::Naive);
    const MemoryAccessFrame& store = k.store(TransposeVariant::Naive);
    const int rows = rowsTouched(store, k.base.n, k.base.elementBytes);
    const std::string loads =
        fill("Loads walk along input rows: %1 for %2.",
             {sectorsText(load.sectors.size()), formatBytes(double(load.bytesRequested))});
    if (store.sectors.size() > load.sectors.size())
        return fill(
            "%1 The stores land in %2 different output rows, %3 apart, so the same %4 take "
            "%5, %6× the load's, and only %7 of the bytes moved are used.",
            {loads, std::to_string(rows), formatBytes(double(k.base.n) * k.base.elementBytes),
             formatBytes(double(store.bytesRequested)), sectorsText(store.sectors.size()),
             formatSignificant(double(store.sectors.size()) / double(load.sectors.size()), 3),
             formatShare(store.efficiency, 3)});
    return fill("%1 The stores land in %2 different output rows and take %3, no more than the "
                "load.",
                {loads, std::to_string(rows), sectorsText(store.sectors.size())});
}

// The step shows the first warp's first column read; where another shared access of the
// kernel takes more wavefronts beyond its minimum, the words say so.
std::string elsewhere(const Kernels& k, TransposeVariant v) {
    const int worst = k.summary(v).smemWorstExtraWavefronts;
    if (worst <= extraWavefronts(k.column(v)))
        return {};
    return fill(" Other shared accesses of the kernel take up to %1 beyond their minimum.",
                {formatCount(worst, "wavefront", "wavefronts")});
}

std::string tiledNarration(const Kernels& k) {
    const MemoryAccessFrame& column = k.column(TransposeVariant::Tiled);
    const TransposeSummary& tiled = k.summary(TransposeVariant::Tiled);
    const TransposeSummary& copy = k.summary(TransposeVariant::Copy);
    const bool likeCopy = tiled.loadSectorsPerRequest == copy.loadSectorsPerRequest &&
                          tiled.storeSectorsPerRequest == copy.storeSectorsPerRequest;
    // Per-request averages: "1 sector" only when exactly one.
    const auto perRequest = [](double v) {
        return fill(v == 1.0 ? "%1 sector" : "%1 sectors", {formatSignificant(v, 3)});
    };
    const std::string sides = tiled.loadSectorsPerRequest == tiled.storeSectorsPerRequest
                                  ? fill("loads and stores each take %1 per request",
                                         {perRequest(tiled.loadSectorsPerRequest)})
                                  : fill("loads take %1 and stores %2 per request",
                                         {perRequest(tiled.loadSectorsPerRequest),
                                          perRequest(tiled.storeSectorsPerRequest)});
    const std::string global =
        fill("Read each %1×%1 tile row by row into shared memory, then write it out row by row: "
             "%2%3.",
             {std::to_string(k.base.tile), sides, likeCopy ? ", as the copy's do" : ""});
    if (extraWavefronts(column) > 0)
        return fill("%1 Reading a column of the tile puts up to %2 different words in one bank: %3 "
                    "where %4 would do for %5, a bank conflict.%6",
                    {global, std::to_string(column.wavefronts), wavefrontsText(column.wavefronts),
                     std::to_string(column.minWavefronts),
                     formatBytes(double(column.bytesRequested)),
                     elsewhere(k, TransposeVariant::Tiled)});
    return fill("%1 Reading a column of the tile spreads over %2 banks here: %3, the fewest %4 can "
                "take, so no bank conflict.%5",
                {global, std::to_string(column.banksUsed), wavefrontsText(column.wavefronts),
                 formatBytes(double(column.bytesRequested)),
                 elsewhere(k, TransposeVariant::Tiled)});
}

std::string paddedNarration(const Kernels& k) {
    const MemoryAccessFrame& column = k.column(TransposeVariant::Padded);
    const MemoryAccessFrame& before = k.column(TransposeVariant::Tiled);
    const std::string shift =
        fill("One extra column makes each row of the tile start %1 later, so the column read "
             "spreads over %2 banks",
             {formatBytes(double(k.base.elementBytes)), std::to_string(column.banksUsed)});
    if (extraWavefronts(column) == 0)
        return fill("%1: %2, the fewest %3 can take (%4 unpadded). No bank conflict.%5",
                    {shift, wavefrontsText(column.wavefronts),
                     formatBytes(double(column.bytesRequested)), std::to_string(before.wavefronts),
                     elsewhere(k, TransposeVariant::Padded)});
    return fill("%1, but still takes %2 where %3 would do (%4 unpadded).%5",
                {shift, wavefrontsText(column.wavefronts), std::to_string(column.minWavefronts),
                 std::to_string(before.wavefronts), elsewhere(k, TransposeVariant::Padded)});
}

std::string billNarration(const Kernels& k, const std::vector<TransposeTiming>& tt,
                          const AchievableCopy& copy, bool modeled) {
    const auto c = timingOf(tt, "copy");
    const auto naive = timingOf(tt, "naive");
    const auto tiled = timingOf(tt, "tiled");
    const auto padded = timingOf(tt, "padded");
    if (!c || !naive || !tiled || !padded)
        return "Effective bandwidth of each kernel against the copy's.";
    const std::string how = !modeled        ? "measured"
                            : copy.measured ? "as BabelStream measured on this GPU"
                                            : "assumed: BabelStream measured it on an A100";
    const std::string head =
        fill("The copy reaches %1 GB/s, %2 of the %3 GB/s peak (%4); naive reaches %5 of the "
             "copy.",
             {formatSignificant(c->gbs, 4), formatShare(c->gbs / copy.peakGBs, 3),
              formatSignificant(copy.peakGBs, 4), how, formatPercent(naive->pctOfCopy, 3)});
    const double gain = padded->gbs / tiled->gbs;
    if (gain > 1.005)
        return fill(
            "%1 Padding lifts the tiled kernel from %2 to %3 of the copy.",
            {head, formatPercent(tiled->pctOfCopy, 3), formatPercent(padded->pctOfCopy, 3)});
    if (gain < 0.995)
        return fill(
            "%1 Padding slows the tiled kernel here, from %2 to %3 of the copy.",
            {head, formatPercent(tiled->pctOfCopy, 3), formatPercent(padded->pctOfCopy, 3)});
    // Equal times: either there is no conflict to remove, or something else sets the pace.
    const int conflicts = extraWavefronts(k.column(TransposeVariant::Tiled));
    if (conflicts == 0)
        return fill("%1 Tiled and padded both reach %2 of the copy: the tile has no bank conflict "
                    "to remove here.",
                    {head, formatPercent(padded->pctOfCopy, 3)});
    return fill("%1 Tiled and padded both reach %2 of the copy: %3, the memory traffic sets the "
                "pace, not the column read's %4.",
                {head, formatPercent(padded->pctOfCopy, 3),
                 modeled ? "in this model" : "measured here",
                 formatCount(conflicts, "extra wavefront", "extra wavefronts")});
}

} // namespace

std::string CoalescingTransposeScenario::question() const {
    return "Why is my naive transpose several times slower than a copy? Fix it.";
}

std::string CoalescingTransposeScenario::answer() const {
    return R"(**A warp's 32 addresses are served in 32-byte sectors.** Consecutive 4-byte elements fill 4 sectors per
request (128 bytes, fully used); a stride of 32 elements needs 32 sectors for the same 128 useful bytes.

- **Copy:** reads and writes coalesce, 4 sectors per request each way — the bandwidth ceiling. A real copy reaches
  about 87–90 % of peak HBM bandwidth (BabelStream on A100), not 100 %.
- **Naive transpose** `out[x*n + y] = in[y*n + x]`: reads coalesce, but a warp's writes land in 32 different rows,
  **32 sectors per request**, 8× the L1↔L2 write traffic (L2 merges the partial writes before DRAM, so DRAM sees less).
- **Tiled:** read a 32×32 tile coalesced into shared memory, `__syncthreads()`, write it out coalesced. Now both
  global sides use 4 sectors per request — but reading a tile *column* hits one bank 32 times: **32 wavefronts where
  1 would do**, a bank conflict (shared memory has 32 banks of 4 bytes; word w sits in bank w mod 32).
- **Padded** `tile[32][33]`: the extra column shifts each row by one bank, so a column touches 32 different banks,
  **conflict-free**; it runs close to copy.
- Count conflicts as wavefronts beyond the minimum, ⌈bytes / 128⌉: a warp reading 32 × 8-byte elements needs two
  wavefronts and has no conflict; unpadded, its column read takes 32.
- Misaligned by one element: 5 sectors instead of 4. 8-byte elements: 8 sectors for a stride-1 warp.
- Several lanes reading the **same word** is a broadcast, not a conflict.

Relative times here come from a simple model (L1↔L2 sectors moved vs shared-memory wavefronts), not a measurement;
the live issue adds timed kernels.)";
}

std::vector<SourceRef> CoalescingTransposeScenario::sources() const {
    return {
        {"NVIDIA cuda-samples: 6_Performance/transpose",
         "https://github.com/NVIDIA/cuda-samples/tree/master/Samples/6_Performance/transpose"},
        {"CUDA C++ Best Practices Guide: coalesced access to global memory",
         "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/"
         "#coalesced-access-to-global-memory"},
        {"CUDA C++ Programming Guide: shared memory banks (compute capability 5.x+)",
         "https://docs.nvidia.com/cuda/cuda-c-programming-guide/#shared-memory-5-x"},
        {"Harris, An Efficient Matrix Transpose in CUDA C/C++ (NVIDIA blog)",
         "https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/"},
        {"BabelStream (Deakin et al.): achievable memory bandwidth",
         "https://github.com/UoB-HPC/BabelStream"},
    };
}

std::vector<ParamSpec> CoalescingTransposeScenario::parameters() const {
    return {
        ParamSpec::choice("n", "Matrix size n", {"256", "512", "1024", "2048", "4096", "8192"},
                          "1024"),
        ParamSpec::choice("elem-bytes", "Element size (B)", {"1", "2", "4", "8"}, "4"),
        ParamSpec::choice("tile", "Tile size", {"8", "16", "32"}, "32"),
        ParamSpec::choice("block-rows", "Block rows", {"1", "2", "4", "8"}, "8",
                          "threads per block = tile × block rows"),
        ParamSpec::integer("stride", "Your stride (elements)", "", 0, 64, 1),
        ParamSpec::integer("offset", "Your offset (elements)", "", 0, 64, 0),
        ParamSpec::text("expr", "Your index expression", "",
                        "element index per lane, e.g. (threadIdx.y*32 + threadIdx.x) * 33; "
                        "empty = lane × stride + offset"),
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                          "sets the HBM bandwidth of the modeled timings; a recording says "
                          "its own device"),
    };
}

Story CoalescingTransposeScenario::build(const Params& p, const ScenarioInputs& in) const {
    auto k = std::make_shared<Kernels>();
    k->base.n = std::stoi(p.text("n"));
    k->base.elementBytes = std::stoi(p.text("elem-bytes"));
    k->base.tile = std::stoi(p.text("tile"));
    k->base.blockRows = std::stoi(p.text("block-rows"));
    for (std::size_t i = 0; i < kVariants.size(); ++i) {
        TransposeConfig c = k->base;
        c.variant = kVariants[i];
        const TransposeModel model(c);
        k->frames[i] = model.warpFrames();
        k->summaries[i] = model.summary();
    }
    auto pattern = std::make_shared<const Pattern>(userPattern(p, k->base.elementBytes));
    std::shared_ptr<const Kernels> kernels = k;

    // The bill replays a recording measured at these parameters, else the model's timings in
    // its schema.
    const GpuSpec& gpu = *HardwareCatalogue::builtin().find(p.text("gpu"));
    const AchievableCopy copy = achievableCopy(gpu);
    RecordingChoice choice = chooseRecording(*this, kTransposeTimingKind, p, in);
    auto timing = std::make_shared<const Trace>(
        choice.trace ? std::move(*choice.trace) : modeledTransposeTiming(k->base, gpu));
    const std::vector<TransposeTiming> timings = transposeTimings(*timing);

    Story story;
    story.provenance =
        withReplayNote(fill("%1; sectors and banks: exact address arithmetic of each kernel's "
                            "indexing",
                            {replayProvenance(*timing, "timings from the transpose model")}),
                       choice);
    story.results = transposeResults(*k, timings, copy, gpu, *pattern);

    auto variantStep = [&](TransposeVariant v, std::size_t focus, std::string title,
                           std::string narration) {
        story.steps.push_back(
            {std::move(title), std::move(narration), 4.0,
             [kernels, v, focus](double t) { return variantAt(*kernels, v, focus, t); }});
    };
    const MemoryAccessFrame& naiveLoad = k->load(TransposeVariant::Naive);
    const MemoryAccessFrame& naiveStore = k->store(TransposeVariant::Naive);
    const MemoryAccessFrame& tiledColumn = k->column(TransposeVariant::Tiled);
    const MemoryAccessFrame& paddedColumn = k->column(TransposeVariant::Padded);
    const TransposeSummary& copySummary = k->summary(TransposeVariant::Copy);
    const TransposeSummary& naiveSummary = k->summary(TransposeVariant::Naive);
    const auto copyTiming = timingOf(timings, "copy");
    const auto naiveTiming = timingOf(timings, "naive");
    const auto paddedTiming = timingOf(timings, "padded");

    variantStep(TransposeVariant::Copy, 1, "The copy: the ceiling a transpose aims for",
                copyNarration(*k));
    variantStep(
        TransposeVariant::Naive, 1,
        naiveStore.sectors.size() > naiveLoad.sectors.size()
            ? fill("Naive transpose: loads take %1, stores %2",
                   {sectorsText(naiveLoad.sectors.size()), sectorsText(naiveStore.sectors.size())})
            : "Naive transpose: stores no worse than loads here",
        naiveNarration(*k));
    variantStep(TransposeVariant::Tiled, kColumnRead,
                extraWavefronts(tiledColumn) > 0
                    ? fill("Tiled: the column read takes %1 where %2 would do",
                           {wavefrontsText(tiledColumn.wavefronts),
                            std::to_string(tiledColumn.minWavefronts)})
                : k->summary(TransposeVariant::Tiled).smemWorstExtraWavefronts == 0
                    ? "Tiled: coalesced both ways, and no bank conflict here"
                    : "Tiled: coalesced both ways; this column read is conflict-free",
                tiledNarration(*k));
    variantStep(TransposeVariant::Padded, kColumnRead,
                fill(extraWavefronts(paddedColumn) > 0 ? "Pad the tile to [%1][%2]"
                     : k->summary(TransposeVariant::Padded).smemWorstExtraWavefronts == 0
                         ? "Pad the tile to [%1][%2]: conflict-free"
                         : "Pad the tile to [%1][%2]: this column read is conflict-free",
                     {std::to_string(k->base.tile), std::to_string(k->base.tile + 1)}),
                paddedNarration(*k));
    story.steps.push_back(
        {"The bill",
         billNarration(*k, timings, copy, timing->provenance.source == TraceSource::Modeled), 3.0,
         [kernels, timing, copy](double) {
             return Frames{{billChart(*timing, *kernels, copy), trafficChart(*kernels)}};
         }});
    const MemoryAccessFrame& pg = pattern->global;
    const MemoryAccessFrame& ps = pattern->shared;
    story.steps.push_back(
        {"Your own access pattern",
         fill("%1 with %2-byte elements. In global memory the warp's %3 ask for %4 and touch %5 "
              "(%6 of the bytes moved used); in shared memory the read takes %7%8.",
              {pattern->description, std::to_string(k->base.elementBytes), lanesText(pg),
               formatBytes(double(pg.bytesRequested)), sectorsText(pg.sectors.size()),
               formatShare(pg.efficiency, 3), wavefrontsText(ps.wavefronts),
               extraWavefronts(ps) > 0
                   ? fill(" where %1 would do: a bank conflict", {std::to_string(ps.minWavefronts)})
                   : std::string(", the fewest its bytes allow: no bank conflict")}),
         4.0, [pattern, e = k->base.elementBytes](double t) {
             return Frames{
                 {t < 0.5 ? pattern->global : pattern->shared, patternFacts(*pattern, e)}};
         }});

    const double matrixBytes = double(k->base.n) * k->base.n * k->base.elementBytes;
    const double l2Bytes = gpu.value("l2_cache_mb") * 1e6;
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("Global memory serves a warp in 32-byte sectors: the copy's %1 ask for %2 and touch "
              "%3. The naive store's lanes write %4 different output rows, so the same %5 touch "
              "%6.",
              {lanesText(k->load(TransposeVariant::Copy)),
               formatBytes(double(k->load(TransposeVariant::Copy).bytesRequested)),
               sectorsText(k->load(TransposeVariant::Copy).sectors.size()),
               std::to_string(rowsTouched(naiveStore, k->base.n, k->base.elementBytes)),
               formatBytes(double(naiveStore.bytesRequested)),
               sectorsText(naiveStore.sectors.size())}),
         kCoalescingSource},
        {fill("Over the whole kernel naive moves %1 between L1 and L2 against the copy's %2 "
              "(%3×). %4",
              {formatBytes(double(naiveSummary.l1l2Bytes)),
               formatBytes(double(copySummary.l1l2Bytes)),
               formatSignificant(double(naiveSummary.l1l2Bytes) / double(copySummary.l1l2Bytes), 3),
               matrixBytes <= l2Bytes
                   ? fill("The %1 output fits in the %2 L2, which merges the partial writes: "
                          "DRAM moves less than that.",
                          {formatBytes(matrixBytes), formatBytes(l2Bytes)})
                   : fill("The %1 output is larger than the %2 L2, so fewer partial writes "
                          "merge there before DRAM.",
                          {formatBytes(matrixBytes), formatBytes(l2Bytes)})}),
         ""},
        {extraWavefronts(tiledColumn) > 0
             ? fill("Stage each %1×%1 tile in shared memory (32 banks of 4 bytes). Its column read "
                    "takes %2 where ⌈%3 / 128 B⌉ = %4 would do: the extra ones are bank "
                    "conflicts.",
                    {std::to_string(k->base.tile), wavefrontsText(tiledColumn.wavefronts),
                     formatBytes(double(tiledColumn.bytesRequested)),
                     std::to_string(tiledColumn.minWavefronts)})
             : fill("Stage each %1×%1 tile in shared memory (32 banks of 4 bytes). Its column read "
                    "takes %2 = ⌈%3 / 128 B⌉: no bank conflict at this shape.",
                    {std::to_string(k->base.tile), wavefrontsText(tiledColumn.wavefronts),
                     formatBytes(double(tiledColumn.bytesRequested))}),
         kBanksSource},
        {fill(extraWavefronts(paddedColumn) == 0
                  ? "Pad to [%1][%2]: each row starts one element later, the column read spreads "
                    "over %3 banks and takes %4, the fewest possible."
                  : "Pad to [%1][%2]: each row starts one element later, the column read spreads "
                    "over %3 banks and takes %4.",
              {std::to_string(k->base.tile), std::to_string(k->base.tile + 1),
               std::to_string(paddedColumn.banksUsed), wavefrontsText(paddedColumn.wavefronts)}),
         kPaddingSource},
    };
    if (copyTiming && naiveTiming && paddedTiming)
        story.whiteboard.points.push_back(
            {fill("A copy reaches about %1 of peak HBM bandwidth%2; here it runs at %3 of %4 "
                  "GB/s, naive at %5 of the copy, padded at %6.",
                  {formatShare(copy.share, 2),
                   copy.measured ? std::string(" (BabelStream)")
                                 : std::string(" (assumed: BabelStream measured it on an A100)"),
                   fill("%1 GB/s", {formatSignificant(copyTiming->gbs, 4)}),
                   formatSignificant(copy.peakGBs, 4), formatPercent(naiveTiming->pctOfCopy, 3),
                   formatPercent(paddedTiming->pctOfCopy, 3)}),
             AchievableCopy::kSource});

    const int rows = rowsTouched(naiveStore, k->base.n, k->base.elementBytes);
    story.checks = {
        {fill("How many 32-byte sectors does one warp's naive store touch (%1-byte elements, "
              "%2×%2 tile)?",
              {std::to_string(k->base.elementBytes), std::to_string(k->base.tile)}),
         static_cast<double>(naiveStore.sectors.size()), "sectors", 0.0,
         fill("Its %1 write %2 of data to %3 different output rows, %4 apart, and no two rows "
              "share a sector: %5.",
              {lanesText(naiveStore), formatBytes(double(naiveStore.bytesRequested)),
               std::to_string(rows), formatBytes(double(k->base.n) * k->base.elementBytes),
               sectorsText(naiveStore.sectors.size())})},
        {"How many shared-memory wavefronts does the unpadded tile's column read take?",
         static_cast<double>(tiledColumn.wavefronts), "wavefronts", 0.0,
         fill("Lane tx reads tile[tx][c], byte (tx × %1 + c) × %2, bank ⌊byte / 4⌋ mod 32: at "
              "most %3 distinct words share a bank, so %4 (the %5 need at least %6).",
              {std::to_string(k->base.tile), std::to_string(k->base.elementBytes),
               std::to_string(tiledColumn.wavefronts), wavefrontsText(tiledColumn.wavefronts),
               formatBytes(double(tiledColumn.bytesRequested)),
               std::to_string(tiledColumn.minWavefronts)})},
    };
    Step& answer = addWhiteboardStep(
        story, fill("Sectors per request for global memory, wavefronts beyond ⌈bytes / 128⌉ for "
                    "shared: naive %1 per store, tiled %2 per column read, padded %3.",
                    {sectorsText(naiveStore.sectors.size()), wavefrontsText(tiledColumn.wavefronts),
                     wavefrontsText(paddedColumn.wavefronts)}));
    // Beside the points, the bill they explain.
    answer.frames = [points = answer.frames, kernels, timing, copy](double t) {
        Frames f = points(t);
        f.items.push_back(billChart(*timing, *kernels, copy));
        return f;
    };
    return story;
}

std::optional<std::vector<RecordingInput>>
CoalescingTransposeScenario::recordingInputs(const Trace& recording) const {
    auto inputs = std::vector<RecordingInput>{};
    if (const auto gpu = gpuRecordingInput(recording))
        inputs.push_back(*gpu);
    else
        return std::nullopt;
    // The timings hold for this matrix, element, tile and block shape only.
    for (const auto& [param, key] :
         {std::pair{"n", "n"}, std::pair{"elem-bytes", "elem_bytes"}, std::pair{"tile", "tile"},
          std::pair{"block-rows", "block_rows"}}) {
        const auto it = recording.metadata.find(key);
        if (it == recording.metadata.end())
            return std::nullopt;
        inputs.push_back({param, it->second});
    }
    return inputs;
}
} // namespace wb
