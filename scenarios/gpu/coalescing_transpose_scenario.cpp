#include "gpu/coalescing_transpose_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/memory_access_model.h"
#include "gpu/transpose_model.h"
#include "gpu/transpose_recording.h"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

constexpr const char* kModelSource = "address → sector/bank arithmetic (FACTS §13)";
constexpr std::array<TransposeVariant, 4> kVariants{TransposeVariant::Copy, TransposeVariant::Naive,
                                                    TransposeVariant::Tiled,
                                                    TransposeVariant::Padded};

std::string variantTitle(TransposeVariant v) {
    switch (v) {
    case TransposeVariant::Copy:
        return "copy";
    case TransposeVariant::Naive:
        return "naive transpose";
    case TransposeVariant::Tiled:
        return "tiled [T][T]";
    case TransposeVariant::Padded:
        return "tiled, padded [T][T+1]";
    }
    return {};
}

struct Kernels {
    TransposeConfig base;
    std::array<std::vector<MemoryAccessFrame>, 4> frames; // per variant, warp 0 of block 0
    std::array<TransposeSummary, 4> summaries;
};

FactsFrame summaryFacts(const Kernels& k, TransposeVariant focus) {
    FactsFrame f;
    f.title = "n = " + std::to_string(k.base.n) + ", " + std::to_string(k.base.elementBytes) +
              "-byte elements, tile " + std::to_string(k.base.tile) + "×" +
              std::to_string(k.base.tile) + ", " + std::to_string(k.base.tile / k.base.blockRows) +
              " loop iterations per thread";
    for (size_t i = 0; i < kVariants.size(); ++i) {
        const TransposeSummary& s = k.summaries[i];
        std::string value = formatSignificant(s.loadSectorsPerRequest, 3) + " / " +
                            formatSignificant(s.storeSectorsPerRequest, 3) + " sectors/req";
        if (s.smemConflictDegree > 0)
            value += " · " + std::to_string(s.smemConflictDegree) + "-way";
        value += " · ×" + formatSignificant(s.relativeTime, 2);
        f.rows.push_back(
            {variantTitle(kVariants[i]) + " · " + formatBytes(double(s.dramBytes)) + " DRAM", value,
             kModelSource, kVariants[i] == focus});
    }
    return f;
}

std::string metaOr(const Trace& t, const char* key, const std::string& fallback) {
    const auto it = t.metadata.find(key);
    return it == t.metadata.end() ? fallback : it->second;
}

// The bill exactly as the trace holds it (measured or modeled): effective GB/s and % of the
// copy per kernel, under the trace's own size and provenance.
FactsFrame billFacts(const Trace& trace) {
    FactsFrame f;
    f.title = "Effective bandwidth, n = " + metaOr(trace, "n", "?") + ", " +
              metaOr(trace, "elem_bytes", "?") + "-byte elements · " +
              describeProvenance(trace.provenance);
    const std::string source = trace.provenance.source == TraceSource::Modeled
                                   ? "modeled: copy at catalogue HBM bandwidth × model's "
                                     "relative time"
                                   : describeProvenance(trace.provenance);
    for (const auto& t : transposeTimings(trace)) {
        std::string value = formatSignificant(t.gbs, 4) + " GB/s · " +
                            formatSignificant(t.pctOfCopy, 3) + " % of copy";
        if (!t.referenceOk)
            value += " · WRONG RESULT";
        std::string label = t.variant;
        if (t.durationNs > 0)
            label.append(" · ").append(formatSi(static_cast<double>(t.durationNs) * 1e-9, "s"));
        f.rows.push_back({label, value, source, t.variant == "naive" || t.variant == "padded"});
    }
    return f;
}

// The bill as bars: each kernel's effective bandwidth on one axis, so the gap to the copy is a
// length. Titled with the slowest and the padded kernel's share of the copy, as computed.
BarChartFrame billChart(const Trace& trace) {
    BarChartFrame f;
    f.horizontal = true;
    f.axisTitle = "effective bandwidth (GB/s, 2 n² × element bytes ÷ time)";
    f.series = {"effective bandwidth"};
    const std::vector<TransposeTiming> timings = transposeTimings(trace);
    const TransposeTiming* slowest = nullptr;
    for (const TransposeTiming& t : timings) {
        if (t.variant == "padded")
            f.emphasis = static_cast<int>(f.categories.size());
        if (slowest == nullptr || t.gbs < slowest->gbs)
            slowest = &t;
        f.categories.push_back({t.variant + (t.referenceOk ? "" : " (wrong result)"),
                                {{t.gbs, 0,
                                  t.variant + ": " + formatSignificant(t.gbs, 4) + " GB/s, " +
                                      formatSignificant(t.pctOfCopy, 3) + " % of the copy"}},
                                ""});
    }
    f.title = "Effective bandwidth per kernel · " + describeProvenance(trace.provenance);
    if (slowest != nullptr)
        f.caption = "slowest: " + slowest->variant + " at " +
                    formatSignificant(slowest->pctOfCopy, 3) + " % of the copy";
    return f;
}

