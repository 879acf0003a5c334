#pragma once
// One trace file through the real importer for a test: the Chrome/Kineto result, or a fatal
// test failure naming the file; and traces as ranks (shared by the triage and trace-analysis
// tests).
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"
#include "triage/rank_analysis.h"

#include <QString>
#include <QtGlobal>
#include <memory>
#include <vector>

namespace wb::test {

inline std::shared_ptr<const ChromeTraceResult> importTrace(const QString& path) {
    auto imported = importFile(path.toStdString());
    if (auto* err = std::get_if<ImportError>(&imported))
        qFatal("%s", err->describe().c_str());
    auto& r = std::get<std::unique_ptr<ImportResult>>(imported);
    auto* trace = dynamic_cast<ChromeTraceResult*>(r.get());
    if (!trace)
        qFatal("not a trace: %s", qPrintable(path));
    r.release();
    return std::shared_ptr<const ChromeTraceResult>(trace);
}

// The traces as the ranks of one job: each file's rank, else its place in the list.
inline std::vector<RankInput>
rankInputs(const std::vector<std::shared_ptr<const ChromeTraceResult>>& traces) {
    std::vector<RankInput> in;
    for (std::size_t i = 0; i < traces.size(); ++i)
        in.push_back(
            {.store = &traces[i]->store, .rank = traces[i]->rank.value_or(static_cast<long>(i))});
    return in;
}

} // namespace wb::test
