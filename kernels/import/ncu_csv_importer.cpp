#include "import/ncu_csv_importer.h"

#include "import/importers.h"
#include "import/line_reader.h"
#include "import/text_scan.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace wb {

namespace {

// SI prefixes: ncu prints Kbyte/Mbyte/Gbyte as powers of 1000 (as it does for rates).
std::optional<std::pair<double, std::string>> scaleOf(const std::string& u) {
    static const std::map<std::string, std::pair<double, std::string>> table = {
        {"byte", {1.0, "byte"}},
        {"Kbyte", {1e3, "byte"}},
        {"Mbyte", {1e6, "byte"}},
        {"Gbyte", {1e9, "byte"}},
        {"Tbyte", {1e12, "byte"}},
        {"KB", {1e3, "byte"}},
        {"MB", {1e6, "byte"}},
        {"GB", {1e9, "byte"}},
        {"KiB", {1024.0, "byte"}},
        {"MiB", {1048576.0, "byte"}},
        {"GiB", {1073741824.0, "byte"}},
        {"nsecond", {1.0, "ns"}},
        {"ns", {1.0, "ns"}},
        {"usecond", {1e3, "ns"}},
        {"us", {1e3, "ns"}},
        {"msecond", {1e6, "ns"}},
        {"ms", {1e6, "ns"}},
        {"second", {1e9, "ns"}},
        {"s", {1e9, "ns"}},
        {"cycle", {1.0, "cycle"}},
        {"Kcycle", {1e3, "cycle"}},
        {"Mcycle", {1e6, "cycle"}},
        {"inst", {1.0, "inst"}},
        {"Kinst", {1e3, "inst"}},
        {"Minst", {1e6, "inst"}},
        {"Ginst", {1e9, "inst"}},
        {"sector", {1.0, "sector"}},
        {"Ksector", {1e3, "sector"}},
        {"Msector", {1e6, "sector"}},
        {"request", {1.0, "request"}},
        {"Krequest", {1e3, "request"}},
        {"Mrequest", {1e6, "request"}},
    };
    const auto it = table.find(u);
    if (it == table.end())
        return std::nullopt;
    return it->second;
}

// Splits one CSV record; ncu quotes every field but we accept bare ones too.
// Returns false when a quote is left open (the record continues on the next line).
bool splitCsv(std::string_view line, std::vector<std::string>& out) {
    out.clear();
    std::string field;
    bool quoted = false;
    bool any = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        any = true;
        if (quoted) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    field.push_back('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field.push_back(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(field);
            field.clear();
        } else {
            field.push_back(c);
        }
    }
    if (quoted)
        return false;
    if (any)
        out.push_back(field);
    return true;
}

std::optional<std::array<std::int64_t, 3>> parseDim(const std::string& s) {
    // "(32, 32, 1)"
    std::string_view v = text::trim(s);
    if (v.size() < 2 || v.front() != '(' || v.back() != ')')
        return std::nullopt;
    v = v.substr(1, v.size() - 2);
    std::array<std::int64_t, 3> dim{1, 1, 1};
    std::size_t k = 0;
    while (!v.empty() && k < 3) {
        const std::size_t comma = v.find(',');
        const auto part = text::trim(v.substr(0, comma));
        const auto n = text::parseInt(part);
        if (!n)
            return std::nullopt;
        dim[k++] = *n;
        if (comma == std::string_view::npos)
            break;
        v.remove_prefix(comma + 1);
    }
    return dim;
}

struct Columns {
    int id = -1, kernel = -1, block = -1, grid = -1, device = -1, cc = -1, section = -1;
    int metric = -1, unit = -1, value = -1;
    int ruleName = -1, ruleType = -1, ruleDescription = -1, speedup = -1;
    std::size_t count = 0;
    // Fields a row must have: up to the last column before the rule columns, which ncu
    // leaves off the end of some rows.
    std::size_t required = 0;
};

