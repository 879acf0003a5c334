#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/sentence.h"
#include "gpu/memory_access_model.h"
#include "gpu/simt_interpreter.h"
#include "gpu/transpose_model.h"

#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// The parameters an --expr may read besides the built-ins; a 1-D warp 0 of block 0 runs it.
const std::vector<std::string> kExprParams = {"stride", "offset", "elem"};

// Lane indices from either --stride/--offset or --expr (never both).
std::vector<LaneIndex> laneIndices(const Params& p, std::string& pattern, std::string& array) {
    const bool expr = p.isSet("expr");
    if (expr && (p.isSet("stride") || p.isSet("offset")))
        throw CalcError("give either --expr or --stride/--offset, not both");
    if (!expr && !p.isSet("stride"))
        throw CalcError("give --stride S (element stride between lanes) or --expr \"EXPR\"");
    if (!expr) {
        const long long stride = p.integer("stride");
        const long long offset = p.integer("offset");
        pattern = fill("a[lane * %1 + %2]", {std::to_string(stride), std::to_string(offset)});
        array = std::string("a"); // a move: GCC 12 warns falsely (-Wrestrict) on = "a" here
        return MemoryAccessModel::strided(stride, offset);
    }
    try {
        const Expression e = Expression::parse(p.text("expr"), kExprParams);
        ExprEnv env;
        env.params = {0, 0, p.integer("elem-bytes")};
        pattern = e.text();
        array = e.arrayName().empty() ? "a" : e.arrayName();
        return MemoryAccessModel::fromExpression(e, env);
    } catch (const ExprError& err) {
        throw CalcError(fill("--expr: %1", {err.what()}));
    }
}

