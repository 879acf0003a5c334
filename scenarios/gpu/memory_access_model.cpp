#include "gpu/memory_access_model.h"

#include "engine/sentence.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace wb {

namespace {

constexpr std::int64_t kMaxIndex = std::int64_t{1} << 50;

std::string element(const ArrayRef& a, std::int64_t index) {
    return fill("%1[%2]", {a.name, std::to_string(index)});
}

// Byte address of a lane's element; rejects what no real array could hold.
std::uint64_t addressOf(int lane, const LaneIndex& li, const ArrayRef& a) {
    if (li.index < -kMaxIndex || li.index > kMaxIndex)
        throw std::invalid_argument(fill("lane %1: index %2 is out of range (±2^50)",
                                         {std::to_string(lane), std::to_string(li.index)}));
    const std::int64_t addr = static_cast<std::int64_t>(a.baseBytes) + li.index * a.elementBytes;
    if (addr < 0)
        throw std::invalid_argument(fill("lane %1: %2 lies before address 0",
                                         {std::to_string(lane), element(a, li.index)}));
    return static_cast<std::uint64_t>(addr);
}

// Distinct bytes the active lanes ask for: the union of their [address, address + size)
// ranges, so a byte several lanes read counts once.
std::uint64_t distinctBytes(const std::vector<LaneAccess>& lanes, std::uint64_t elementBytes) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans; // [first, one past the last)
    for (const auto& l : lanes)
        if (l.active)
            spans.emplace_back(l.address, l.address + elementBytes);
    std::sort(spans.begin(), spans.end());
    std::uint64_t distinct = 0;
    std::uint64_t covered = 0; // one past the last byte counted so far
    for (const auto& [lo, end] : spans) {
        const std::uint64_t from = std::max(lo, covered);
        if (end > from)
            distinct += end - from;
        covered = std::max(covered, end);
    }
    return distinct;
}

MemoryAccessFrame start(const std::vector<LaneIndex>& lanes, const ArrayRef& a, std::string title,
                        std::string instruction, MemoryAccessFrame::Space space) {
    if (lanes.size() != MemoryAccessModel::kWarpSize)
        throw std::invalid_argument("a warp has 32 lanes");
    if (a.elementBytes < 1 || a.elementBytes > 16)
        throw std::invalid_argument("element size must be 1…16 bytes");
    MemoryAccessFrame f;
    f.title = std::move(title);
    f.instruction = std::move(instruction);
    f.space = space;
    f.elementBytes = a.elementBytes;
    f.lanes.resize(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        f.lanes[i].active = lanes[i].active;
        if (lanes[i].active)
            f.lanes[i].address = addressOf(static_cast<int>(i), lanes[i], a);
    }
    return f;
}

} // namespace

std::vector<LaneIndex> MemoryAccessModel::strided(std::int64_t stride, std::int64_t offset,
                                                  std::int64_t base) {
    std::vector<LaneIndex> v(kWarpSize);
    for (int i = 0; i < kWarpSize; ++i)
        v[static_cast<std::size_t>(i)].index = base + i * stride + offset;
    return v;
}

std::vector<LaneIndex> MemoryAccessModel::fromExpression(const Expression& expr,
                                                         const ExprEnv& warpEnv) {
    std::vector<LaneIndex> v(kWarpSize);
    for (int i = 0; i < kWarpSize; ++i) {
        ExprEnv env = warpEnv;
        env.lane = i;
        env.threadIdx.x = warpEnv.threadIdx.x + i;
        v[static_cast<std::size_t>(i)].index = expr.evaluate(env);
    }
    return v;
}

