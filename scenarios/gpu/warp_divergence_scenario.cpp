#include "gpu/warp_divergence_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "gpu/branch_masks_recording.h"
#include "gpu/simt_interpreter.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

namespace wb {

namespace {

constexpr const char* kSimtSource = "per-lane SIMT interpreter (reconvergence stack)";

struct Run {
    SimtConfig config;
    std::vector<SimtInstruction> program;
    SimtResult result;
    size_t branchFrame = 0; // trace index just after the (first) branch issued
};

Run execute(const SimtConfig& config) {
    Run run;
    run.config = config;
    const SimtInterpreter interpreter(config);
    run.program = interpreter.program();
    run.result = interpreter.run();
    const auto& trace = run.result.trace;
    for (size_t i = 0; i < trace.size(); ++i) {
        const int pc = trace[i].pc;
        if (pc >= 0 && static_cast<size_t>(pc) < run.program.size() &&
            run.program[static_cast<size_t>(pc)].kind == SimtInstruction::Kind::Branch) {
            run.branchFrame = i + 1;
            break;
        }
    }
    run.branchFrame = std::clamp<size_t>(run.branchFrame, 1, trace.size());
    return run;
}

// The frame at t across trace[first, last).
WarpFrame traceAt(const Run& run, size_t first, size_t last, double t) {
    const auto& trace = run.result.trace;
    last = std::max(first + 1, std::min(last, trace.size()));
    const auto span = static_cast<double>(last - first);
    const auto i =
        first + std::min(last - first - 1, static_cast<size_t>(std::clamp(t, 0.0, 1.0) * span));
    return trace[i];
}

FactsFrame resultFacts(const Run& run, const std::string& title) {
    FactsFrame f;
    f.title = title;
    const auto& r = run.result;
    f.rows.push_back({"diverges", r.diverges ? "yes" : "no", kSimtSource, true});
    f.rows.push_back({"serialized paths", std::to_string(r.paths), kSimtSource, false});
    f.rows.push_back({"instructions issued", std::to_string(r.issued), kSimtSource, false});
    f.rows.push_back({"SIMT efficiency = active lanes / (32 × issued)",
                      formatSignificant(100.0 * r.simtEfficiency, 3) + " %", kSimtSource, true});
    return f;
}

FactsFrame allKinds(const SimtConfig& base) {
    FactsFrame f;
    f.title = "Every branch kind, warp " + std::to_string(base.warp) + " of block " +
              std::to_string(base.blockIdx);
    for (const auto& name : branchKindNames()) {
        const BranchKind kind = *parseBranchKind(name);
        if (kind == BranchKind::Custom)
            continue;
        SimtConfig c = base;
        c.kind = kind;
        const Run run = execute(c);
        f.rows.push_back({SimtInterpreter(c).conditionText(),
                          std::string(run.result.diverges ? "diverges · " : "uniform · ") +
                              std::to_string(run.result.paths) + " path(s) · " +
                              formatSignificant(100.0 * run.result.simtEfficiency, 3) + " %",
                          kSimtSource, kind == base.kind});
    }
    return f;
}

std::string hexMask(std::uint32_t mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", mask);
    return text;
}

std::string metaOr(const Trace& t, const char* key, const std::string& fallback) {
    const auto it = t.metadata.find(key);
    return it == t.metadata.end() || it->second.empty() ? fallback : it->second;
}

// The trace's masks for one branch kind and warp next to the interpreter's prediction for the
// trace's own inputs (block size, seed, p, block). Identical for the modeled trace by
// construction; for a recording every disagreement is a row marked ✗, never dropped.
FactsFrame maskFacts(const Trace& trace, const SimtConfig& selected) {
    FactsFrame f;
    const std::string kind = branchKindName(selected.kind);
    const std::string source = std::string(toString(trace.provenance.source));
    if (selected.kind == BranchKind::Custom) {
        f.title = "Active masks: " + replayProvenance(trace, "SIMT interpreter");
        f.rows.push_back({"custom condition",
                          "not in the trace: the kernel runs the six fixed "
                          "branch kinds",
                          kSimtSource, false});
        return f;
    }
    // The kernel's conditions read blockIdx.x only as blockIdx.x % 2, so a block of the same
    // parity stands in when the trace lacks the selected one.
    const auto records = branchMaskRecords(trace);
    int block = -1;
    for (const auto& r : records) {
        if (r.kind != kind || r.warp != selected.warp)
            continue;
        if (r.block == selected.blockIdx) {
            block = r.block;
            break;
        }
        if (block < 0 && r.block % 2 == selected.blockIdx % 2)
            block = r.block;
    }
    if (block < 0)
        block = selected.blockIdx;

    SimtConfig c = selected;
    c.blockIdx = block;
    c.condition.clear();
    std::map<std::string, std::uint32_t> predicted;
    try {
        c.blockDim = std::stoi(metaOr(trace, "block_dim", std::to_string(c.blockDim)));
        c.seed = std::stoull(metaOr(trace, "seed", std::to_string(c.seed)));
        c.p = std::stod(metaOr(trace, "p", std::to_string(c.p)));
        predicted = predictedBranchMasks(c);
    } catch (const std::exception& e) {
        f.rows.push_back(
            {"prediction", std::string("not possible: ") + e.what(), kSimtSource, true});
    }
    f.title = "Active masks, " + kind + ", warp " + std::to_string(selected.warp) + " of block " +
              std::to_string(block) + " · " + replayProvenance(trace, "SIMT interpreter");
    std::map<std::string, std::uint32_t> traced;
    for (const auto& r : records)
        if (r.kind == kind && r.warp == selected.warp && r.block == block)
            traced[r.point] = r.mask;
    const std::string rowSource = describeProvenance(trace.provenance) + " vs " + kSimtSource;
    for (const auto& point : branchMaskPoints()) {
        const auto t = traced.find(point);
        const auto p = predicted.find(point);
        if (t == traced.end() && p == predicted.end())
            continue; // neither reaches it: nothing to compare
        const std::string have = t == traced.end() ? "not reached" : hexMask(t->second);
        const std::string want = p == predicted.end() ? "not reached" : hexMask(p->second);
        const bool agree = have == want;
        f.rows.push_back({point,
                          source + " " + have + " · predicted " + want + (agree ? " ✓" : " ✗"),
                          rowSource, !agree});
    }
    return f;
}

} // namespace

std::string WarpDivergenceScenario::question() const {
    return "Which of these branches diverge: if (threadIdx.x % 2), if (threadIdx.x < 16), "
           "if (threadIdx.x / 32 == 0), if (blockIdx.x % 2), and a data-dependent branch?";
}

std::string WarpDivergenceScenario::answer() const {
    return R"(**A branch diverges only when lanes of the same warp disagree.** The warp then issues both paths
one after the other, each with only its lanes active, and the lanes meet again at the reconvergence point.

- `threadIdx.x % 2` — diverges: odd and even lanes split, **2 paths**, about half the lanes idle on each.
- `threadIdx.x < 16` — diverges inside warp 0 (lanes 0–15 vs 16–31); later warps are uniform.
- `threadIdx.x / 32 == 0` — **does not diverge**: the value is the warp index, the same for all 32 lanes. This is
  the trap; branching on warp-sized groups costs nothing extra.
- `blockIdx.x % 2` — never diverges: every thread of a block sees the same blockIdx.
- Data-dependent — diverges unless all 32 lanes happen to agree (p = 0 or 1 never diverges).
- **SIMT efficiency** = active lanes / (32 × instructions issued): 100 % for uniform branches, lower the more of
  the program runs serialized.
- **Volta and later** give each thread its own program counter (independent thread scheduling), so diverged paths
  may interleave and lanes can synchronise inside branches (`__syncwarp`) — but a warp still issues one path at a
  time, so divergence still costs the same lane-slots.
- Fixes: make the condition warp-uniform (reorganise data so whole warps take one side), hoist shared work out of
  the branch, or use predication/select for short bodies.)";
}

