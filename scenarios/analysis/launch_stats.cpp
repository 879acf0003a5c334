#include "analysis/launch_stats.h"

#include "analysis/gpu_launches.h"
#include "analysis/kernel_breakdown.h"

#include <algorithm>
#include <map>

namespace wb {

LaunchStats launchStats(const std::vector<RankInput>& ranks,
                        const std::vector<std::vector<std::uint32_t>>& launches,
                        const AnalysisRange& range) {
    LaunchStats out;
    struct Samples {
        std::vector<std::int64_t> cpu, gpu, delay;
    };
    std::map<std::string, Samples, std::less<>> byName;
    Samples all;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const TraceStore& s = *ranks[r].store;
        for (std::size_t i = 0; i < s.events().size(); ++i) {
            const StoredEvent& e = s.events()[i];
            if ((e.kind != EventKind::Kernel && e.kind != EventKind::CommKernel) ||
                e.phase != 'X' || e.startNs < range.fromNs || e.startNs >= range.toNs)
                continue;
            const std::uint32_t l = launches[r][i];
            if (l == kNoLaunch) {
                ++out.unmatched;
                continue;
            }
            ++out.matched;
            const StoredEvent& launch = s.events()[l];
            const std::int64_t delay = e.startNs - launch.startNs;
            const std::string_view name = s.strings().text(e.name);
            auto it = byName.find(name);
            if (it == byName.end())
                it = byName.emplace(std::string(name), Samples{}).first;
            for (Samples* to : {&it->second, &all}) {
                to->cpu.push_back(launch.durNs);
                to->gpu.push_back(e.durNs);
                to->delay.push_back(delay);
            }
            LaunchOutlier o{.rank = ranks[r].rank,
                            .name = std::string(name),
                            .startUs = static_cast<double>(e.startNs) / 1000.0,
                            .cpuLaunchUs = static_cast<double>(launch.durNs) / 1000.0,
                            .gpuUs = static_cast<double>(e.durNs) / 1000.0,
                            .delayUs = static_cast<double>(delay) / 1000.0,
                            .reason = {}};
            auto flag = [&o](const char* why) {
                if (!o.reason.empty())
                    o.reason.append(", ");
                o.reason.append(why);
            };
            if (e.durNs < launch.durNs) {
                ++out.shortKernels;
                flag("short kernel");
            }
            if (o.cpuLaunchUs > kLaunchRuntimeCutoffUs) {
                ++out.longLaunches;
                flag("long launch");
            }
            if (o.delayUs > kLaunchDelayCutoffUs) {
                ++out.longDelays;
                flag("long delay");
            }
            if (!o.reason.empty())
                out.outliers.push_back(std::move(o));
        }
    }
    out.cpuLaunch = durationStats(all.cpu);
    out.gpu = durationStats(all.gpu);
    out.delay = durationStats(all.delay);
    for (auto& [name, smp] : byName)
        out.perKernel.push_back({.name = name,
                                 .cpuLaunch = durationStats(smp.cpu),
                                 .gpu = durationStats(smp.gpu),
                                 .delay = durationStats(smp.delay)});
    std::sort(out.perKernel.begin(), out.perKernel.end(),
              [](const KernelLaunchRow& a, const KernelLaunchRow& b) {
                  return a.gpu.count != b.gpu.count ? a.gpu.count > b.gpu.count : a.name < b.name;
              });
    if (out.perKernel.size() > kAnalysisTopKernels)
        out.perKernel.resize(kAnalysisTopKernels);
    // Worst first: the most CPU time spent launching beyond what the kernel ran, then delay.
    std::sort(out.outliers.begin(), out.outliers.end(),
              [](const LaunchOutlier& a, const LaunchOutlier& b) {
                  const double x = a.cpuLaunchUs - a.gpuUs, y = b.cpuLaunchUs - b.gpuUs;
                  if (x != y)
                      return x > y;
                  if (a.delayUs != b.delayUs)
                      return a.delayUs > b.delayUs;
                  return a.startUs < b.startUs;
              });
    if (out.outliers.size() > kLaunchOutliersShown)
        out.outliers.resize(kLaunchOutliersShown);
    return out;
}

} // namespace wb
