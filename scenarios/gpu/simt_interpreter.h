#pragma once
// A per-lane SIMT interpreter for one warp running a tiny program with one branch (two for
// `nested`), using the pre-Volta reconvergence stack: at a divergent branch the current
// entry waits at the reconvergence pc while an else entry and a then entry are pushed; the
// top entry runs until its pc reaches its reconvergence pc, then it is popped. The trace is
// one WarpFrame per issued instruction. Volta's independent thread scheduling does not
// change which lanes are active per issued instruction for these structured branches.
#include "frames/warp_frame.h"
#include "gpu/expr/expression.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class BranchKind { OddEven, HalfWarp, WarpUniform, BlockUniform, Data, Nested, Custom };

const std::vector<std::string>& branchKindNames(); // "odd-even", …, "custom"
std::optional<BranchKind> parseBranchKind(const std::string& name);
std::string branchKindName(BranchKind kind);

struct SimtConfig {
    BranchKind kind = BranchKind::OddEven;
    int warp = 0;            // warp of the block: threadIdx.x = warp * 32 + lane
    int blockDim = 64;       // threads per block (1-D)
    int blockIdx = 0;        // blockIdx.x
    double p = 0.5;          // Data: probability that a lane takes the then-path
    std::uint64_t seed = 42; // Data: seed of the lanes' data values
    std::string condition;   // Custom: the branch condition (may read r and data)
};

struct SimtInstruction {
    enum class Kind { Compute, Branch, Jump, Exit };
    Kind kind = Kind::Compute;
    std::string text;               // one program line: "r = r * 3", "bra 8"
    std::optional<Expression> expr; // Compute: r's new value; Branch: the condition
    int target = -1;                // Branch: first pc of the else-path; Jump: destination
    int reconvergePc = -1;          // Branch: where the two paths join again
};

// What one issued branch decided: the lanes that took the then-path and those that took the
// else-path (both non-zero: the warp diverged there).
struct BranchOutcome {
    int pc = -1;
    int issue = 0; // its place in the issue order, from 1 (WarpFrame::issued when it ran)
    std::uint32_t taken = 0;
    std::uint32_t notTaken = 0;
};

struct SimtResult {
    std::vector<std::string> program;    // the instruction lines
    std::vector<WarpFrame> trace;        // one per issued instruction, after it ran
    std::vector<std::int64_t> data;      // each lane's data value (Data kind; else zeros)
    std::vector<BranchOutcome> branches; // every branch issued, in issue order
    bool diverges = false;
    int paths = 1; // serialized paths: 1 + divergent branches
    int issued = 0;
    int activeLaneSlots = 0;
    double simtEfficiency = 1.0; // activeLaneSlots / (32 × issued)
};

class SimtInterpreter {
public:
    static constexpr int kWarpSize = 32;

    // Throws ExprError (custom condition) or std::invalid_argument (p, warp, block).
    explicit SimtInterpreter(SimtConfig config);

    const std::vector<SimtInstruction>& program() const { return m_program; }
    const std::string& conditionText() const { return m_condition; }
    SimtResult run() const;

private:
    ExprEnv laneEnv(int lane) const;

    SimtConfig m_config;
    std::string m_condition;
    std::vector<SimtInstruction> m_program;
    std::vector<std::int64_t> m_data;
};

} // namespace wb