MemoryAccessFrame MemoryAccessModel::global(const std::vector<LaneIndex>& lanes, const ArrayRef& a,
                                            std::string title, std::string instruction) {
    MemoryAccessFrame f =
        start(lanes, a, std::move(title), std::move(instruction), MemoryAccessFrame::Space::Global);
    const auto bytes = static_cast<std::uint64_t>(a.elementBytes);
    // Every sector a lane's element overlaps (a misaligned element can straddle two).
    for (const auto& l : f.lanes) {
        if (!l.active)
            continue;
        for (std::uint64_t s = l.address / kSectorBytes;
             s <= (l.address + bytes - 1) / kSectorBytes; ++s)
            f.sectors.push_back(s);
    }
    std::sort(f.sectors.begin(), f.sectors.end());
    f.sectors.erase(std::unique(f.sectors.begin(), f.sectors.end()), f.sectors.end());
    for (auto s : f.sectors)
        if (f.lines.empty() || f.lines.back() != s * kSectorBytes / kLineBytes)
            f.lines.push_back(s * kSectorBytes / kLineBytes);

    f.bytesRequested = distinctBytes(f.lanes, bytes);
    f.requests = 1;
    f.sectorsPerRequest = static_cast<double>(f.sectors.size());
    f.efficiency = f.sectors.empty() ? 1.0
                                     : static_cast<double>(f.bytesRequested) /
                                           static_cast<double>(f.sectors.size() * kSectorBytes);

    for (std::size_t i = 0; i < f.lanes.size(); ++i) {
        LaneAccess& l = f.lanes[i];
        if (!l.active) {
            l.tip = fill("lane %1: inactive", {std::to_string(i)});
            continue;
        }
        const std::uint64_t sector = l.address / kSectorBytes;
        l.sector = static_cast<int>(std::lower_bound(f.sectors.begin(), f.sectors.end(), sector) -
                                    f.sectors.begin());
        l.tip = fill("lane %1: %2 → byte %3, sector %4, line %5",
                     {std::to_string(i), element(a, lanes[i].index), std::to_string(l.address),
                      std::to_string(sector), std::to_string(l.address / kLineBytes)});
    }
    return f;
}

MemoryAccessFrame MemoryAccessModel::shared(const std::vector<LaneIndex>& lanes, const ArrayRef& a,
                                            std::string title, std::string instruction) {
    MemoryAccessFrame f =
        start(lanes, a, std::move(title), std::move(instruction), MemoryAccessFrame::Space::Shared);
    const auto bytes = static_cast<std::uint64_t>(a.elementBytes);
    // word → lanes that touch it; an 8-byte element covers two words.
    std::map<std::uint64_t, std::vector<int>> words;
    for (std::size_t i = 0; i < f.lanes.size(); ++i) {
        const LaneAccess& l = f.lanes[i];
        if (!l.active)
            continue;
        for (std::uint64_t w = l.address / kWordBytes; w <= (l.address + bytes - 1) / kWordBytes;
             ++w)
            words[w].push_back(static_cast<int>(i));
    }
    std::vector<int> perBank(kBanks, 0);
    for (const auto& [word, ls] : words) {
        const auto bank = static_cast<int>(word % kBanks);
        f.bankHits.push_back({bank, word / kBanks, ls});
        ++perBank[static_cast<std::size_t>(bank)];
    }
    std::stable_sort(f.bankHits.begin(), f.bankHits.end(),
                     [](const BankHit& x, const BankHit& y) { return x.bank < y.bank; });
    f.wavefronts = std::max(1, *std::max_element(perBank.begin(), perBank.end()));
    // However the words fall, 32 banks deliver at most 128 bytes per wavefront.
    f.bytesRequested = distinctBytes(f.lanes, bytes);
    constexpr std::uint64_t kBytesPerWavefront = kBanks * kWordBytes;
    f.minWavefronts = static_cast<int>(std::max<std::uint64_t>(
        1, (f.bytesRequested + kBytesPerWavefront - 1) / kBytesPerWavefront));
    f.banksUsed = static_cast<int>(
        std::count_if(perBank.begin(), perBank.end(), [](int c) { return c > 0; }));
    f.requests = 1;

    for (std::size_t i = 0; i < f.lanes.size(); ++i) {
        LaneAccess& l = f.lanes[i];
        if (!l.active) {
            l.tip = fill("lane %1: inactive", {std::to_string(i)});
            continue;
        }
        l.word = l.address / kWordBytes;
        l.bank = static_cast<int>(l.word % kBanks);
        const int inBank = perBank[static_cast<std::size_t>(l.bank)];
        const std::string sharing =
            inBank <= 1 ? std::string{}
            : inBank > f.minWavefronts
                ? fill(" (%1 distinct words in this bank: a bank conflict)",
                       {std::to_string(inBank)})
                : fill(" (%1 distinct words in this bank)", {std::to_string(inBank)});
        l.tip = fill("lane %1: %2 → byte %3, word %4, bank %5%6",
                     {std::to_string(i), element(a, lanes[i].index), std::to_string(l.address),
                      std::to_string(l.word), std::to_string(l.bank), sharing});
    }
    return f;
}

} // namespace wb