std::vector<SourceRef> WarpDivergenceScenario::sources() const {
    return {
        {"CUDA C++ Programming Guide: SIMT architecture",
         "https://docs.nvidia.com/cuda/cuda-c-programming-guide/#simt-architecture"},
        {"CUDA C++ Best Practices Guide: branching and divergence",
         "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/#branching-and-divergence"},
        {"NVIDIA Volta architecture whitepaper (independent thread scheduling)",
         "https://images.nvidia.com/content/volta-architecture/pdf/"
         "volta-architecture-whitepaper.pdf"},
    };
}

std::vector<ParamSpec> WarpDivergenceScenario::parameters() const {
    return {
        ParamSpec::choice("branch", "Branch", branchKindNames(), "odd-even",
                          "custom uses the condition below"),
        ParamSpec::real("p", "Data branch probability p", "", 0.0, 1.0, 0.5, false,
                        "share of lanes whose data takes the then-path"),
        ParamSpec::integer("warp", "Warp of the block", "", 0, 1, 0),
        ParamSpec::integer("block", "blockIdx.x", "", 0, 7, 0),
        ParamSpec::text("condition", "Your condition", "lane < 8",
                        "C-like integer expression over threadIdx.x, blockIdx.x, lane, warp, "
                        "r, data"),
    };
}

