#pragma once
// Computes one TraceAnalysis (scenarios/analysis/trace_analysis.h) on a worker thread, as
// ImportJob imports: progress through an atomic the GUI thread reads, cancel through an atomic
// flag analyseTraces polls between its parts. A newer start() supersedes a running one: the
// old computation is told to stop and whatever it returns is dropped, so no stale result ever
// lands. A cancelled run lands nothing either: what was shown stays.
#include "analysis/trace_analysis.h"
#include "traces/trace_set.h"

#include <QObject>
#include <atomic>
#include <memory>

template <typename T> class QFutureWatcher;

namespace wb {

class AnalysisJob : public QObject {
    Q_OBJECT
public:
    explicit AnalysisJob(QObject* parent = nullptr);
    ~AnalysisJob() override;

    // Analyses `set` over `range`; a run still going is superseded.
    void start(const TraceSet& set, const AnalysisRange& range);
    // Stops the running computation; the last result stays.
    void cancel();
    // Stops the running computation and forgets the last result (other files are open).
    void reset();
    bool isRunning() const { return m_running; }
    // Fraction done in [0, 1] of the running computation.
    double progress() const { return m_progress->load(); }
    // The last analysis that finished, or null.
    std::shared_ptr<const TraceAnalysis> result() const { return m_result; }

signals:
    void started();
    // A new result() landed.
    void finished();
    // The running computation was cancelled; result() is unchanged.
    void cancelled();

private:
    struct Run; // what one computation shares with its worker: the set, flags, progress
    void collect();

    std::shared_ptr<Run> m_run; // the newest computation
    std::shared_ptr<std::atomic<double>> m_progress;
    std::shared_ptr<const TraceAnalysis> m_result;
    bool m_running = false;
};

} // namespace wb
