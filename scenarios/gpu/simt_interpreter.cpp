#include "gpu/simt_interpreter.h"

#include "engine/seeded_random.h"
#include "engine/sentence.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace wb {

namespace {

// Expressions in the program read the lane's register r and its data value.
const std::vector<std::string> kRegisters = {"r", "data"};
constexpr std::int64_t kDataRange = 1000; // data values are 0…999

SimtInstruction compute(const std::string& rhs) {
    return {.kind = SimtInstruction::Kind::Compute,
            .text = fill("r = %1", {rhs}),
            .expr = Expression::parse(rhs, kRegisters)};
}
SimtInstruction branch(const std::string& cond, int elsePc, int joinPc) {
    return {.kind = SimtInstruction::Kind::Branch,
            .text = fill("if (%1)  else → %2, join at %3",
                         {cond, std::to_string(elsePc), std::to_string(joinPc)}),
            .expr = Expression::parse(cond, kRegisters),
            .target = elsePc,
            .reconvergePc = joinPc};
}
SimtInstruction jump(int target) {
    return {.kind = SimtInstruction::Kind::Jump,
            .text = fill("bra %1", {std::to_string(target)}),
            .expr = std::nullopt,
            .target = target};
}
SimtInstruction exitInstruction() {
    return {.kind = SimtInstruction::Kind::Exit, .text = "exit", .expr = std::nullopt};
}

} // namespace

const std::vector<std::string>& branchKindNames() {
    static const std::vector<std::string> names = {
        "odd-even", "half-warp", "warp-uniform", "block-uniform", "data", "nested", "custom"};
    return names;
}

std::optional<BranchKind> parseBranchKind(const std::string& name) {
    const auto& names = branchKindNames();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<BranchKind>(i);
    return std::nullopt;
}

std::string branchKindName(BranchKind kind) {
    return branchKindNames()[static_cast<std::size_t>(kind)];
}

SimtInterpreter::SimtInterpreter(SimtConfig config)
    : m_config(std::move(config)) {
    if (m_config.blockDim < 1 || m_config.blockDim > 1024)
        throw std::invalid_argument("block size must be 1…1024 threads");
    if (m_config.warp < 0 || m_config.warp * kWarpSize >= m_config.blockDim)
        throw std::invalid_argument(
            fill("warp %1 is outside a block of %2 threads",
                 {std::to_string(m_config.warp), std::to_string(m_config.blockDim)}));
    if (m_config.blockIdx < 0)
        throw std::invalid_argument("blockIdx.x must be ≥ 0");
    if (!(m_config.p >= 0.0 && m_config.p <= 1.0))
        throw std::invalid_argument("p must be between 0 and 1");

    m_data.assign(kWarpSize, 0);
    switch (m_config.kind) {
    case BranchKind::OddEven:
        m_condition = "threadIdx.x % 2";
        break;
    case BranchKind::HalfWarp:
        m_condition = "threadIdx.x < 16";
        break;
    case BranchKind::WarpUniform:
        m_condition = "threadIdx.x / 32 == 0";
        break;
    case BranchKind::BlockUniform:
        m_condition = "blockIdx.x % 2";
        break;
    case BranchKind::Nested:
        m_condition = "threadIdx.x < 16";
        break;
    case BranchKind::Custom:
        m_condition = m_config.condition;
        break;
    case BranchKind::Data: {
        // A lane takes the then-path when its value falls below p × range, so p = 0 and
        // p = 1 are exactly uniform. The values are raw mt19937_64 draws modulo the range,
        // as the kernel's host code fills its data array (divergence_reference), not below():
        // thread t of the block draws the t-th number, so warp w's lanes take draws
        // 32w … 32w + 31.
        SeededRandom rng(m_config.seed);
        rng.discard(static_cast<unsigned long long>(m_config.warp) * kWarpSize);
        for (auto& d : m_data)
            d = static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(kDataRange));
        const auto threshold =
            static_cast<std::int64_t>(m_config.p * static_cast<double>(kDataRange) + 0.5);
        m_condition = fill("data < %1", {std::to_string(threshold)});
        break;
    }
    }
    const bool data = m_config.kind == BranchKind::Data;
    m_program.push_back(compute(data ? "data" : "threadIdx.x"));
    m_program.push_back(compute("r * 2 + 1"));
    if (m_config.kind == BranchKind::Nested) {
        m_program.push_back(branch(m_condition, 9, 11));      // 2
        m_program.push_back(compute("r + 10"));               // 3 then
        m_program.push_back(branch("threadIdx.x % 2", 7, 8)); // 4
        m_program.push_back(compute("r * 3"));                // 5 then-then
        m_program.push_back(jump(8));                         // 6
        m_program.push_back(compute("r * 5"));                // 7 then-else
        m_program.push_back(jump(11));                        // 8 inner join, end of then
        m_program.push_back(compute("r - 10"));               // 9 else
        m_program.push_back(compute("r * 7"));                // 10
    } else {
        m_program.push_back(branch(m_condition, 6, 8)); // 2
        m_program.push_back(compute("r + 10"));         // 3 then
        m_program.push_back(compute("r * 3"));          // 4
        m_program.push_back(jump(8));                   // 5
        m_program.push_back(compute("r - 10"));         // 6 else
        m_program.push_back(compute("r * 5"));          // 7
    }
    m_program.push_back(compute("r + 1")); // join: all lanes again
    m_program.push_back(exitInstruction());
}