// Cycles through one variant's memory instructions as t goes from 0 to 1.
Frames variantAt(const Kernels& k, TransposeVariant v, double t) {
    const auto& list = k.frames[static_cast<size_t>(v)];
    const size_t i =
        std::min(list.size() - 1,
                 static_cast<size_t>(std::clamp(t, 0.0, 1.0) * static_cast<double>(list.size())));
    return Frames{{list[i], summaryFacts(k, v)}};
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
        description = "a[lane × " + std::to_string(stride) + " + " +
                      std::to_string(p.integer("offset")) + "]";
    } else {
        const Expression e = Expression::parse(text, {"stride", "offset"});
        ExprEnv env;
        env.params = {p.integer("stride"), p.integer("offset")};
        lanes = MemoryAccessModel::fromExpression(e, env);
        description = text;
    }
    const ArrayRef array{"a", elementBytes, 0};
    return {MemoryAccessModel::global(lanes, array, "your access · global: " + description,
                                      "ld.global"),
            MemoryAccessModel::shared(lanes, array, "your access · shared: " + description,
                                      "ld.shared"),
            description};
}

FactsFrame patternFacts(const Pattern& pat) {
    FactsFrame f;
    f.title = pat.description;
    f.rows.push_back({"global: sectors per request",
                      formatSignificant(pat.global.sectorsPerRequest, 3), kModelSource, true});
    f.rows.push_back(
        {"global: 128-byte lines", std::to_string(pat.global.lines.size()), kModelSource, false});
    f.rows.push_back({"global: efficiency (bytes used / moved)",
                      formatSignificant(100.0 * pat.global.efficiency, 3) + " %", kModelSource,
                      false});
    f.rows.push_back({"shared: conflict degree", std::to_string(pat.shared.conflictDegree) + "-way",
                      kModelSource, true});
    f.rows.push_back(
        {"shared: banks used", std::to_string(pat.shared.banksUsed), kModelSource, false});
    return f;
}

} // namespace

std::string CoalescingTransposeScenario::question() const {
    return "Why is my naive transpose several times slower than a copy? Fix it.";
}

std::string CoalescingTransposeScenario::answer() const {
    return R"(**A warp's 32 addresses are served in 32-byte sectors.** Consecutive 4-byte elements fill 4 sectors per
request (128 bytes, fully used); a stride of 32 elements needs 32 sectors for the same 128 useful bytes.

- **Copy:** reads and writes coalesce, 4 sectors per request each way — the bandwidth ceiling.
- **Naive transpose** `out[x*n + y] = in[y*n + x]`: reads coalesce, but a warp's writes land in 32 different rows,
  **32 sectors per request**, 8× the write traffic and far more transactions.
- **Tiled:** read a 32×32 tile coalesced into shared memory, `__syncthreads()`, write it out coalesced. Now both
  global sides use 4 sectors per request — but reading a tile *column* hits one bank 32 times: a **32-way bank
  conflict** (shared memory has 32 banks of 4 bytes; word w sits in bank w mod 32).
- **Padded** `tile[32][33]`: the extra column shifts each row by one bank, so a column touches 32 different banks,
  **conflict-free**; it runs close to copy.
- Misaligned by one element: 5 sectors instead of 4. 8-byte elements: 8 sectors for a stride-1 warp.
- Several lanes reading the **same word** is a broadcast, not a conflict.

Relative times here come from a simple model (DRAM sectors moved vs shared-memory passes), not a measurement; the
live issue adds timed kernels.)";
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
    for (size_t i = 0; i < kVariants.size(); ++i) {
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
    const GpuSpec* gpu = HardwareCatalogue::builtin().find(p.text("gpu"));
    RecordingChoice choice = chooseRecording(*this, kTransposeTimingKind, p, in);
    auto timing = std::make_shared<const Trace>(
        choice.trace ? std::move(*choice.trace) : modeledTransposeTiming(k->base, *gpu));

    Story story;
    story.provenance =
        withReplayNote(replayProvenance(*timing, "timings from the transpose model") +
                           "; sectors and banks: exact address arithmetic of each kernel's "
                           "indexing",
                       choice);
    auto variantStep = [&](TransposeVariant v, std::string title, std::string narration) {
        story.steps.push_back({std::move(title), std::move(narration), 4.0,
                               [kernels, v](double t) { return variantAt(*kernels, v, t); }});
    };
    variantStep(TransposeVariant::Copy, "The copy: the bandwidth ceiling",
                "Lane i reads element i and writes element i: a warp touches 4 consecutive "
                "sectors each way, every byte used.");
    variantStep(TransposeVariant::Naive, "Naive transpose: reads coalesce, writes do not",
                "Reads walk along a row, but each lane writes a different row of the output: "
                "32 sectors per request to store 128 useful bytes.");
    variantStep(TransposeVariant::Tiled, "Tiled: stage through shared memory",
                "Read a tile row by row into shared memory, then write it out row by row: both "
                "global sides coalesce. Reading the tile's column hits one bank 32 times.");
    variantStep(TransposeVariant::Padded, "Pad the tile to [T][T+1]",
                "One extra column shifts each row by a bank, so a column spreads over all 32 "
                "banks: conflict-free, and close to the copy.");
    story.steps.push_back(
        {"The bill",
         "Effective bandwidth of each kernel and its share of the copy, next to the DRAM "
         "bytes, sectors per request and bank conflicts that explain it.",
         3.0, [kernels, timing](double) {
             return Frames{{billChart(*timing), billFacts(*timing),
                            summaryFacts(*kernels, TransposeVariant::Padded)}};
         }});
    story.steps.push_back(
        {"Your own access pattern",
         "Type a stride or an index expression: every lane's address is "
         "computed, then its sectors in global memory and banks in shared.",
         4.0, [pattern](double t) {
             return Frames{{t < 0.5 ? pattern->global : pattern->shared, patternFacts(*pattern)}};
         }});
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