Story WarpDivergenceScenario::build(const Params& p, const ScenarioInputs& in) const {
    SimtConfig config;
    config.kind = *parseBranchKind(p.text("branch"));
    config.p = p.number("p");
    config.warp = static_cast<int>(p.integer("warp"));
    config.blockIdx = static_cast<int>(p.integer("block"));
    config.condition = p.text("condition");
    // Only a custom branch reads the condition; a half-typed one elsewhere is no error.
    if (config.kind != BranchKind::Custom)
        config.condition.clear();
    auto run = std::make_shared<const Run>(execute(config));
    const std::string condition = SimtInterpreter(config).conditionText();
    const size_t n = run->result.trace.size();
    const size_t b = run->branchFrame;

    // The mask check replays a recording when one exists, else the interpreter's masks in the
    // same schema, for this block, p and the interpreter's seed.
    // The masks follow from the code and its data, not from the GPU model: a recording
    // replays wherever its data branch probability p is the one set.
    RecordingChoice recorded = chooseRecording(*this, kBranchMasksKind, p, in);
    const Trace masks = recorded.trace ? std::move(*recorded.trace)
                                       : modeledBranchMasks(config.blockIdx, config.p, config.seed);
    const FactsFrame checked = maskFacts(masks, config);

    Story story;
    story.provenance =
        withReplayNote(replayProvenance(masks, "active masks from the per-lane SIMT interpreter") +
                           "; lane timeline: per-lane SIMT interpreter, modeled on CPU",
                       recorded);
    story.steps.push_back(
        {"32 lanes, one instruction stream",
         "A warp issues one instruction at a time for 32 lanes. Up to the branch every lane "
         "runs the same code.",
         3.0, [run, b](double t) { return Frames{{traceAt(*run, 0, b - 1, t)}}; }});
    story.steps.push_back(
        {"The branch: " + condition,
         "Each lane evaluates the condition. If they disagree, the warp pushes both paths on "
         "its reconvergence stack and runs them one after the other.",
         3.0, [run, b](double) {
             return Frames{{run->result.trace[b - 1], resultFacts(*run, "At the branch")}};
         }});
    story.steps.push_back(
        {"Serialized paths",
         "Only the lanes of the current path are active; the others wait, greyed. Watch the "
         "stack and the efficiency counter.",
         static_cast<double>(std::max<size_t>(n - b, 1)) * 0.4 + 2.0, [run, b, n](double t) {
             return Frames{{traceAt(*run, b, n, t), resultFacts(*run, "This branch")}};
         }});
    story.steps.push_back(
        {"Reconverged",
         run->result.diverges
             ? "The paths joined again; the divergent part cost its instructions twice."
             : "No lane disagreed, so nothing was serialized: full efficiency.",
         3.0, [run, checked](double) {
             return Frames{{run->result.trace.back(), resultFacts(*run, "Result"), checked}};
         }});
    story.steps.push_back(
        {"Which branches really diverge",
         "Run every branch kind on the same warp: only conditions that differ between lanes "
         "of one warp cost anything.",
         4.0, [run, config](double) {
             return Frames{{run->result.trace.back(), allKinds(config)}};
         }});
    SimtConfig other = config;
    other.kind = BranchKind::WarpUniform;
    other.warp = 1 - config.warp;
    auto uniform = std::make_shared<const Run>(execute(other));
    story.steps.push_back(
        {"The trap: threadIdx.x / 32",
         "threadIdx.x / 32 is the warp's index, equal for all its lanes: warp 0 takes one "
         "side, warp 1 the other, and neither warp diverges.",
         3.0, [uniform](double) {
             return Frames{{uniform->result.trace.back(),
                            resultFacts(*uniform, "warp " + std::to_string(uniform->config.warp) +
                                                      ", threadIdx.x / 32 == 0")}};
         }});
    return story;
}

std::optional<std::vector<RecordingInput>>
WarpDivergenceScenario::recordingInputs(const Trace& recording) const {
    const auto p = recording.metadata.find("p");
    if (p == recording.metadata.end())
        return std::nullopt;
    return std::vector<RecordingInput>{{"p", p->second}};
}
} // namespace wb
