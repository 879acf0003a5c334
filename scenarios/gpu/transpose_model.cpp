#include "gpu/transpose_model.h"

#include "engine/sentence.h"
#include "gpu/memory_access_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace wb {

namespace {

// Relative time model: with enough warps in flight the memory and shared-memory pipes
// overlap, so the slower one sets the pace: time ∝ max(L1↔L2 sector bytes / (HBM bytes per
// SM clock), shared-memory wavefronts), a wavefront being one clock of one SM's 32 banks.
// H100 SXM: 3.35 TB/s / (132 SMs × 1.755 GHz) ≈ 14.5 B per SM per clock (FACTS.md §1.1).
// Charging every sector at the HBM rate ignores L2 merging partial writes, latency and
// instruction issue; the figure is relative to the copy kernel.
constexpr double kHbmBytesPerSmClock = 3.35e12 / (132 * 1.755e9);

struct Access {
    std::vector<LaneIndex> lanes;
    bool shared = false;
    bool store = false;
    std::string text;
};

// One warp's memory instructions at iteration j, from the cuda-samples kernels' indexing.
std::vector<Access> accesses(const TransposeConfig& c, int bx, int by, int warp, int j) {
    const int T = c.tile;
    const auto n = static_cast<std::int64_t>(c.n);
    const int pitch = c.variant == TransposeVariant::Padded ? T + 1 : T;
    const int i = j * c.blockRows;
    std::vector<LaneIndex> in(32), out(32), smemStore(32), smemLoad(32);
    for (int l = 0; l < 32; ++l) {
        const int tid = warp * 32 + l;
        const bool active = tid < T * c.blockRows;
        const std::int64_t tx = tid % T;
        const std::int64_t ty = tid / T;
        const std::int64_t x = std::int64_t{bx} * T + tx; // xIndex
        const std::int64_t y = std::int64_t{by} * T + ty; // yIndex
        const auto u = static_cast<std::size_t>(l);
        in[u] = {active, (y + i) * n + x}; // idata[index_in + i * width]
        switch (c.variant) {
        case TransposeVariant::Copy:
            out[u] = {active, (y + i) * n + x};
            break;
        case TransposeVariant::Naive:
            out[u] = {active, x * n + y + i}; // odata[index_out + i], index_out = y + n·x
            break;
        default: {
            // tile[ty + i][tx] = idata[...]; odata[...] = tile[tx][ty + i], where the
            // output block is transposed: x' = by·T + tx, y' = bx·T + ty.
            smemStore[u] = {active, (ty + i) * pitch + tx};
            smemLoad[u] = {active, tx * pitch + ty + i};
            const std::int64_t xo = std::int64_t{by} * T + tx;
            const std::int64_t yo = std::int64_t{bx} * T + ty;
            out[u] = {active, (yo + i) * n + xo};
        }
        }
    }
    // The loop's row offset as the kernels write it; the first iteration's is left out.
    const std::string it = i == 0 ? std::string() : fill(" + %1", {std::to_string(i)});
    const std::string row = i == 0 ? std::string("y") : fill("(y%1)", {it});
    std::vector<Access> v;
    v.push_back({.lanes = in,
                 .shared = false,
                 .store = false,
                 .text = fill("load idata[%1 * n + x]", {row})});
    if (c.variant == TransposeVariant::Tiled || c.variant == TransposeVariant::Padded) {
        v.push_back({.lanes = smemStore,
                     .shared = true,
                     .store = true,
                     .text = fill("store tile[threadIdx.y%1][threadIdx.x]", {it})});
        v.push_back({.lanes = smemLoad,
                     .shared = true,
                     .store = false,
                     .text = fill("load tile[threadIdx.x][threadIdx.y%1]", {it})});
    }
    std::string st =
        c.variant == TransposeVariant::Copy ? fill("store odata[%1 * n + x]", {row})
        : c.variant == TransposeVariant::Naive
            ? fill("store odata[x * n + y%1]", {it})
            : fill("store odata[%1 * n + x']", {i == 0 ? std::string("y'") : fill("(y'%1)", {it})});
    v.push_back({.lanes = out, .shared = false, .store = true, .text = st});
    return v;
}

std::string typeSuffix(int bytes) {
    switch (bytes) {
    case 1:
        return ".u8";
    case 2:
        return ".u16";
    case 8:
        return ".f64";
    default:
        return ".f32";
    }
}

} // namespace