Json access(const Params& p) {
    std::string pattern, array;
    const auto lanes = laneIndices(p, pattern, array);
    const ArrayRef ref{.name = array,
                       .elementBytes = static_cast<int>(p.integer("elem-bytes")),
                       .baseBytes = static_cast<std::uint64_t>(p.integer("base-bytes"))};
    MemoryAccessFrame f;
    try {
        f = MemoryAccessModel::global(lanes, ref, pattern, "ld.global");
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    Json j;
    j["model"] = "access";
    j["pattern"] = pattern;
    j["elem_bytes"] = ref.elementBytes;
    j["base_bytes"] = ref.baseBytes;
    j["requests"] = f.requests;
    j["sectors"] = f.sectors.size();
    j["lines"] = f.lines.size();
    j["sectors_per_request"] = f.sectorsPerRequest;
    j["efficiency"] = f.efficiency;
    j["source"] = "CUDA C++ Best Practices Guide, coalesced access (32-byte sectors, 128-byte "
                  "lines)";
    return j;
}

Json banks(const Params& p) {
    std::string pattern, array;
    const auto lanes = laneIndices(p, pattern, array);
    const ArrayRef ref{
        .name = array, .elementBytes = static_cast<int>(p.integer("elem-bytes")), .baseBytes = 0};
    MemoryAccessFrame f;
    try {
        f = MemoryAccessModel::shared(lanes, ref, pattern, "ld.shared");
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    Json j;
    j["model"] = "banks";
    j["pattern"] = pattern;
    j["elem_bytes"] = ref.elementBytes;
    j["wavefronts"] = f.wavefronts;
    j["bytes_requested"] = f.bytesRequested;
    j["min_wavefronts"] = f.minWavefronts;
    j["conflict_wavefronts"] = extraWavefronts(f);
    j["banks_used"] = f.banksUsed;
    j["distinct_words"] = f.bankHits.size();
    j["source"] = "CUDA C++ Best Practices Guide, shared memory banks (32 banks of 4 bytes; "
                  "same word = broadcast); conflicts = wavefronts beyond ⌈bytes / 128⌉";
    return j;
}

Json transpose(const Params& p) {
    TransposeConfig c;
    c.n = static_cast<int>(p.integer("n"));
    c.variant = *parseTransposeVariant(p.text("variant"));
    c.elementBytes = static_cast<int>(p.integer("elem-bytes"));
    c.tile = static_cast<int>(p.integer("tile"));
    c.blockRows = static_cast<int>(p.integer("block-rows"));
    TransposeSummary s;
    try {
        s = TransposeModel(c).summary();
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    Json j;
    j["model"] = "transpose";
    j["variant"] = p.text("variant");
    j["n"] = c.n;
    j["elem_bytes"] = c.elementBytes;
    j["tile"] = c.tile;
    j["block_rows"] = c.blockRows;
    j["load_sectors_per_request"] = s.loadSectorsPerRequest;
    j["store_sectors_per_request"] = s.storeSectorsPerRequest;
    j["smem_worst_wavefronts"] = s.smemWorstWavefronts;
    j["smem_worst_conflict_wavefronts"] = s.smemWorstExtraWavefronts;
    j["smem_wavefronts"] = s.smemWavefronts;
    j["smem_conflict_wavefronts"] = s.smemExtraWavefronts;
    j["l1_l2_sector_bytes"] = s.l1l2Bytes;
    j["relative_time"] = s.relativeTime;
    j["assumes"] = "no L2 merging or reuse between requests; time ∝ max(L1↔L2 sector bytes / "
                   "14.5 B per SM clock (H100 SXM HBM), shared wavefronts), relative to copy";
    j["source"] = "NVIDIA cuda-samples transpose (TILE_DIM, BLOCK_ROWS); CUDA C++ Best Practices "
                  "Guide, Coalesced Access to Global Memory and Shared Memory and Memory Banks";
    return j;
}

Json divergence(const Params& p) {
    SimtConfig c;
    if (p.isSet("condition") && p.isSet("branch"))
        throw CalcError("give either --branch or --condition, not both");
    if (p.isSet("condition")) {
        c.kind = BranchKind::Custom;
        c.condition = p.text("condition");
    } else {
        c.kind = *parseBranchKind(p.text("branch"));
        if (c.kind == BranchKind::Custom)
            throw CalcError("--branch custom needs --condition \"EXPR\" instead");
    }
    if (p.isSet("p") && c.kind != BranchKind::Data)
        throw CalcError("--p applies only to --branch data");
    c.p = p.number("p");
    c.warp = static_cast<int>(p.integer("warp"));
    c.blockIdx = static_cast<int>(p.integer("block"));
    SimtResult r;
    try {
        r = SimtInterpreter(c).run();
    } catch (const ExprError& e) {
        throw CalcError(fill("--condition: %1", {e.what()}));
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    Json j;
    j["model"] = "divergence";
    j["branch"] = branchKindName(c.kind);
    j["condition"] = r.trace.empty() ? "" : r.trace.front().title;
    j["warp"] = c.warp;
    j["block"] = c.blockIdx;
    if (c.kind == BranchKind::Data)
        j["p"] = c.p;
    j["diverges"] = r.diverges;
    j["paths"] = r.paths;
    j["issued"] = r.issued;
    j["active_lane_slots"] = r.activeLaneSlots;
    j["simt_efficiency"] = r.simtEfficiency;
    j["program"] = r.program;
    return j;
}

} // namespace

void appendAccessCalcModels(std::vector<CalcModel>& models) {
    const ParamSpec elem =
        ParamSpec::integer("elem-bytes", "Element size", "B", 1, 16, 4, false, "bytes per element");
    const ParamSpec stride = ParamSpec::integer("stride", "Stride", "elements", 0, 4096, 1, false,
                                                "lane i reads element i·stride + offset");
    const ParamSpec offset = ParamSpec::integer("offset", "Offset", "elements", 0, 4096, 0);
    const ParamSpec expr = ParamSpec::text(
        "expr", "Index expression", "",
        "per-lane index, e.g. \"a[threadIdx.x * 33]\" (reads threadIdx/blockIdx/blockDim/"
        "gridDim .x/.y/.z, lane, warp, elem)");
    models.push_back({"access",
                      "global-memory coalescing of one warp access: sectors, lines, requests",
                      {required(elem), stride, offset,
                       ParamSpec::integer("base-bytes", "Base address", "B", 0, 1 << 20, 0), expr},
                      access});
    models.push_back({"banks",
                      "shared-memory bank conflicts of one warp access",
                      {required(elem), stride, offset, expr},
                      banks});
    models.push_back(
        {"transpose",
         "cuda-samples matrix transpose: sectors per request, bank conflicts, DRAM bytes",
         {required(ParamSpec::integer("n", "Matrix size n", "", 32, 16384, 1024, true)),
          required(ParamSpec::choice("variant", "Kernel", transposeVariantNames(), "naive")),
          ParamSpec::integer("elem-bytes", "Element size", "B", 1, 8, 4),
          ParamSpec::integer("tile", "Tile (TILE_DIM)", "", 8, 32, 32),
          ParamSpec::integer("block-rows", "Block rows (BLOCK_ROWS)", "", 1, 32, 8)},
         transpose});
    models.push_back({"divergence",
                      "SIMT execution of one warp through a branch: divergence, paths, efficiency",
                      {ParamSpec::choice("branch", "Branch", branchKindNames(), "odd-even"),
                       ParamSpec::text("condition", "Custom condition", "",
                                       "branch condition per lane, e.g. \"lane < 8\""),
                       ParamSpec::real("p", "Probability (data branch)", "", 0, 1, 0.5),
                       ParamSpec::integer("warp", "Warp of a 64-thread block", "", 0, 1, 0),
                       ParamSpec::integer("block", "blockIdx.x", "", 0, 1 << 20, 0)},
                      divergence});
}

} // namespace wb
