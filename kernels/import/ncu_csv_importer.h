#pragma once
// Nsight Compute `ncu --csv` (long format: one row per launch × metric) → one NcuLaunch per
// launch ID with the numbers that place it on the roofline. Absent metrics stay nullopt;
// nothing is estimated.
#include "import/importer.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct NcuMetric {
    std::string section;
    std::string name;
    std::string unit; // normalised: "byte", "ns", "byte/second", ... (others kept as written)
    double value = 0; // in `unit`
    std::string text; // the value as written
    bool numeric = false;
};

// A rule result ncu writes in the rule columns (ncu 2023+ with rule output): the row has no
// metric, only the rule's name, type (OPT, WRN, ...) and advice.
struct NcuRule {
    std::string section;
    std::string name;
    std::string type;
    std::string description;
    std::optional<double> estimatedSpeedup; // "Estimated Speedup" where given
};

struct NcuLaunch {
    std::int64_t id = 0;
    std::string name;
    std::optional<std::array<std::int64_t, 3>> block, grid;
    std::string device, cc;
    std::optional<double> durationNs;
    // FLOPs = Σ over the precisions present (f=fp32, d=fp64, h=fp16) of add + mul + 2·fma thread
    // instructions (smsp__sass_thread_inst_executed_op_{p}{add,mul,fma}_pred_on.sum).
    std::optional<double> flops;
    std::optional<double> dramBytes; // read + write (or dram__bytes.sum, or sectors × 32)
    std::optional<double> intensity; // flops / dramBytes
    std::optional<double> achievedOccupancyPct, theoreticalOccupancyPct;
    std::optional<std::string> occupancyLimiter; // "blocks", "registers", "shared_mem", "warps"
    std::optional<double> sectorsPerRequestLoad, sectorsPerRequestStore;
    std::optional<double> sharedBankConflicts;
    std::vector<NcuMetric> metrics; // every metric row of this launch, in file order
    std::vector<NcuRule> rules;     // its rule rows, in file order
};

struct NcuCsvResult : ImportResult {
    std::vector<NcuLaunch> launches; // in order of first appearance
    bool columns2022 = false;        // Block Size/Grid Size/Device/CC columns present
    bool ruleColumns = false;        // Rule Name/Rule Type/Rule Description columns present
    std::uint64_t preambleLines = 0; // ==PROF== and application lines before the header
    nlohmann::ordered_json summary() const override;
};

// Derives the roofline fields from a launch's metrics (exposed for tests).
void deriveNcuFields(NcuLaunch& launch);
// (value, unit) → the normalised unit; unknown units come back unchanged.
std::pair<double, std::string> normaliseNcuUnit(double value, const std::string& unit);

} // namespace wb
