#include "gpu/warp_divergence_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "gpu/branch_masks_recording.h"
#include "gpu/simt_interpreter.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

namespace wb {

namespace {

constexpr const char* kSimtSource = "per-lane SIMT interpreter (reconvergence stack)";
constexpr const char* kSimtGuide = "CUDA C++ Programming Guide, SIMT Architecture";
constexpr const char* kBranchGuide = "CUDA C++ Best Practices Guide, Branching and Divergence";
constexpr const char* kVoltaSources = "NVIDIA Tesla V100 GPU Architecture whitepaper, Independent "
                                      "Thread Scheduling; CUDA C++ Programming Guide, SIMT "
                                      "Architecture";
// The one definition the lane view's counter and every panel use, in the same words.
constexpr const char* kEfficiencySoFar =
    "SIMT efficiency so far = active lane-slots / (32 × issued)";
constexpr int kWarpSize = SimtInterpreter::kWarpSize;

struct Run {
    SimtConfig config;
    std::vector<SimtInstruction> program;
    SimtResult result;
    size_t branchFrame = 0; // trace index just after the (first) branch issued
    size_t joinFrame = 0;   // trace index of the first instruction after the paths join
};

Run execute(const SimtConfig& config) {
    Run run;
    run.config = config;
    const SimtInterpreter interpreter(config);
    run.program = interpreter.program();
    run.result = interpreter.run();
    const auto& trace = run.result.trace;
    int joinPc = -1;
    for (size_t i = 0; i < trace.size(); ++i) {
        const int pc = trace[i].pc;
        if (pc >= 0 && static_cast<size_t>(pc) < run.program.size() &&
            run.program[static_cast<size_t>(pc)].kind == SimtInstruction::Kind::Branch) {
            run.branchFrame = i + 1;
            joinPc = run.program[static_cast<size_t>(pc)].reconvergePc;
            break;
        }
    }
    run.branchFrame = std::clamp<size_t>(run.branchFrame, 1, trace.size());
    run.joinFrame = trace.size() - 1;
    for (size_t i = run.branchFrame; i < trace.size(); ++i)
        if (trace[i].pc == joinPc) {
            run.joinFrame = i;
            break;
        }
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

int lanesIn(std::uint32_t mask) {
    return std::popcount(mask);
}

std::string lanes(int n) {
    return formatCount(n, "lane", "lanes");
}

// The conditions of the program's branches, outer first ("threadIdx.x < 16", then the
// nested "threadIdx.x % 2").
std::vector<std::string> branchConditions(const Run& run) {
    std::vector<std::string> out;
    for (const SimtInstruction& ins : run.program)
        if (ins.kind == SimtInstruction::Kind::Branch && ins.expr)
            out.push_back(ins.expr->text());
    return out;
}

// "if (threadIdx.x % 2)", or for the nested kind "if (threadIdx.x < 16) { if (…) }".
std::string branchText(const Run& run) {
    const auto conditions = branchConditions(run);
    if (conditions.empty())
        return {};
    if (conditions.size() == 1)
        return fill("if (%1)", {conditions.front()});
    return fill("if (%1) { if (%2) }", {conditions[0], conditions[1]});
}

// What each case is, so the cases read apart even where two share a condition.
std::string caseLabel(const Run& run) {
    const std::string branch = branchText(run);
    switch (run.config.kind) {
    case BranchKind::OddEven:
        return fill("%1: odd and even lanes", {branch});
    case BranchKind::HalfWarp:
        return fill("%1: a half-warp boundary", {branch});
    case BranchKind::WarpUniform:
        return fill("%1: the warp's index", {branch});
    case BranchKind::BlockUniform:
        return fill("%1: the block's parity", {branch});
    case BranchKind::Data:
        return fill("%1: each lane's own data, p = %2",
                    {branch, formatSignificant(run.config.p, 3)});
    case BranchKind::Nested:
        return fill("nested: %1", {branch});
    case BranchKind::Custom:
        return fill("yours: %1", {branch});
    }
    return branch;
}

// Branches where lanes of the warp disagreed.
int divergentBranches(const SimtResult& r) {
    return static_cast<int>(
        std::count_if(r.branches.begin(), r.branches.end(),
                      [](const BranchOutcome& b) { return b.taken != 0 && b.notTaken != 0; }));
}

std::string pathsText(int paths) {
    return formatCount(paths, "path", "paths");
}

// A fact the SIMT interpreter produced.
FactRow simtRow(std::string label, std::string value, bool emphasis) {
    return {.label = std::move(label),
            .value = std::move(value),
            .source = kSimtSource,
            .emphasis = emphasis};
}

// The header of the lane view and this panel say the same thing about the same frame.
FactRow efficiencyRow(const WarpFrame& f) {
    return {.label = kEfficiencySoFar,
            .value = formatShare(f.efficiency),
            .source = kSimtGuide,
            .emphasis = true};
}

// Step 2: the branch has been evaluated, neither path has run.
FactsFrame branchFacts(const Run& run) {
    const WarpFrame& f = run.result.trace[run.branchFrame - 1];
    const BranchOutcome& b = run.result.branches.front();
    FactsFrame facts;
    facts.title = "At the branch, before either path runs";
    facts.rows.push_back(
        simtRow("lanes whose condition is true: then-path", lanes(lanesIn(b.taken)), false));
    facts.rows.push_back(
        simtRow("lanes whose condition is false: else-path", lanes(lanesIn(b.notTaken)), false));
    const bool splits = b.taken != 0 && b.notTaken != 0;
    facts.rows.push_back(simtRow("paths this branch needs",
                                 splits ? fill("%1, one after the other", {pathsText(2)})
                                        : fill("%1, all lanes together", {pathsText(1)}),
                                 splits));
    facts.rows.push_back(simtRow("instructions issued so far", std::to_string(f.issued), false));
    facts.rows.push_back(
        simtRow("active lane-slots so far", std::to_string(f.activeLaneSlots), false));
    facts.rows.push_back(efficiencyRow(f));
    return facts;
}

// Step 3: the counts of the frame shown, so the panel and the lane view's header agree at
// every moment of the animation.
FactsFrame soFarFacts(const Run& run, const WarpFrame& f) {
    int paths = 1;
    for (const BranchOutcome& b : run.result.branches)
        if (b.issue <= f.issued && b.taken != 0 && b.notTaken != 0)
            ++paths;
    FactsFrame facts;
    facts.title = branchText(run);
    facts.rows.push_back(simtRow("paths run one after the other", pathsText(paths), true));
    facts.rows.push_back(simtRow("instructions issued so far", std::to_string(f.issued), false));
    facts.rows.push_back(simtRow("lane-slots issued so far = 32 × issued",
                                 std::to_string(kWarpSize * f.issued), false));
    facts.rows.push_back(
        simtRow("active lane-slots so far", std::to_string(f.activeLaneSlots), false));
    facts.rows.push_back(efficiencyRow(f));
    return facts;
}

// Every fixed branch kind on the same warp and block, and the user's own condition when
// that is the one selected.
std::vector<Run> everyKind(const SimtConfig& base, const Run& selected) {
    std::vector<Run> out;
    for (const auto& name : branchKindNames()) {
        const BranchKind kind = *parseBranchKind(name);
        if (kind == BranchKind::Custom) {
            if (base.kind == BranchKind::Custom)
                out.push_back(selected);
            continue;
        }
        SimtConfig c = base;
        c.kind = kind;
        c.condition.clear();
        out.push_back(execute(c));
    }
    return out;
}

FactsFrame allKindsFacts(const SimtConfig& base, const std::vector<Run>& runs) {
    FactsFrame f;
    f.title = fill("Every branch kind on warp %1 of block %2",
                   {std::to_string(base.warp), std::to_string(base.blockIdx)});
    for (const Run& run : runs) {
        const SimtResult& r = run.result;
        f.rows.push_back(
            simtRow(caseLabel(run),
                    fill("%1 · %2 · %3", {r.diverges ? "diverges" : "uniform", pathsText(r.paths),
                                          formatShare(r.simtEfficiency)}),
                    run.config.kind == base.kind));
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

// The block whose masks the check shows: the selected one, or one of the same parity when the
// trace lacks it (the kernel's conditions read blockIdx.x only as blockIdx.x % 2).
int maskBlock(const Trace& trace, const SimtConfig& selected) {
    const std::string kind = branchKindName(selected.kind);
    int block = -1;
    for (const auto& r : branchMaskRecords(trace)) {
        if (r.kind != kind || r.warp != selected.warp)
            continue;
        if (r.block == selected.blockIdx)
            return r.block;
        if (block < 0 && r.block % 2 == selected.blockIdx % 2)
            block = r.block;
    }
    return block < 0 ? selected.blockIdx : block;
}

// The trace's masks for one branch kind and warp next to the interpreter's prediction for the
// trace's own inputs (block size, seed, p, block). Identical for the modeled trace by
// construction; for a recording every disagreement is a row marked ✗, never dropped. The
// title says where the masks come from; the rows' sources carry the full provenance.
FactsFrame maskFacts(const Trace& trace, const SimtConfig& selected, const std::string& branch) {
    FactsFrame f;
    const std::string kind = branchKindName(selected.kind);
    const std::string source = std::string(toString(trace.provenance.source));
    const std::string from =
        trace.provenance.source == TraceSource::Modeled || trace.provenance.device.empty()
            ? source
            : fill("%1 on %2", {source, trace.provenance.device});
    if (selected.kind == BranchKind::Custom) {
        f.title = fill("Active masks at each branch point: %1", {from});
        f.rows.push_back({.label = "your condition",
                          .value = "not in the trace: the kernel runs the six fixed "
                                   "branch kinds",
                          .source = describeProvenance(trace.provenance),
                          .emphasis = false});
        return f;
    }
    const int block = maskBlock(trace, selected);
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
        f.rows.push_back(simtRow("prediction", fill("not possible: %1", {e.what()}), true));
    }
    f.title = fill("Active masks of %1, warp %2 of block %3: %4 vs predicted",
                   {branch, std::to_string(selected.warp), std::to_string(block), from});
    std::map<std::string, std::uint32_t> traced;
    for (const auto& r : branchMaskRecords(trace))
        if (r.kind == kind && r.warp == selected.warp && r.block == block)
            traced[r.point] = r.mask;
    const std::string rowSource = describeProvenance(trace.provenance);
    for (const auto& point : branchMaskPoints()) {
        const auto t = traced.find(point);
        const auto p = predicted.find(point);
        if (t == traced.end() && p == predicted.end())
            continue; // neither reaches it: nothing to compare
        const std::string have = t == traced.end() ? "not reached" : hexMask(t->second);
        const std::string want = p == predicted.end() ? "not reached" : hexMask(p->second);
        const bool agree = have == want;
        f.rows.push_back({.label = point,
                          .value = fill(agree ? "%1 %2 · predicted %3 ✓" : "%1 %2 · predicted %3 ✗",
                                        {source, have, want}),
                          .source = rowSource,
                          .emphasis = !agree});
    }
    return f;
}

// The side a warp took at a uniform branch ("then", "else"), or "both".
std::string sideTaken(const Run& run) {
    const BranchOutcome& b = run.result.branches.front();
    return b.notTaken == 0 ? "then" : b.taken == 0 ? "else" : "both";
}

WarpFrame titled(WarpFrame f, const std::string& title) {
    f.title = title;
    return f;
}

// "a, b and c"; "none" for no items.
std::string listed(const std::vector<std::string>& items) {
    if (items.empty())
        return "none";
    std::string out = items.front();
    for (size_t i = 1; i < items.size(); ++i)
        out = fill(i + 1 == items.size() ? "%1 and %2" : "%1, %2", {out, items[i]});
    return out;
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
    ParamSpec condition =
        ParamSpec::text("condition", "Your condition", "lane < 8",
                        "C-like integer expression over threadIdx.x, blockIdx.x, lane, warp, "
                        "r, data; read by the custom branch (typing one in the app selects it)");
    condition.selectsParam = "branch";
    condition.selectsChoice = "custom";
    return {
        ParamSpec::choice("branch", "Branch", branchKindNames(), "odd-even",
                          "custom uses the condition below"),
        ParamSpec::real("p", "Data branch probability p", "", 0.0, 1.0, 0.5, false,
                        "share of lanes whose data takes the then-path"),
        ParamSpec::integer("warp", "Warp of the block", "", 0, 1, 0),
        ParamSpec::integer("block", "blockIdx.x", "", 0, 7, 0),
        condition,
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
    const SimtResult& r = run->result;
    const size_t n = r.trace.size();
    const size_t b = run->branchFrame;
    const BranchOutcome& outer = r.branches.front();
    const int thenLanes = lanesIn(outer.taken);
    const int elseLanes = lanesIn(outer.notTaken);
    const int warpLanes = lanesIn(outer.taken | outer.notTaken);
    const int laneSlots = kWarpSize * r.issued;
    const int divergent = divergentBranches(r);
    const std::string branch = branchText(*run);
    const std::string where =
        fill("warp %1 of block %2", {std::to_string(config.warp), std::to_string(config.blockIdx)});
    const std::string headline =
        fill("Warp %1 of block %2 · %3",
             {std::to_string(config.warp), std::to_string(config.blockIdx), branch});

    // The mask check replays a recording when one exists, else the interpreter's masks in the
    // same schema, for this block, p and the interpreter's seed.
    // The masks follow from the code and its data, not from the GPU model: a recording
    // replays wherever its data branch probability p is the one set.
    RecordingChoice recorded = chooseRecording(*this, kBranchMasksKind, p, in);
    const Trace masks = recorded.trace ? std::move(*recorded.trace)
                                       : modeledBranchMasks(config.blockIdx, config.p, config.seed);
    const FactsFrame checked = maskFacts(masks, config, branch);

    // Every branch kind on this warp, and the warp-uniform branch on both warps of the block.
    const std::vector<Run> kinds = everyKind(config, *run);
    std::vector<std::shared_ptr<const Run>> warps;
    for (int w = 0; w < 2; ++w) {
        SimtConfig c = config;
        c.kind = BranchKind::WarpUniform;
        c.condition.clear();
        c.warp = w;
        warps.push_back(std::make_shared<const Run>(execute(c)));
    }

    std::vector<std::string> diverging, uniform;
    for (const Run& k : kinds)
        (k.result.diverges ? diverging : uniform).push_back(branchText(k));

    Story story;
    story.provenance =
        withReplayNote(fill("%1; lane timeline: per-lane SIMT interpreter, modeled on CPU",
                            {replayProvenance(masks, "active masks from the per-lane SIMT "
                                                     "interpreter")}),
                       recorded);
    story.results = {{"warp size", kWarpSize},
                     {"lanes in the warp", warpLanes},
                     {"threads per block", config.blockDim},
                     {"instructions before the branch", static_cast<int>(b) - 1},
                     {"instructions up to the branch", static_cast<int>(b)},
                     {"lanes taking the then-path", thenLanes},
                     {"lanes taking the else-path", elseLanes},
                     {"serialized paths", r.paths},
                     {"divergent branches", divergent},
                     {"instructions issued", r.issued},
                     {"lane-slots issued", laneSlots},
                     {"active lane-slots", r.activeLaneSlots},
                     {"idle lane-slots", laneSlots - r.activeLaneSlots},
                     {"SIMT efficiency", r.simtEfficiency},
                     {"block whose masks are checked", maskBlock(masks, config)},
                     {"branch kinds compared", kinds.size()},
                     {"branch kinds that diverge", diverging.size()}};
    // The frames a step rests on: their counts are quoted by the panels beside them.
    for (const WarpFrame* f :
         {&r.trace[b - 1], &r.trace[std::max(run->joinFrame, b + 1) - 1], &r.trace[run->joinFrame],
          &r.trace.back(), &warps[0]->result.trace[warps[0]->joinFrame],
          &warps[1]->result.trace[warps[1]->joinFrame]}) {
        story.results.push_back({"instructions issued so far", f->issued});
        story.results.push_back({"lane-slots issued so far", kWarpSize * f->issued});
        story.results.push_back({"active lane-slots so far", f->activeLaneSlots});
        story.results.push_back({"SIMT efficiency so far", f->efficiency});
        story.results.push_back({"program line", f->pc});
    }
    // The numbers written in every condition a slide shows (the conditions are the program).
    std::vector<const Run*> shown{run.get(), warps[0].get(), warps[1].get()};
    for (const Run& k : kinds)
        shown.push_back(&k);
    for (const Run* k : shown) {
        for (const SimtInstruction& ins : k->program)
            if (ins.kind == SimtInstruction::Kind::Branch && ins.expr)
                for (const std::int64_t c : ins.expr->constants())
                    story.results.push_back({"a number written in a branch condition", c});
        story.results.push_back({"serialized paths of a branch kind", k->result.paths});
        story.results.push_back({"SIMT efficiency of a branch kind", k->result.simtEfficiency});
    }
    for (const auto& w : warps) {
        const int first = w->config.warp * kWarpSize;
        story.results.push_back({"first thread of the warp", first});
        story.results.push_back({"last thread of the warp", first + kWarpSize - 1});
        story.results.push_back({"warp shown", w->config.warp});
    }

    // 1. Before the branch.
    story.steps.push_back(
        {fill("%1 lanes, one instruction stream", {std::to_string(warpLanes)}),
         fill("A warp issues one instruction at a time for all %1 of its lanes. Up to the branch "
              "every lane runs the same code: %2 so far, each row of the listing showing the "
              "lanes it ran for.",
              {std::to_string(warpLanes),
               formatCount(static_cast<long long>(b) - 1, "instruction", "instructions")}),
         3.0, [run, b, headline](double t) {
             return Frames{{titled(traceAt(*run, 0, b - 1, t), headline)}};
         }});

    // 2. The branch evaluated.
    const bool splits = thenLanes > 0 && elseLanes > 0;
    story.steps.push_back(
        {fill("The branch: %1", {branch}),
         splits ? fill("Each lane evaluates the condition: %1 take the then-path, %2 the "
                       "else-path. The warp pushes both paths on its reconvergence stack and will "
                       "run them one after the other; so far every issue ran all %3.",
                       {lanes(thenLanes), lanes(elseLanes), lanes(warpLanes)})
                : fill("Each lane evaluates the condition and all %1 agree: the %2-path. Nothing "
                       "is pushed; the warp goes on as one.",
                       {std::to_string(warpLanes), thenLanes > 0 ? "then" : "else"}),
         3.0, [run, b, headline](double) {
             return Frames{{titled(run->result.trace[b - 1], headline), branchFacts(*run)}};
         }});

    // 3. The paths, one after the other, up to the join; the listing keeps each issue's
    // lanes. Its words quote the frame it rests on, as the header and the panel do.
    const size_t join = std::max(run->joinFrame, b + 1);
    const WarpFrame& beforeJoin = r.trace[join - 1];
    story.steps.push_back(
        {r.diverges ? fill("Serialized: %1, one after the other", {pathsText(r.paths)})
                    : std::string("One path, nothing serialized"),
         r.diverges
             ? fill("Only the lanes of the current path are active; the others wait, and each "
                    "program line keeps the lanes its issue ran for. So far %1 issued, %2 of %3 "
                    "lane-slots active: SIMT efficiency so far %4.",
                    {std::to_string(beforeJoin.issued), std::to_string(beforeJoin.activeLaneSlots),
                     std::to_string(kWarpSize * beforeJoin.issued),
                     formatShare(beforeJoin.efficiency)})
             : fill("Every lane took the %1-path, so the warp runs it once with all %2: so far %3 "
                    "issued, SIMT efficiency so far %4.",
                    {thenLanes > 0 ? "then" : "else", lanes(warpLanes),
                     std::to_string(beforeJoin.issued), formatShare(beforeJoin.efficiency)}),
         static_cast<double>(join - b) * 0.4 + 2.0, [run, b, join, headline](double t) {
             const WarpFrame f = traceAt(*run, b, join, t);
             return Frames{{titled(f, headline), soFarFacts(*run, f)}};
         }});

    // 4. The join to the end, and the masks checked against a recording.
    const WarpFrame& joined = r.trace[join];
    story.steps.push_back(
        {r.diverges ? std::string("Reconverged") : std::string("No reconvergence needed"),
         r.diverges
             ? fill("At line %1 the paths join: the stack pops and all %2 run together to the "
                    "end. In all %3 issued, %4 of %5 lane-slots active: SIMT efficiency %6. "
                    "Beside it, the active mask at each branch point against the prediction.",
                    {std::to_string(joined.pc), lanes(warpLanes), std::to_string(r.issued),
                     std::to_string(r.activeLaneSlots), std::to_string(laneSlots),
                     formatShare(r.simtEfficiency)})
             : fill("The warp never split: line %1 runs with the same %2 as every line before "
                    "it, %3 issued in all at SIMT efficiency %4. Beside it, the active mask at "
                    "each branch point against the prediction.",
                    {std::to_string(joined.pc), lanes(warpLanes), std::to_string(r.issued),
                     formatShare(r.simtEfficiency)}),
         static_cast<double>(n - join) * 0.4 + 2.0, [run, join, n, checked, headline](double t) {
             return Frames{{titled(traceAt(*run, join, n, t), headline), checked}};
         }});

    // 5. Every kind on the same warp.
    story.steps.push_back(
        {"Which branches really diverge",
         fill("The same warp under every branch kind: %1 of %2 diverge on %3. Only conditions "
              "that differ between lanes of one warp cost anything.",
              {std::to_string(diverging.size()), std::to_string(kinds.size()), where}),
         4.0, [run, config, kinds, headline](double) {
             return Frames{
                 {titled(run->result.trace.back(), headline), allKindsFacts(config, kinds)}};
         }});

    // 6. The trap: the warp-uniform branch on both warps of the block, side by side.
    const std::string side0 = sideTaken(*warps[0]);
    const std::string side1 = sideTaken(*warps[1]);
    const std::string trapCondition = branchText(*warps[0]);
    auto warpTitle = [](const Run& w) {
        const int first = w.config.warp * kWarpSize;
        return fill(
            "Warp %1, threads %2–%3: %4",
            {std::to_string(w.config.warp), std::to_string(first),
             std::to_string(first + kWarpSize - 1),
             w.result.diverges ? std::string("diverged") : fill("%1-path only", {sideTaken(w)})});
    };
    story.steps.push_back(
        {fill("The trap: %1", {trapCondition}),
         fill("threadIdx.x / 32 is the warp's index, the same for all %1 lanes of a warp: warp 0 "
              "takes the %2-path and warp 1 the %3-path, each with every lane active. %4",
              {std::to_string(kWarpSize), side0, side1,
               !warps[0]->result.diverges && !warps[1]->result.diverges
                   ? fill("Neither diverges: both run at SIMT efficiency %1.",
                          {formatShare(warps[0]->result.simtEfficiency)})
                   : fill("SIMT efficiency %1 and %2.",
                          {formatShare(warps[0]->result.simtEfficiency),
                           formatShare(warps[1]->result.simtEfficiency)})}),
         3.0, [warps, warpTitle](double) {
             // Each warp where its path has joined: every lane runs again, and the listing
             // shows the one side it took.
             Frames f;
             for (const auto& w : warps)
                 f.items.push_back(titled(w->result.trace[w->joinFrame], warpTitle(*w)));
             f.arrangement = Arrangement::Grid;
             return f;
         }});

    // 7. The whiteboard answer.
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("A warp issues one instruction at a time for its %1 lanes. When lanes of one warp "
              "disagree at a branch, it runs the then-path and the else-path one after the "
              "other, each with only its own lanes active, and they reconverge after.",
              {std::to_string(kWarpSize)}),
         kSimtGuide},
        {splits ? fill("%1 on %2: %3 take the then-path and %4 the else-path, so the warp "
                       "runs %5 one after the other: %6 issued, %7 of %8 lane-slots active, "
                       "SIMT efficiency %9.",
                       {branch, where, lanes(thenLanes), lanes(elseLanes), pathsText(r.paths),
                        std::to_string(r.issued), std::to_string(r.activeLaneSlots),
                        std::to_string(laneSlots), formatShare(r.simtEfficiency)})
                : fill("%1 on %2: all %3 agree, so the warp runs one path at full width: %4 "
                       "issued, SIMT efficiency %5.",
                       {branch, where, lanes(warpLanes), std::to_string(r.issued),
                        formatShare(r.simtEfficiency)}),
         ""},
        {uniform.empty()
             ? fill("On %1 every one diverges: %2. Each condition differs between lanes of the "
                    "warp.",
                    {where, listed(diverging)})
         : diverging.empty()
             ? fill("On %1 none diverges: %2 are each the same for every lane of the warp.",
                    {where, listed(uniform)})
             : fill("On %1, %2 diverge; %3 do not: their condition is the same for every lane "
                    "of the warp.",
                    {where, listed(diverging), listed(uniform)}),
         kBranchGuide},
        {fill("The trap, %1: it is the warp's index, so warp 0 takes the %2-path and warp 1 the "
              "%3-path, each with all %4 lanes. Branching on warp-sized groups costs nothing.",
              {trapCondition, side0, side1, std::to_string(kWarpSize)}),
         kBranchGuide},
        {"To avoid it, make the condition warp-uniform (arrange the data so whole warps take "
         "one side), move work both sides share out of the branch, or keep short bodies "
         "branch-free so the compiler predicates them.",
         kBranchGuide},
        {"Since Volta each thread has its own program counter (independent thread scheduling): "
         "diverged paths may interleave and lanes may __syncwarp inside a branch, but a warp "
         "still issues one path at a time, so the idle lane-slots cost the same.",
         kVoltaSources},
    };
    story.checks = {
        {fill("What share of the lane-slots does useful work for %1 on %2?", {branch, where}),
         100.0 * r.simtEfficiency, "%", 0.02,
         fill("%1 active lane-slots / (32 × %2 issued) = %3.",
              {std::to_string(r.activeLaneSlots), std::to_string(r.issued),
               formatShare(r.simtEfficiency)})},
        {fill("How many paths does %1 run one after the other for %2?", {where, branch}),
         static_cast<double>(r.paths), "paths", 0.0,
         fill("One path, plus one for each branch where lanes of the warp disagree (%1 here): "
              "%2.",
              {std::to_string(divergent), pathsText(r.paths)})},
    };
    addWhiteboardStep(story,
                      fill("A branch costs only when lanes of one warp disagree; here %1 runs "
                           "at SIMT efficiency %2.",
                           {branch, formatShare(r.simtEfficiency)}));
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