std::optional<Columns> headerColumns(std::vector<std::string> f) {
    // ncu 2024+ may end the header and the rows with a comma: no column there.
    while (!f.empty() && f.back().empty())
        f.pop_back();
    Columns c;
    c.count = f.size();
    c.required = f.size();
    for (std::size_t i = 0; i < f.size(); ++i) {
        const auto& n = f[i];
        const int idx = static_cast<int>(i);
        if (n == "ID")
            c.id = idx;
        else if (n == "Kernel Name")
            c.kernel = idx;
        else if (n == "Block Size")
            c.block = idx;
        else if (n == "Grid Size")
            c.grid = idx;
        else if (n == "Device")
            c.device = idx;
        else if (n == "CC")
            c.cc = idx;
        else if (n == "Section Name")
            c.section = idx;
        else if (n == "Metric Name")
            c.metric = idx;
        else if (n == "Metric Unit")
            c.unit = idx;
        else if (n == "Metric Value")
            c.value = idx;
        else if (n == "Rule Name")
            c.ruleName = idx;
        else if (n == "Rule Type")
            c.ruleType = idx;
        else if (n == "Rule Description")
            c.ruleDescription = idx;
        else if (n == "Estimated Speedup")
            c.speedup = idx;
        if (n.rfind("Rule ", 0) == 0 || n.rfind("Estimated Speedup", 0) == 0)
            c.required = std::min(c.required, i);
    }
    if (c.required <=
        static_cast<std::size_t>(std::max({c.id, c.kernel, c.metric, c.unit, c.value})))
        c.required = f.size(); // rule columns before the metric: every field is needed
    if (c.id != 0 || c.kernel < 0 || c.metric < 0 || c.unit < 0 || c.value < 0)
        return std::nullopt;
    return c;
}

const std::string& at(const std::vector<std::string>& f, int i) {
    static const std::string empty;
    return i < 0 || static_cast<std::size_t>(i) >= f.size() ? empty
                                                            : f[static_cast<std::size_t>(i)];
}

// A row's fields against the header's: a trailing comma adds an empty field, and rows
// without rule output may stop before the rule columns. Anything else is an error.
bool imtFitsColumns(std::vector<std::string>& fields, const Columns& cols) {
    while (fields.size() > cols.count && fields.back().empty())
        fields.pop_back();
    return fields.size() <= cols.count && fields.size() >= cols.required;
}

