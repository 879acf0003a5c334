#include "traces/analysis_job.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace wb {

// One computation. The worker holds it through a shared pointer, so a superseded run may
// finish after its job has moved on (or gone) without touching freed memory.
struct AnalysisJob::Run {
    TraceSet set; // keeps the stores alive while the worker reads them
    AnalysisRange range;
    std::atomic<bool> cancel{false};
    std::shared_ptr<std::atomic<double>> progress;
    QFutureWatcher<std::shared_ptr<const TraceAnalysis>>* watcher = nullptr;
};

AnalysisJob::AnalysisJob(QObject* parent)
    : QObject(parent)
    , m_progress(std::make_shared<std::atomic<double>>(0.0)) {}

AnalysisJob::~AnalysisJob() {
    if (m_run) {
        m_run->cancel.store(true);
        m_run->watcher->waitForFinished();
    }
}

void AnalysisJob::start(const TraceSet& set, const AnalysisRange& range) {
    if (m_run) // superseded: told to stop, and its result is dropped in collect()
        m_run->cancel.store(true);
    auto run = std::make_shared<Run>();
    run->set = set;
    run->range = range;
    m_progress = std::make_shared<std::atomic<double>>(0.0);
    run->progress = m_progress;
    run->watcher = new QFutureWatcher<std::shared_ptr<const TraceAnalysis>>(this);
    m_run = run;
    m_running = true;
    connect(run->watcher, &QFutureWatcherBase::finished, this, [this, run] {
        run->watcher->deleteLater();
        if (run != m_run)
            return; // a newer request took over; this result is stale
        collect();
    });
    run->watcher->setFuture(QtConcurrent::run([run]() -> std::shared_ptr<const TraceAnalysis> {
        AnalysisControl control;
        control.progress = [run](double f) { run->progress->store(f); };
        control.cancelled = [run] { return run->cancel.load(); };
        auto analysis = std::make_shared<TraceAnalysis>(
            analyseTraces(run->set.rankInputs(), run->range, run->set.worldSize(), control));
        if (run->cancel.load())
            return nullptr;
        return analysis;
    }));
    Q_EMIT started();
}

void AnalysisJob::cancel() {
    if (m_run && m_running)
        m_run->cancel.store(true);
}

void AnalysisJob::reset() {
    if (m_run) // its result lands nowhere: the watcher sees a different m_run
        m_run->cancel.store(true);
    m_run.reset();
    m_running = false;
    m_result.reset();
}

void AnalysisJob::collect() {
    const auto analysis = m_run->watcher->result();
    const bool wasCancelled = m_run->cancel.load() || !analysis;
    m_running = false;
    m_run.reset();
    if (wasCancelled) {
        Q_EMIT cancelled();
        return;
    }
    m_result = analysis;
    Q_EMIT finished();
}

} // namespace wb
