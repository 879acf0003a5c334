#pragma once
// Imports a batch of files on a worker thread: the paths expanded by the one folder rule
// (import/input_files.h), then one file after another through the Qt-free importers, with
// progress (bytes on disk, summed over the batch) and cancel. A file that fails does not end
// the batch: the others still import and the failures are listed, each naming its file and
// why. Cancel ends it with nothing imported.
#include "import/importer.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

namespace wb {

struct ImportBatch {
    std::vector<std::shared_ptr<const ImportResult>> results; // the files that read, in order
    // One line per path or file that did not import: which, and why (and where in it).
    QStringList failures;
    QStringList warnings; // files kept although cut mid-line, with the line
    bool cancelled = false;
    qint64 elapsedMs = 0;
};

class ImportJob : public QObject {
    Q_OBJECT
public:
    explicit ImportJob(QObject* parent = nullptr);
    ~ImportJob() override;

    // Starts importing `paths` (files and folders); false (and nothing starts) while a batch
    // is running.
    bool start(const QStringList& paths);
    void cancel() { m_cancel.store(true); }
    bool isRunning() const { return m_running; }
    // Fraction done in [0, 1], readable from the GUI thread at any time.
    double progress() const;
    const QStringList& paths() const { return m_paths; }

    // Runs a batch synchronously on the calling thread (the worker body; also for tests).
    static ImportBatch run(const QStringList& paths, std::atomic<bool>& cancel,
                           std::atomic<std::uint64_t>& done, std::uint64_t total);
    // Sum of the files' sizes on disk, folders expanded (the progress denominator).
    static std::uint64_t totalBytes(const QStringList& paths);

signals:
    void finished(const wb::ImportBatch& batch);

private:
    QStringList m_paths;
    std::atomic<bool> m_cancel{false};
    std::atomic<std::uint64_t> m_done{0};
    std::uint64_t m_total = 0;
    bool m_running = false;
    QFutureWatcher<ImportBatch>* m_watcher;
};

// One line for the status bar: "Imported 2 files in 0.4 s: 2 Kineto traces (ranks 0–1, 1.2 M
// events), 1 Nsight Compute CSV (3 kernels)".
QString describeBatch(const ImportBatch& batch);

} // namespace wb
