#include "import_job.h"

#include "engine/number_format.h"
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"
#include "import/input_files.h"
#include "import/nccl_log_importer.h"
#include "import/nccl_tests_importer.h"
#include "import/ncu_csv_importer.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>

namespace wb {

ImportJob::ImportJob(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<ImportBatch>(this)) {
    connect(m_watcher, &QFutureWatcher<ImportBatch>::finished, this, [this] {
        m_running = false;
        Q_EMIT finished(m_watcher->result());
    });
}

ImportJob::~ImportJob() {
    // The worker reads our counters: stop it before they go away.
    m_cancel.store(true);
    m_watcher->waitForFinished();
}

namespace {

// The paths as the folder rule expands them (the same rule as the command line).
InputFiles expand(const QStringList& paths) {
    std::vector<std::string> given;
    for (const QString& p : paths)
        given.push_back(p.toStdString());
    return expandInputs(given);
}

std::uint64_t sizeOnDisk(const std::string& path) {
    return static_cast<std::uint64_t>(
        std::max<qint64>(0, QFileInfo(QString::fromStdString(path)).size()));
}

} // namespace

std::uint64_t ImportJob::totalBytes(const QStringList& paths) {
    std::uint64_t total = 0;
    for (const auto& file : expand(paths).files)
        total += sizeOnDisk(file);
    return total;
}

bool ImportJob::start(const QStringList& paths) {
    if (m_running || paths.isEmpty())
        return false;
    m_paths = paths;
    m_cancel.store(false);
    m_done.store(0);
    m_total = totalBytes(paths);
    m_running = true;
    const std::uint64_t total = m_total;
    m_watcher->setFuture(QtConcurrent::run(
        [this, paths, total] { return ImportJob::run(paths, m_cancel, m_done, total); }));
    return true;
}

double ImportJob::progress() const {
    if (m_total == 0)
        return 0.0;
    return std::min(1.0, static_cast<double>(m_done.load()) / static_cast<double>(m_total));
}

ImportBatch ImportJob::run(const QStringList& paths, std::atomic<bool>& cancel,
                           std::atomic<std::uint64_t>& done, std::uint64_t /*total*/) {
    ImportBatch batch;
    QElapsedTimer clock;
    clock.start();
    const InputFiles inputs = expand(paths);
    for (const auto& problem : inputs.problems)
        batch.failures << QString::fromStdString(problem.describe());
    std::uint64_t before = 0; // bytes of the files already finished
    for (const std::string& file : inputs.files) {
        const QString path = QString::fromStdString(file);
        ImportControl control;
        control.progress = [&done, before](std::uint64_t fileDone, std::uint64_t) {
            done.store(before + fileDone);
        };
        control.cancelled = [&cancel] { return cancel.load(); };
        auto imported = importFile(file, control);
        if (cancel.load()) {
            batch.cancelled = true;
            batch.results.clear();
            break;
        }
        before += sizeOnDisk(file);
        done.store(before);
        if (const auto* err = std::get_if<ImportError>(&imported)) {
            batch.failures << QString::fromStdString(err->describe());
            continue;
        }
        auto& result = std::get<std::unique_ptr<ImportResult>>(imported);
        if (result->endsMidLine)
            batch.warnings << QObject::tr("%1: line %2 is cut off; kept what came before it")
                                  .arg(path)
                                  .arg(result->endLine);
        batch.results.push_back(std::shared_ptr<const ImportResult>(std::move(result)));
    }
    batch.elapsedMs = clock.elapsed();
    return batch;
}

namespace {

QString counted(std::uint64_t n, const char* one, const char* many) {
    return QString("%1 %2").arg(n).arg(QString::fromUtf8(n == 1 ? one : many));
}

} // namespace

QString describeBatch(const ImportBatch& batch) {
    std::map<std::string, int> files;
    std::uint64_t events = 0, launches = 0, rows = 0;
    long minRank = -1, maxRank = -1;
    for (const auto& r : batch.results) {
        ++files[r->format];
        if (const auto* t = dynamic_cast<const ChromeTraceResult*>(r.get())) {
            events += t->eventCount;
            if (t->rank) {
                minRank = minRank < 0 ? *t->rank : std::min(minRank, *t->rank);
                maxRank = std::max(maxRank, *t->rank);
            }
        } else if (const auto* n = dynamic_cast<const NcuCsvResult*>(r.get())) {
            launches += n->launches.size();
        } else if (const auto* nt = dynamic_cast<const NcclTestsResult*>(r.get())) {
            rows += nt->rows.size();
        }
    }
    QStringList parts;
    const int traces = files["kineto"] + files["chrome"];
    if (traces > 0) {
        const QString p = counted(static_cast<std::uint64_t>(traces), "trace", "traces");
        QStringList detail;
        if (minRank >= 0)
            detail << (minRank == maxRank ? QObject::tr("rank %1").arg(minRank)
                                          : QObject::tr("ranks %1–%2").arg(minRank).arg(maxRank));
        detail << QObject::tr("%1 events")
                      .arg(QString::fromStdString(formatSi(static_cast<double>(events), "", 3)));
        parts << p + " (" + detail.join(", ") + ")";
    }
    if (files["ncu-csv"] > 0)
        parts << counted(static_cast<std::uint64_t>(files["ncu-csv"]), "Nsight Compute CSV",
                         "Nsight Compute CSVs") +
                     " (" + counted(launches, "kernel launch", "kernel launches") + ")";
    const int tests = files["nccl-tests"] + files["nccl-tests+nccl-log"];
    if (tests > 0)
        parts << counted(static_cast<std::uint64_t>(tests), "nccl-tests output",
                         "nccl-tests outputs") +
                     " (" + counted(rows, "row", "rows") + ")";
    if (files["nccl-log"] > 0)
        parts << counted(static_cast<std::uint64_t>(files["nccl-log"]), "NCCL log", "NCCL logs");
    if (files["pytorch-watchdog"] > 0)
        parts << counted(static_cast<std::uint64_t>(files["pytorch-watchdog"]),
                         "PyTorch watchdog log", "PyTorch watchdog logs");
    return QString("Imported %1 in %2 s: %3")
        .arg(counted(batch.results.size(), "file", "files"))
        .arg(static_cast<double>(batch.elapsedMs) / 1000.0, 0, 'f', 1)
        .arg(parts.join("; "));
}

} // namespace wb
