#include "gpu/branch_masks_recording.h"

#include <cmath>
#include <cstdio>

namespace wb {

namespace {

std::string exactNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value); // round-trips through std::stod
    return text;
}

} // namespace

const std::vector<std::string>& branchMaskPoints() {
    static const std::vector<std::string> points{"before",     "then", "inner-then",
                                                 "inner-else", "else", "after"};
    return points;
}

std::map<std::string, std::uint32_t> predictedBranchMasks(const SimtConfig& config) {
    const SimtInterpreter interpreter(config);
    const auto& program = interpreter.program();
    const SimtResult result = interpreter.run();

    // Where each point starts, read off the program rather than assumed: the outer branch's
    // fall-through, target and join, and the inner (nested) branch's fall-through and target.
    std::map<std::string, int> pcOf{{"before", 0}};
    bool outer = true;
    for (size_t pc = 0; pc < program.size(); ++pc) {
        const SimtInstruction& ins = program[pc];
        if (ins.kind != SimtInstruction::Kind::Branch)
            continue;
        const int next = static_cast<int>(pc) + 1;
        if (outer) {
            pcOf["then"] = next;
            pcOf["else"] = ins.target;
            pcOf["after"] = ins.reconvergePc;
            outer = false;
        } else {
            pcOf["inner-then"] = next;
            pcOf["inner-else"] = ins.target;
            break;
        }
    }

    std::map<std::string, std::uint32_t> masks;
    for (const auto& [point, pc] : pcOf) {
        for (const WarpFrame& f : result.trace) {
            if (f.pc != pc)
                continue;
            std::uint32_t mask = 0;
            for (size_t l = 0; l < f.lanes.size(); ++l)
                if (f.lanes[l].active)
                    mask |= 1u << l;
            if (mask != 0)
                masks[point] = mask;
            break;
        }
    }
    return masks;
}

Trace modeledBranchMasks(int blockIdx, double p, std::uint64_t seed, int blockDim) {
    Trace t;
    t.kind = kBranchMasksKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.command = "per-lane SIMT interpreter: the active lanes of the first "
                           "instruction issued at each branch point";
    t.provenance.notes = "Not a measurement: a recording from a GPU replaces these masks.";
    t.metadata["scenario"] = "warp-divergence";
    t.metadata["block_dim"] = std::to_string(blockDim);
    t.metadata["blocks"] = std::to_string(1); // not a literal: GCC 12's false -Wrestrict
    t.metadata["seed"] = std::to_string(seed);
    t.metadata["p"] = exactNumber(p);
    const int warps = (blockDim + SimtInterpreter::kWarpSize - 1) / SimtInterpreter::kWarpSize;
    for (const auto& name : branchKindNames()) {
        const BranchKind kind = *parseBranchKind(name);
        if (kind == BranchKind::Custom)
            continue; // the kernel runs the fixed kinds only
        for (int warp = 0; warp < warps; ++warp) {
            SimtConfig c;
            c.kind = kind;
            c.warp = warp;
            c.blockDim = blockDim;
            c.blockIdx = blockIdx;
            c.p = p;
            c.seed = seed;
            const auto masks = predictedBranchMasks(c);
            for (const auto& point : branchMaskPoints()) {
                const auto it = masks.find(point);
                if (it == masks.end())
                    continue;
                TraceEvent e;
                e.name = name;
                e.category = point;
                e.track = warp;
                e.values = {
                    {"mask", static_cast<double>(it->second)}, {"warp", warp}, {"block", blockIdx}};
                t.events.push_back(std::move(e));
            }
        }
    }
    return t;
}

std::vector<BranchMaskRecord> branchMaskRecords(const Trace& trace) {
    std::vector<BranchMaskRecord> out;
    for (const auto& e : trace.events) {
        const auto mask = e.values.find("mask");
        if (mask == e.values.end())
            continue;
        BranchMaskRecord r;
        r.kind = e.name;
        r.point = e.category;
        r.warp = e.track;
        if (const auto w = e.values.find("warp"); w != e.values.end())
            r.warp = static_cast<int>(std::lround(w->second));
        if (const auto b = e.values.find("block"); b != e.values.end())
            r.block = static_cast<int>(std::lround(b->second));
        r.mask = static_cast<std::uint32_t>(std::llround(mask->second));
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace wb
