#include "imported/ncu_kernels.h"

#include "engine/sentence.h"

#include <cmath>
#include <initializer_list>
#include <map>
#include <utility>

namespace wb {

namespace {

std::optional<double> metric(const NcuLaunch& launch, std::initializer_list<const char*> names,
                             const char* unit = nullptr) {
    for (const char* n : names)
        for (const auto& m : launch.metrics)
            if (m.numeric && m.name == n && (unit == nullptr || m.unit == unit))
                return m.value;
    return std::nullopt;
}

std::string joinReasons(const std::vector<std::string>& reasons) {
    std::string text;
    for (const auto& r : reasons) {
        if (!text.empty())
            text.append("; ");
        text.append(r);
    }
    return text;
}

} // namespace

std::string fileNameOf(const std::string& path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string shortKernelName(const std::string& name) {
    // Cut the parameter list: the first '(' outside template brackets.
    int depth = 0;
    std::size_t end = name.size();
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (c == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    std::string head = name.substr(0, end);
    // Drop the return type and namespaces: what follows the last space or "::" outside <>.
    depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ')
            start = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < head.size() && head[i + 1] == ':')
            start = i + 2;
    }
    std::string out = head.substr(start);
    return out.empty() ? name : out;
}

NcuRooflineSet ncuRooflinePoints(const NcuCsvResult& result) {
    NcuRooflineSet set;
    const std::string file = fileNameOf(result.path);
    for (const auto& l : result.launches) {
        std::vector<std::string> missing;
        if (!l.flops)
            missing.emplace_back("no FLOP counts (smsp__sass_thread_inst_executed_op_*_pred_on)");
        else if (!(*l.flops > 0.0))
            missing.emplace_back("0 FLOPs: no point on a log axis");
        if (!l.dramBytes)
            missing.emplace_back("no DRAM bytes (dram__bytes_read/write.sum)");
        else if (!(*l.dramBytes > 0.0))
            missing.emplace_back("0 DRAM bytes: intensity undefined");
        if (!l.durationNs)
            missing.emplace_back("no duration (gpu__time_duration.sum)");
        else if (!(*l.durationNs > 0.0))
            missing.emplace_back("0 ns duration");
        if (!missing.empty()) {
            set.skipped.push_back({l.id, shortKernelName(l.name), file, joinReasons(missing)});
            continue;
        }
        NcuRooflinePoint p;
        p.id = l.id;
        p.name = l.name;
        p.shortName = shortKernelName(l.name);
        p.file = file;
        p.flops = *l.flops;
        p.dramBytes = *l.dramBytes;
        p.durationNs = *l.durationNs;
        p.intensity = p.flops / p.dramBytes;
        p.flopPerS = p.flops / (p.durationNs * 1e-9);
        set.points.push_back(std::move(p));
    }
    return set;
}

std::vector<NcuRooflinePoint> ncuPointsByKernel(const std::vector<NcuRooflinePoint>& points) {
    std::vector<NcuRooflinePoint> out;
    std::map<std::pair<std::string, std::string>, std::size_t> index; // (file, name) → out
    for (const auto& p : points) {
        const auto [it, added] = index.emplace(std::pair{p.file, p.name}, out.size());
        if (added) {
            out.push_back(p);
            out.back().launches = 0;
            out.back().flops = out.back().dramBytes = out.back().durationNs = 0.0;
        }
        NcuRooflinePoint& k = out[it->second];
        k.flops += p.flops;
        k.dramBytes += p.dramBytes;
        k.durationNs += p.durationNs;
        k.launches += p.launches;
    }
    for (auto& k : out) {
        k.intensity = k.flops / k.dramBytes;
        k.flopPerS = k.flops / (k.durationNs * 1e-9);
    }
    return out;
}

std::string ncuDeviceText(const NcuCsvResult& result) {
    std::string device, cc;
    for (const auto& l : result.launches) {
        if (device.empty())
            device = l.device;
        if (cc.empty())
            cc = l.cc;
    }
    if (device.empty() && cc.empty())
        return "not in the file (no Device/CC columns)";
    if (cc.empty())
        return fill("device %1", {device});
    if (device.empty())
        return fill("compute capability %1", {cc});
    return fill("device %1, compute capability %2", {device, cc});
}

std::optional<int> ncuThreadsPerBlock(const NcuLaunch& launch) {
    if (launch.block) {
        const auto& b = *launch.block;
        const std::int64_t threads = b[0] * b[1] * b[2];
        if (threads > 0 && threads <= 1 << 20)
            return static_cast<int>(threads);
    }
    if (const auto v = metric(launch, {"launch__block_size", "Block Size"}); v && *v > 0.0)
        return static_cast<int>(std::lround(*v));
    return std::nullopt;
}

std::optional<int> ncuRegistersPerThread(const NcuLaunch& launch) {
    if (const auto v = metric(launch, {"launch__registers_per_thread", "Registers Per Thread"});
        v && *v >= 0.0)
        return static_cast<int>(std::lround(*v));
    return std::nullopt;
}

std::optional<double> ncuSharedPerBlockBytes(const NcuLaunch& launch) {
    const auto st = metric(
        launch, {"launch__shared_mem_per_block_static", "Static Shared Memory Per Block"}, "byte");
    const auto dyn =
        metric(launch, {"launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block"},
               "byte");
    if (st && dyn)
        return *st + *dyn;
    if (const auto total = metric(launch, {"launch__shared_mem_per_block"}, "byte"))
        return total;
    if (st || dyn)
        return st ? st : dyn;
    return std::nullopt;
}

} // namespace wb