const std::vector<std::string>& transposeVariantNames() {
    static const std::vector<std::string> names = {"copy", "naive", "tiled", "padded"};
    return names;
}

std::optional<TransposeVariant> parseTransposeVariant(const std::string& name) {
    const auto& names = transposeVariantNames();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<TransposeVariant>(i);
    return std::nullopt;
}

TransposeModel::TransposeModel(TransposeConfig config)
    : m_config(config) {
    const auto& c = m_config;
    if (c.tile != 8 && c.tile != 16 && c.tile != 32)
        throw std::invalid_argument(
            fill("tile must be 8, 16 or 32 (got %1)", {std::to_string(c.tile)}));
    if (c.blockRows < 1 || c.blockRows > c.tile || c.tile % c.blockRows != 0)
        throw std::invalid_argument(
            fill("block rows must divide the tile (%1): 1, 2, 4, 8%2%3",
                 {std::to_string(c.tile), c.tile >= 16 ? ", 16" : "", c.tile == 32 ? ", 32" : ""}));
    if (c.n < 32 || c.n > 16384 || c.n % c.tile != 0)
        throw std::invalid_argument(
            fill("n must be a multiple of the tile (%1) between 32 and 16384 (got %2)",
                 {std::to_string(c.tile), std::to_string(c.n)}));
    if (c.elementBytes != 1 && c.elementBytes != 2 && c.elementBytes != 4 && c.elementBytes != 8)
        throw std::invalid_argument(fill("element size must be 1, 2, 4 or 8 bytes (got %1)",
                                         {std::to_string(c.elementBytes)}));
}

int TransposeModel::warpsPerBlock() const {
    return (m_config.tile * m_config.blockRows + 31) / 32;
}

std::vector<MemoryAccessFrame> TransposeModel::warpFrames(int blockX, int blockY, int warp,
                                                          int iteration) const {
    const auto& c = m_config;
    const int blocks = c.n / c.tile;
    if (blockX < 0 || blockY < 0 || blockX >= blocks || blockY >= blocks || warp < 0 ||
        warp >= warpsPerBlock() || iteration < 0 || iteration >= iterations())
        throw std::invalid_argument("block, warp or iteration outside the kernel's launch");
    // Matrices start 256-byte aligned like cudaMalloc's; odata follows idata.
    const auto matrixBytes = static_cast<std::uint64_t>(c.n) * static_cast<std::uint64_t>(c.n) *
                             static_cast<std::uint64_t>(c.elementBytes);
    const ArrayRef idata{.name = "idata", .elementBytes = c.elementBytes, .baseBytes = 0};
    const ArrayRef odata{.name = "odata",
                         .elementBytes = c.elementBytes,
                         .baseBytes = (matrixBytes + 255) / 256 * 256};
    const ArrayRef tile{.name = "tile", .elementBytes = c.elementBytes, .baseBytes = 0};
    const std::string name =
        c.variant == TransposeVariant::Copy
            ? std::string("copy")
            : fill("%1 transpose", {transposeVariantNames()[static_cast<std::size_t>(c.variant)]});
    std::vector<MemoryAccessFrame> frames;
    for (const auto& a : accesses(c, blockX, blockY, warp, iteration)) {
        const std::string title = fill("%1 · %2", {name, a.text});
        const std::string op = std::string(a.store ? "st" : "ld") +
                               (a.shared ? ".shared" : ".global") + typeSuffix(c.elementBytes);
        frames.push_back(
            a.shared ? MemoryAccessModel::shared(a.lanes, tile, title, op)
                     : MemoryAccessModel::global(a.lanes, a.store ? odata : idata, title, op));
    }
    return frames;
}