nlohmann::ordered_json opt(const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

std::variant<std::unique_ptr<ImportResult>, ImportError> parseNcu(ByteSource& source,
                                                                  const ImportControl& control) {
    LineReader reader(source, control);
    auto result = std::make_unique<NcuCsvResult>();
    result->format = "ncu-csv";
    std::optional<Columns> cols;
    std::vector<std::string> fields;
    std::unordered_map<std::int64_t, std::size_t> byId;
    std::string record;
    std::uint64_t recordLine = 0, recordOffset = 0;
    while (auto line = reader.next()) {
        if (line->find('\0') != std::string_view::npos)
            return reader.errorHere("binary data (NUL byte) in a CSV file");
        if (!cols) {
            // The preamble (==PROF== lines, application stdout) ends at the header row.
            if (text::startsWith(*line, "\"ID\"") && splitCsv(*line, fields))
                cols = headerColumns(fields);
            if (!cols) {
                result->preambleLines++;
            } else {
                result->columns2022 = cols->block >= 0;
                result->ruleColumns = cols->ruleName >= 0;
            }
            continue;
        }
        if (record.empty()) {
            recordLine = reader.lineNumber();
            recordOffset = reader.lineOffset();
            if (line->empty())
                continue;
        } else {
            record.push_back('\n');
        }
        record.append(*line);
        if (!splitCsv(record, fields)) {
            if (record.size() > (1u << 20))
                return reader.errorHere("unterminated quoted field");
            continue; // a quoted field spans lines
        }
        ImportError err;
        err.line = recordLine;
        err.byteOffset = recordOffset;
        err.path = source.path();
        if (text::startsWith(record, "==PROF==") || text::startsWith(record, "==WARNING==") ||
            text::startsWith(record, "==ERROR==")) {
            record.clear();
            continue; // ncu may log errors after the table too
        }
        if (!imtFitsColumns(fields, *cols)) {
            err.message = "expected " + std::to_string(cols->count) + " CSV fields, found " +
                          std::to_string(fields.size());
            return err;
        }
        record.clear();
        const auto id = text::parseInt(at(fields, cols->id));
        if (!id) {
            err.message = "expected an integer launch ID, found \"";
            err.message.append(at(fields, cols->id)).append("\"");
            return err;
        }
        auto [it, fresh] = byId.try_emplace(*id, result->launches.size());
        if (fresh) {
            NcuLaunch l;
            l.id = *id;
            l.name = at(fields, cols->kernel);
            l.block = parseDim(at(fields, cols->block));
            l.grid = parseDim(at(fields, cols->grid));
            l.device = at(fields, cols->device);
            l.cc = at(fields, cols->cc);
            result->launches.push_back(std::move(l));
        }
        if (at(fields, cols->metric).empty() && !at(fields, cols->ruleName).empty()) {
            // A rule row: advice about the launch, no metric.
            NcuRule rule;
            rule.section = at(fields, cols->section);
            rule.name = at(fields, cols->ruleName);
            rule.type = at(fields, cols->ruleType);
            rule.description = at(fields, cols->ruleDescription);
            if (const auto v = text::parseGroupedNumber(at(fields, cols->speedup)))
                rule.estimatedSpeedup = *v;
            result->launches[it->second].rules.push_back(std::move(rule));
            continue;
        }
        NcuMetric m;
        m.section = at(fields, cols->section);
        m.name = at(fields, cols->metric);
        m.text = at(fields, cols->value);
        m.unit = at(fields, cols->unit);
        if (const auto v = text::parseGroupedNumber(m.text)) {
            m.numeric = true;
            std::tie(m.value, m.unit) = normaliseNcuUnit(*v, m.unit);
        }
        result->launches[it->second].metrics.push_back(std::move(m));
    }
    if (reader.error())
        return *reader.error();
    if (!record.empty()) {
        ImportError err;
        err.line = recordLine;
        err.byteOffset = recordOffset;
        err.path = source.path();
        err.message = "file ends inside a quoted field (truncated?)";
        return err;
    }
    if (!cols)
        return reader.errorHere("no Nsight Compute CSV header (\"ID\",...,\"Metric Name\","
                                "\"Metric Unit\",\"Metric Value\") found");
    if (result->launches.empty())
        return reader.errorHere("the CSV header is not followed by any metric rows");
    for (auto& l : result->launches)
        deriveNcuFields(l);
    return std::unique_ptr<ImportResult>(std::move(result));
}

double probeNcu(std::string_view head, const std::string&) {
    if (!text::looksLikeText(head))
        return 0.0;
    const bool header = head.find("\"ID\",\"Process ID\"") != std::string_view::npos ||
                        head.find("\"ID\",\"Process Name\"") != std::string_view::npos;
    const bool metric = head.find("\"Metric Value\"") != std::string_view::npos;
    if (header && metric)
        return 0.95;
    if (metric)
        return 0.6;
    // Only ncu writes ==PROF== lines: the header may lie past the head, after a long
    // preamble of the program's own output.
    if (text::startsWith(head, "==PROF==") || text::startsWith(head, "\xEF\xBB\xBF==PROF==") ||
        head.find("\n==PROF==") != std::string_view::npos)
        return 0.5;
    return 0.0;
}

} // namespace

std::pair<double, std::string> normaliseNcuUnit(double value, const std::string& unit) {
    const std::size_t slash = unit.find('/');
    if (slash == std::string::npos) {
        if (const auto s = scaleOf(unit))
            return {value * s->first, s->second};
        return {value, unit};
    }
    // Rates: numerator scaled to its base, denominator time to seconds ("Gbyte/second").
    const auto num = scaleOf(unit.substr(0, slash));
    const auto den = scaleOf(unit.substr(slash + 1));
    if (!num || !den || den->second != "ns")
        return {value, unit};
    const double perSecond = value * num->first / (den->first / 1e9);
    return {perSecond, num->second + "/second"};
}