ExprEnv SimtInterpreter::laneEnv(int lane) const {
    ExprEnv env;
    env.lane = lane;
    env.warp = m_config.warp;
    env.threadIdx.x = m_config.warp * kWarpSize + lane;
    env.blockIdx.x = m_config.blockIdx;
    env.blockDim = {m_config.blockDim, 1, 1};
    env.gridDim = {m_config.blockIdx + 1, 1, 1};
    env.params = {0, m_data[static_cast<std::size_t>(lane)]};
    return env;
}

SimtResult SimtInterpreter::run() const {
    SimtResult result;
    for (const auto& ins : m_program)
        result.program.push_back(ins.text);
    result.data = m_data;

    // Lanes past the end of the block never start.
    const int threadsInWarp = std::min(kWarpSize, m_config.blockDim - m_config.warp * kWarpSize);
    const std::uint32_t all = threadsInWarp == kWarpSize ? 0xffffffffu : (1u << threadsInWarp) - 1u;

    std::vector<std::int64_t> r(kWarpSize, 0);
    std::uint32_t exited = 0;
    std::vector<ReconvergenceEntry> stack = {{all, 0, -1, "warp"}};
    std::vector<IssuedMask> issuedMasks;
    const int end = static_cast<int>(m_program.size());

    auto popFinished = [&] {
        while (!stack.empty() && (stack.back().pc == stack.back().reconvergePc ||
                                  stack.back().pc >= end || stack.back().mask == 0))
            stack.pop_back();
    };

    while (!stack.empty()) {
        ReconvergenceEntry& top = stack.back();
        const int pc = top.pc;
        const std::uint32_t mask = top.mask;
        const SimtInstruction& ins = m_program[static_cast<std::size_t>(pc)];
        ++result.issued;
        result.activeLaneSlots += std::popcount(mask);
        issuedMasks.push_back({pc, mask});

        WarpFrame f;
        f.title = fill("if (%1)", {m_condition});
        f.program = result.program;
        f.pc = pc;
        f.lanes.resize(kWarpSize);
        auto active = [&](int lane) { return (mask >> lane & 1u) != 0; };

        switch (ins.kind) {
        case SimtInstruction::Kind::Compute:
            for (int l = 0; l < kWarpSize; ++l) {
                if (!active(l))
                    continue;
                ExprEnv env = laneEnv(l);
                env.params[0] = r[static_cast<std::size_t>(l)];
                r[static_cast<std::size_t>(l)] = ins.expr->evaluate(env);
                f.lanes[static_cast<std::size_t>(l)].tip =
                    fill("lane %1: %2 → %3", {std::to_string(l), ins.text,
                                              std::to_string(r[static_cast<std::size_t>(l)])});
            }
            top.pc = pc + 1;
            break;
        case SimtInstruction::Kind::Jump:
            for (int l = 0; l < kWarpSize; ++l)
                if (active(l))
                    f.lanes[static_cast<std::size_t>(l)].tip =
                        fill("lane %1: %2 (to the join point)", {std::to_string(l), ins.text});
            top.pc = ins.target;
            break;
        case SimtInstruction::Kind::Exit:
            for (int l = 0; l < kWarpSize; ++l)
                if (active(l))
                    f.lanes[static_cast<std::size_t>(l)].tip =
                        fill("lane %1: exit", {std::to_string(l)});
            exited |= mask;
            top.pc = end;
            break;
        case SimtInstruction::Kind::Branch: {
            std::uint32_t taken = 0;
            for (int l = 0; l < kWarpSize; ++l) {
                if (!active(l))
                    continue;
                ExprEnv env = laneEnv(l);
                env.params[0] = r[static_cast<std::size_t>(l)];
                const std::int64_t c = ins.expr->evaluate(env);
                if (c != 0)
                    taken |= 1u << l;
                std::string why;
                for (const auto& v : ins.expr->variables())
                    why = fill("%1%2 = %3, ",
                               {why, v, std::to_string(ins.expr->variableValue(v, env))});
                f.lanes[static_cast<std::size_t>(l)].tip =
                    fill("lane %1: %2%3 = %4 → %5",
                         {std::to_string(l), why, ins.expr->text(), std::to_string(c),
                          c != 0 ? "then-path" : "else-path"});
            }
            const std::uint32_t notTaken = mask & ~taken;
            result.branches.push_back({pc, result.issued, taken, notTaken});
            if (notTaken == 0) {
                top.pc = pc + 1;
            } else if (taken == 0) {
                top.pc = ins.target;
            } else {
                // The current entry becomes the join point; the else-path waits beneath
                // the then-path, which runs first.
                top.pc = ins.reconvergePc;
                top.label = fill("after if (%1)", {ins.expr->text()});
                const int join = ins.reconvergePc;
                stack.push_back(
                    {.mask = notTaken, .pc = ins.target, .reconvergePc = join, .label = "else"});
                stack.push_back(
                    {.mask = taken, .pc = pc + 1, .reconvergePc = join, .label = "then"});
                result.diverges = true;
                ++result.paths;
            }
            break;
        }
        }
        popFinished();

        for (int l = 0; l < kWarpSize; ++l) {
            WarpLane& lane = f.lanes[static_cast<std::size_t>(l)];
            lane.active = active(l);
            lane.exited = (exited >> l & 1u) != 0;
            lane.value = r[static_cast<std::size_t>(l)];
            if (lane.tip.empty()) {
                if ((all >> l & 1u) == 0) {
                    lane.tip = fill("lane %1: no thread (past the block)", {std::to_string(l)});
                } else {
                    std::string waits = "waiting";
                    for (const auto& e : stack)
                        if ((e.mask >> l & 1u) != 0)
                            waits = fill("waiting on the stack (%1)", {e.label});
                    lane.tip = fill("lane %1: inactive, %2", {std::to_string(l), waits});
                }
            }
        }
        f.stack = stack;
        f.issued = result.issued;
        f.activeLaneSlots = result.activeLaneSlots;
        f.efficiency = static_cast<double>(f.activeLaneSlots) / (kWarpSize * f.issued);
        f.diverged = result.diverges;
        f.issuedMasks = issuedMasks;
        result.trace.push_back(std::move(f));
    }
    result.simtEfficiency = result.issued == 0 ? 1.0
                                               : static_cast<double>(result.activeLaneSlots) /
                                                     (kWarpSize * result.issued);
    return result;
}

} // namespace wb
