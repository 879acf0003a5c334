#include "engine/imported_set.h"

#include "engine/sentence.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace wb {

std::vector<long> numberRanks(const std::vector<std::optional<long>>& given) {
    std::set<long> taken;
    for (const auto& r : given)
        if (r)
            taken.insert(*r);
    std::vector<long> out;
    out.reserve(given.size());
    long next = 0;
    for (const auto& r : given) {
        if (r) {
            out.push_back(*r);
            continue;
        }
        while (taken.count(next))
            ++next;
        out.push_back(next);
        taken.insert(next);
    }
    return out;
}

std::vector<std::size_t> rankOrder(const std::vector<long>& ranks) {
    std::vector<std::size_t> order(ranks.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&ranks](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
    return order;
}

void assignRanks(const std::vector<ChromeTraceResult*>& traces) {
    std::vector<std::optional<long>> given;
    for (const auto* t : traces)
        given.push_back(t->rank);
    const auto ranks = numberRanks(given);
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (!traces[i]->rank) {
            traces[i]->rank = ranks[i];
            traces[i]->rankSource = "order given";
        }
    }
}

void ImportedSet::addBatch(const std::vector<std::shared_ptr<const ImportResult>>& batch) {
    auto samePath = [&batch](const std::string& path) {
        return std::any_of(batch.begin(), batch.end(),
                           [&path](const auto& r) { return r && r->path == path; });
    };
    std::vector<std::shared_ptr<const ChromeTraceResult>> newTraces;
    for (const auto& r : batch)
        if (auto t = std::dynamic_pointer_cast<const ChromeTraceResult>(r))
            newTraces.push_back(t);
    if (!newTraces.empty())
        traces.clear(); // the ranks of one job come together
    std::erase_if(ncu, [&](const auto& n) { return samePath(n->path); });
    std::erase_if(ncclTests, [&](const auto& n) { return samePath(n->path); });
    std::erase_if(ncclLogs, [&](const Log& l) { return samePath(l.path); });
    std::erase_if(watchdogs, [&](const auto& w) { return samePath(w->path); });

    std::vector<std::optional<long>> given;
    for (const auto& t : newTraces)
        given.push_back(t->rank);
    const auto ranks = numberRanks(given);
    for (std::size_t i = 0; i < newTraces.size(); ++i)
        traces.push_back({newTraces[i], ranks[i]});
    std::stable_sort(
        traces.begin(), traces.end(),
        [](const ImportedTrace& a, const ImportedTrace& b) { return a.rank < b.rank; });

    for (const auto& r : batch) {
        if (auto n = std::dynamic_pointer_cast<const NcuCsvResult>(r)) {
            ncu.push_back(n);
        } else if (auto t = std::dynamic_pointer_cast<const NcclTestsResult>(r)) {
            ncclTests.push_back(t);
            if (t->log)
                ncclLogs.push_back({std::shared_ptr<const NcclLogData>(t, &*t->log), t->path});
        } else if (auto l = std::dynamic_pointer_cast<const NcclLogResult>(r)) {
            ncclLogs.push_back({std::shared_ptr<const NcclLogData>(l, &l->log), l->path});
        } else if (auto w = std::dynamic_pointer_cast<const WatchdogResult>(r)) {
            watchdogs.push_back(w);
            if (w->log)
                ncclLogs.push_back({std::shared_ptr<const NcclLogData>(w, &*w->log), w->path});
        }
    }
}

std::vector<std::string> ImportedSet::paths() const {
    std::vector<std::string> out;
    for (const auto& t : traces)
        out.push_back(t.result->path);
    for (const auto& n : ncu)
        out.push_back(n->path);
    for (const auto& n : ncclTests)
        out.push_back(n->path);
    for (const auto& w : watchdogs)
        out.push_back(w->path);
    for (const auto& l : ncclLogs)
        if (std::find(out.begin(), out.end(), l.path) == out.end())
            out.push_back(l.path);
    return out;
}

std::vector<std::string> lessonsForFormat(const std::string& format) {
    if (format == "kineto" || format == "chrome")
        return {"slowdown-triage"};
    if (format == "ncu-csv")
        return {"roofline", "occupancy"};
    if (format == "nccl-log")
        return {"nccl-topology", "ring-allreduce"};
    if (format == "nccl-tests+nccl-log")
        return {"ring-allreduce", "nccl-topology"};
    if (format == "nccl-tests")
        return {"ring-allreduce"};
    if (format == "pytorch-watchdog")
        return {"silent-hang"};
    return {};
}

int firstImportedStep(const Story& story) {
    for (std::size_t i = 0; i < story.steps.size(); ++i) {
        const std::string& title = story.steps[i].title;
        if (title.size() >= 4 && (title[0] == 'Y' || title[0] == 'y') &&
            title.compare(1, 3, "our") == 0)
            return static_cast<int>(i);
    }
    return -1;
}

std::string importedNote(const std::vector<std::string>& paths) {
    if (paths.empty())
        return {};
    std::string names;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (i > 0)
            names += ", ";
        const auto slash = paths[i].find_last_of("/\\");
        names += slash == std::string::npos ? paths[i] : paths[i].substr(slash + 1);
    }
    return fill("; \"Your …\" steps: IMPORTED from %1", {names});
}

} // namespace wb
