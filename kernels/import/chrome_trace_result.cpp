#include "import/chrome_trace_result.h"

#include <array>
#include <map>

namespace wb {

namespace {

// Kineto's device-side categories for accelerators whose work is not a CUDA/ROCm kernel.
bool imtIsForeignDeviceCategory(std::string_view cat) {
    return cat == "mtia_ccp_events" || cat == "mtia_insight";
}

// Categories the analyses read, or knowingly leave aside as host-side or flows.
bool imtIsKnownCategory(std::string_view cat) {
    static constexpr std::array<std::string_view, 30> names = {"kernel",
                                                               "Kernel",
                                                               "gpu_memcpy",
                                                               "Memcpy",
                                                               "gpu_memset",
                                                               "Memset",
                                                               "cuda_runtime",
                                                               "cuda_driver",
                                                               "Runtime",
                                                               "cuda_sync",
                                                               "cuda_profiler_range",
                                                               "cpu_op",
                                                               "Operator",
                                                               "python_function",
                                                               "user_annotation",
                                                               "gpu_user_annotation",
                                                               "cpu_instant_event",
                                                               "ac2g",
                                                               "async",
                                                               "async_gpu",
                                                               "async_cpu_to_gpu",
                                                               "fwdbwd",
                                                               "overhead",
                                                               "Trace",
                                                               "mtia_runtime",
                                                               "xpu_runtime",
                                                               "hpu_op",
                                                               "privateuse1_runtime",
                                                               "privateuse1_driver",
                                                               "glow_runtime"};
    for (const auto n : names)
        if (cat == n)
            return true;
    return false;
}

constexpr std::array<std::string_view, 8> kImtDeviceWords = {"GPU", "MTIA", "XPU", "HPU",
                                                             "NPU", "TPU",  "IPU", "GCU"};

// "MTIA" of a process Kineto labels "MTIA 0" (or names so), else "". A browser's
// "GPU Process" is not a device: the word must be followed by a device number only.
std::string imtDeviceWord(const TraceProcess& p) {
    for (const std::string_view text : {std::string_view(p.labels), std::string_view(p.name)}) {
        const std::size_t space = text.find(' ');
        if (space == std::string_view::npos || space + 1 == text.size())
            continue;
        const std::string_view number = text.substr(space + 1);
        if (number.find_first_not_of("0123456789") != std::string_view::npos)
            continue;
        for (const auto w : kImtDeviceWords)
            if (text.substr(0, space) == w)
                return std::string(w);
    }
    return {};
}

// "MTIA" of "mtia_ccp_events", "GPU" of "gpu_user_annotation", else "unknown".
std::string imtDeviceTypeOfCategory(std::string_view cat) {
    const std::string_view prefix = cat.substr(0, cat.find('_'));
    for (const auto w : kImtDeviceWords) {
        bool same = prefix.size() == w.size();
        for (std::size_t i = 0; same && i < w.size(); ++i)
            same = prefix[i] == w[i] + ('a' - 'A');
        if (same)
            return std::string(w);
    }
    return "unknown";
}

} // namespace

void ChromeTraceResult::countUnanalysedDeviceEvents() {
    std::map<std::pair<std::string, std::string>, std::uint64_t> counts;
    for (const StoredEvent& e : store.events()) {
        if (e.phase != 'X' || (e.kind != EventKind::Other && e.kind != EventKind::Annotation))
            continue;
        const std::string_view cat = store.strings().text(e.category);
        if (cat.empty())
            continue;
        const TraceProcess& process = store.processes()[store.tracks()[e.track].process];
        std::string device = imtDeviceWord(process);
        // Annotations on the GPU rows only bracket kernels; without kernels they are all
        // that is left of the device's work.
        const bool unread = imtIsForeignDeviceCategory(cat) ||
                            (cat == "gpu_user_annotation" && kernelCount == 0) ||
                            (!device.empty() && !imtIsKnownCategory(cat));
        if (!unread)
            continue;
        if (device.empty())
            device = imtDeviceTypeOfCategory(cat);
        ++counts[{std::string(cat), device}];
    }
    unanalysedDevice.clear();
    for (const auto& [key, count] : counts)
        unanalysedDevice.push_back({key.first, key.second, count});
}

std::vector<std::string> ChromeTraceResult::unanalysedNotes() const {
    std::vector<std::string> notes;
    for (const auto& u : unanalysedDevice) {
        std::string note = std::to_string(u.count);
        note.append(u.count == 1 ? " device event" : " device events")
            .append(" of category ")
            .append(u.category)
            .append(" on device type ")
            .append(u.deviceType)
            .append(u.count == 1 ? " was" : " were")
            .append(" found but not analysed: Warpboard's analyses read CUDA/ROCm kernels");
        if (kernelCount == 0)
            note.append(", and this trace has none");
        notes.push_back(std::move(note));
    }
    return notes;
}

nlohmann::ordered_json ChromeTraceResult::summary() const {
    nlohmann::ordered_json j;
    j["path"] = path;
    j["format"] = format;
    j["events"] = eventCount;
    j["kernels"] = kernelCount;
    j["comm_kernels"] = commKernelCount;
    j["ranks"] = 1; // one trace file holds one rank's view
    j["rank"] = rank ? nlohmann::ordered_json(*rank) : nlohmann::ordered_json();
    j["rank_source"] = rankSource;
    if (worldSize)
        j["world_size"] = *worldSize;
    if (store.hasTime())
        j["span_us"] = static_cast<double>(store.maxNs() - store.minNs()) / 1000.0;
    else
        j["span_us"] = nullptr;
    j["tracks"] = store.tracks().size();
    j["flows"] = store.flowLinks().size();
    j["dangling_flow_points"] = store.danglingFlowPoints();
    j["unclosed_slices"] = unclosedSlices;
    j["unmatched_ends"] = unmatchedEnds;
    j["unmatched_async"] = unmatchedAsync;
    j["skipped_events"] = skippedEvents;
    // Only where there are some, so the summaries of CUDA/ROCm traces keep their shape.
    if (!unanalysedDevice.empty()) {
        std::uint64_t total = 0;
        for (const auto& u : unanalysedDevice)
            total += u.count;
        j["unanalysed_device_events"] = total;
        j["notes"] = unanalysedNotes();
    }
    return j;
}

} // namespace wb