TransposeSummary TransposeModel::summary() const {
    const auto& c = m_config;
    const int blocks = c.n / c.tile;
    TransposeSummary s;
    // A request's sector count depends only on where its block starts modulo 32 bytes
    // (shifting every address by 32 shifts every sector by one), so blocks are evaluated
    // once per pair of load/store start residues and counted for the rest.
    struct BlockCost {
        std::uint64_t load = 0;
        std::uint64_t store = 0;
        std::uint64_t wavefronts = 0;
        std::uint64_t extraWavefronts = 0;
        int worstWavefronts = 0;
        int worstExtra = 0;
    };
    std::map<std::pair<std::uint64_t, std::uint64_t>, BlockCost> memo;
    const auto n = static_cast<std::uint64_t>(c.n);
    const auto T = static_cast<std::uint64_t>(c.tile);
    const auto e = static_cast<std::uint64_t>(c.elementBytes);
    const std::uint64_t requestsPerBlock =
        static_cast<std::uint64_t>(warpsPerBlock()) * static_cast<std::uint64_t>(iterations());
    for (int by = 0; by < blocks; ++by) {
        for (int bx = 0; bx < blocks; ++bx) {
            const auto ux = static_cast<std::uint64_t>(bx);
            const auto uy = static_cast<std::uint64_t>(by);
            const std::uint64_t loadStart = (uy * T * n + ux * T) * e % 32;
            const std::uint64_t storeStart =
                (c.variant == TransposeVariant::Copy ? uy * T * n + ux * T : ux * T * n + uy * T) *
                e % 32;
            auto it = memo.find({loadStart, storeStart});
            if (it == memo.end()) {
                BlockCost bc;
                for (int w = 0; w < warpsPerBlock(); ++w) {
                    for (int j = 0; j < iterations(); ++j) {
                        for (const auto& f : warpFrames(bx, by, w, j)) {
                            const bool shared = f.space == MemoryAccessFrame::Space::Shared;
                            if (shared) {
                                bc.wavefronts += static_cast<std::uint64_t>(f.wavefronts);
                                bc.extraWavefronts +=
                                    static_cast<std::uint64_t>(extraWavefronts(f));
                                bc.worstWavefronts = std::max(bc.worstWavefronts, f.wavefronts);
                                bc.worstExtra = std::max(bc.worstExtra, extraWavefronts(f));
                            } else if (f.instruction.rfind("ld", 0) == 0) {
                                bc.load += f.sectors.size();
                            } else {
                                bc.store += f.sectors.size();
                            }
                        }
                    }
                }
                it = memo.emplace(std::make_pair(loadStart, storeStart), bc).first;
            }
            s.l1l2Sectors += it->second.load + it->second.store;
            s.loadSectorsPerRequest += static_cast<double>(it->second.load);
            s.storeSectorsPerRequest += static_cast<double>(it->second.store);
            s.smemWavefronts += it->second.wavefronts;
            s.smemExtraWavefronts += it->second.extraWavefronts;
            s.smemWorstWavefronts = std::max(s.smemWorstWavefronts, it->second.worstWavefronts);
            s.smemWorstExtraWavefronts =
                std::max(s.smemWorstExtraWavefronts, it->second.worstExtra);
        }
    }
    const auto totalBlocks =
        static_cast<std::uint64_t>(blocks) * static_cast<std::uint64_t>(blocks);
    s.loadRequests = s.storeRequests = totalBlocks * requestsPerBlock;
    s.loadSectorsPerRequest /= static_cast<double>(s.loadRequests);
    s.storeSectorsPerRequest /= static_cast<double>(s.storeRequests);
    s.l1l2Bytes = s.l1l2Sectors * MemoryAccessModel::kSectorBytes;

    auto time = [](const TransposeSummary& t) {
        return std::max(static_cast<double>(t.l1l2Bytes) / kHbmBytesPerSmClock,
                        static_cast<double>(t.smemWavefronts));
    };
    if (c.variant == TransposeVariant::Copy) {
        s.relativeTime = 1.0;
    } else {
        TransposeConfig copy = c;
        copy.variant = TransposeVariant::Copy;
        s.relativeTime = time(s) / time(TransposeModel(copy).summary());
    }
    return s;
}

} // namespace wb