void deriveNcuFields(NcuLaunch& launch) {
    std::unordered_map<std::string, const NcuMetric*> m;
    for (const auto& metric : launch.metrics)
        if (metric.numeric)
            m.emplace(metric.name, &metric);
    auto get = [&](std::initializer_list<const char*> names) -> std::optional<double> {
        for (const char* n : names)
            if (const auto it = m.find(n); it != m.end())
                return it->second->value;
        return std::nullopt;
    };
    // 2020 section pages name the duration "Duration" (usecond) in "GPU Speed Of Light".
    launch.durationNs = get({"gpu__time_duration.sum", "gpu__time_duration", "Duration"});

    double flops = 0;
    bool anyFlop = false;
    for (const char* p : {"f", "d", "h"}) {
        for (const char* op : {"add", "mul", "fma"}) {
            std::string smsp = "smsp__sass_thread_inst_executed_op_";
            smsp.append(p).append(op).append("_pred_on.sum");
            std::string sm = "sm__sass_thread_inst_executed_op_";
            sm.append(p).append(op).append("_pred_on.sum");
            const auto v = get({smsp.c_str(), sm.c_str()});
            if (!v)
                continue;
            anyFlop = true;
            flops += std::string_view(op) == "fma" ? 2.0 * *v : *v; // an FMA is two FLOPs
        }
    }
    if (anyFlop)
        launch.flops = flops;

    const auto rd = get({"dram__bytes_read.sum", "dram__bytes_op_read.sum"});
    const auto wr = get({"dram__bytes_write.sum", "dram__bytes_op_write.sum"});
    if (rd && wr)
        launch.dramBytes = *rd + *wr;
    else if (const auto total = get({"dram__bytes.sum"}))
        launch.dramBytes = total;
    else if (const auto srd = get({"dram__sectors_read.sum"}),
             swr = get({"dram__sectors_write.sum"});
             srd && swr)
        launch.dramBytes = (*srd + *swr) * 32.0; // a DRAM sector is 32 bytes
    if (launch.flops && launch.dramBytes && *launch.dramBytes > 0)
        launch.intensity = *launch.flops / *launch.dramBytes;

    launch.achievedOccupancyPct =
        get({"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy"});
    launch.theoreticalOccupancyPct =
        get({"sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy"});
    // The limiter is the resource allowing the fewest blocks per SM.
    std::optional<double> best;
    for (const auto& [metric, label] :
         {std::pair{"launch__occupancy_limit_blocks", "blocks"},
          std::pair{"launch__occupancy_limit_registers", "registers"},
          std::pair{"launch__occupancy_limit_shared_mem", "shared_mem"},
          std::pair{"launch__occupancy_limit_warps", "warps"},
          std::pair{"Block Limit SM", "blocks"}, std::pair{"Block Limit Registers", "registers"},
          std::pair{"Block Limit Shared Mem", "shared_mem"},
          std::pair{"Block Limit Warps", "warps"}}) {
        const auto v = get({metric});
        if (v && (!best || *v < *best)) {
            best = v;
            launch.occupancyLimiter = label;
        }
    }

    auto ratio = [&](const char* a, const char* b) -> std::optional<double> {
        const auto x = get({a}), y = get({b});
        if (!x || !y || *y <= 0)
            return std::nullopt;
        return *x / *y;
    };
    launch.sectorsPerRequestLoad = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    launch.sectorsPerRequestStore = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
    launch.sharedBankConflicts = get({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"});
    if (!launch.sharedBankConflicts) {
        const auto ld = get({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"});
        const auto st = get({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"});
        if (ld && st)
            launch.sharedBankConflicts = *ld + *st;
    }
}

nlohmann::ordered_json NcuCsvResult::summary() const {
    nlohmann::ordered_json out;
    out["path"] = path;
    out["format"] = format;
    auto kernels = nlohmann::ordered_json::array();
    for (const auto& l : launches) {
        nlohmann::ordered_json k;
        k["id"] = l.id;
        k["name"] = l.name;
        k["duration_ns"] = opt(l.durationNs);
        k["flops"] = opt(l.flops);
        k["dram_bytes"] = opt(l.dramBytes);
        k["intensity"] = opt(l.intensity);
        if (l.block)
            k["block"] = *l.block;
        if (l.grid)
            k["grid"] = *l.grid;
        if (!l.device.empty())
            k["device"] = l.device;
        if (!l.cc.empty())
            k["cc"] = l.cc;
        k["achieved_occupancy_pct"] = opt(l.achievedOccupancyPct);
        k["theoretical_occupancy_pct"] = opt(l.theoreticalOccupancyPct);
        k["occupancy_limiter"] = l.occupancyLimiter ? nlohmann::ordered_json(*l.occupancyLimiter)
                                                    : nlohmann::ordered_json(nullptr);
        k["sectors_per_request_ld"] = opt(l.sectorsPerRequestLoad);
        k["sectors_per_request_st"] = opt(l.sectorsPerRequestStore);
        k["shared_bank_conflicts"] = opt(l.sharedBankConflicts);
        k["metrics"] = l.metrics.size();
        if (ruleColumns)
            k["rules"] = l.rules.size();
        kernels.push_back(std::move(k));
    }
    out["kernels"] = std::move(kernels);
    return out;
}

Importer ncuCsvImporter() {
    return Importer{"ncu-csv", probeNcu, parseNcu};
}

} // namespace wb
