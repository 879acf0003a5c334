// Opening people's files in the window: the worker thread, the summary line, recent files,
// drag and drop, folders, cancel, a batch where some files fail (the others open, the failed
// ones listed in one dialog) and one where all fail (everything stays as it was).
#include "engine/imported_set.h"
#include "engine/registry.h"
#include "import_job.h"
#include "main_window.h"
#include "playback_controller.h"

#include <QAction>
#include <QDropEvent>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;

namespace {

QString fixture(const char* name) {
    return QString(WB_TEST_DATA) + "/import/" + name;
}

// A trace cut inside its first event: the importer names the byte.
QString writeCutTrace(const QString& path) {
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, ");
    return path;
}

// Drags `urls` onto the window and drops them, as a file manager would; false when the
// window refuses the drag.
bool drop(MainWindow& w, const QList<QUrl>& urls) {
    QMimeData mime;
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &dropped);
    return true;
}

// Waits for the window's importFinished and returns (ok, message).
std::pair<bool, QString> waitForImport(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(60000))
        return {false, "timed out"};
    const auto args = spy.takeFirst();
    return {args.at(0).toBool(), args.at(1).toString()};
}

} // namespace

class TestImportGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("WarpboardImportGuiTest");
    }
    void init() { QSettings().clear(); }

    void nsightComputeFileOpensOnTheRoofline() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 1, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({fixture("ncu_rtx5070_saxpy.csv")}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("Imported 1 file") && msg.contains("Nsight Compute CSV"),
                 qPrintable(msg));
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        QVERIFY(w.recentFiles().contains(
            QFileInfo(fixture("ncu_rtx5070_saxpy.csv")).absoluteFilePath()));
    }

    void aFailedImportLeavesEverythingOpen() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({fixture("aws_2x_p5_h100_efa_allreduce_srun.txt")}));
        QVERIFY(waitForImport(spy).first);
        const std::string id = w.session()->scenario().id();
        const int step = w.playback()->step();
        const Frames frames = w.session()->frames(step, 1.0);
        const auto setBefore = w.inputs().imported.paths();

        QTemporaryDir dir;
        const QString bad = writeCutTrace(dir.filePath("rank0.json"));
        QVERIFY(w.importFiles({bad, dir.filePath("missing.json")}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY(!ok);
        QVERIFY2(msg.contains("rank0.json") && msg.contains("byte"), qPrintable(msg));
        // Nothing read, so nothing changed.
        QVERIFY(w.inputs().imported.paths() == setBefore);
        QVERIFY(w.session()->scenario().id() == id);
        QCOMPARE(w.playback()->step(), step);
        QVERIFY(w.session()->frames(step, 1.0) == frames);
        QVERIFY(!w.recentFiles().contains(QFileInfo(bad).absoluteFilePath()));
        // One dialog names both files and why.
        const auto* box = w.findChild<QMessageBox*>("importError");
        QVERIFY(box);
        QVERIFY2(box->text().contains("Nothing was imported"), qPrintable(box->text()));
        QCOMPARE(box->informativeText().split('\n').size(), 2);
        QVERIFY2(box->informativeText().contains("cannot open '" + dir.filePath("missing.json") +
                                                 "': no such file"),
                 qPrintable(box->informativeText()));
    }

    void theFilesThatReadOpenAndTheOthersAreListed() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({fixture("aws_2x_p5_h100_efa_allreduce_srun.txt")}));
        QVERIFY(waitForImport(spy).first);

        QTemporaryDir dir;
        const QString bad = writeCutTrace(dir.filePath("rank0.json"));
        const QString empty = dir.filePath("empty.csv");
        QVERIFY(QFile(empty).open(QIODevice::WriteOnly));
        QVERIFY(w.importFiles({fixture("ncu_rtx5070_saxpy.csv"), bad, empty}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        // The good file is open, and what was open before is still there.
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(1));
        QCOMPARE(w.inputs().imported.ncclTests.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        QVERIFY(w.recentFiles().contains(
            QFileInfo(fixture("ncu_rtx5070_saxpy.csv")).absoluteFilePath()));
        QVERIFY(!w.recentFiles().contains(QFileInfo(bad).absoluteFilePath()));
        // The others, each with why, in one dialog (and in the status message).
        QVERIFY2(msg.contains("Imported 1 file") && msg.contains("not opened"), qPrintable(msg));
        const auto* box = w.findChild<QMessageBox*>("importError");
        QVERIFY(box);
        QVERIFY2(box->text().contains("2 files could not be opened"), qPrintable(box->text()));
        const QStringList lines = box->informativeText().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].startsWith(bad + ": byte "), qPrintable(lines[0]));
        QCOMPARE(lines[1], "'" + empty + "' is empty (0 bytes)");
    }

    void aFolderOpensItsProfilerFiles() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(fixture("ncu_rtx5070_gemm_tiled.csv"), dir.filePath("b.csv")));
        QVERIFY(QFile::copy(fixture("ncu_rtx5070_gemm_naive.csv"), dir.filePath("a.csv")));
        QVERIFY(QFile(dir.filePath("notes.md")).open(QIODevice::WriteOnly));
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({dir.path()}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("2 Nsight Compute CSVs") && !msg.contains("not opened"),
                 qPrintable(msg));
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(2));
        QVERIFY(w.inputs().imported.ncu[0]->path < w.inputs().imported.ncu[1]->path); // by name
        // File → Open folder… picks one for the same rule.
        QVERIFY(w.findChild<QAction*>("openFolder"));

        QTemporaryDir none;
        QVERIFY(w.importFiles({none.path()}));
        const auto [noneOk, noneMsg] = waitForImport(spy);
        QVERIFY(!noneOk);
        QCOMPARE(noneMsg, "no profiler files in '" + none.path() + "'");
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(2));
    }

    void unknownFormatSaysSo() {
        MainWindow w;
        w.openInitial(findScenario("roofline"), 2, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QTemporaryDir dir;
        const QString junk = dir.filePath("junk.bin");
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x00\x01\x02\xff\xfe binary junk", 17));
        f.close();
        QVERIFY(w.importFiles({junk}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY(!ok);
        QVERIFY2(msg.contains("junk.bin"), qPrintable(msg));
        QCOMPARE(w.playback()->step(), 2);
        QVERIFY(w.inputs().imported.empty());
    }

    void droppingAFolderImportsItsFiles() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(fixture("ncu_rtx5070_gemm_naive.csv"), dir.filePath("naive.csv")));
        MainWindow w;
        w.openInitial(findScenario("roofline"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(drop(w, {QUrl::fromLocalFile(dir.path())}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(1));
    }

    void dropImportsTheFiles() {
        MainWindow w;
        w.openInitial(findScenario("roofline"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(drop(w, {QUrl::fromLocalFile(fixture("ncu_rtx5070_gemm_naive.csv")),
                         QUrl::fromLocalFile(fixture("ncu_rtx5070_gemm_tiled.csv"))}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("2 Nsight Compute CSVs"), qPrintable(msg));
        QCOMPARE(w.inputs().imported.ncu.size(), std::size_t(2));
        // The roofline was open and draws Nsight Compute kernels: it stays.
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        w.closeImportedFiles();
        QVERIFY(w.inputs().imported.empty());
    }

    void cancelLeavesNothingImported() {
        // A trace big enough to take a while: ~40 MB of complete events.
        QTemporaryDir dir;
        const QString big = dir.filePath("big.json");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\": [\n");
            QByteArray chunk;
            for (int i = 0; i < 400000; ++i) {
                chunk += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,"
                         "\"ts\":" +
                         QByteArray::number(1000 + i * 3) + ",\"dur\":2,\"args\":{}},\n";
                if (chunk.size() > (1 << 20)) {
                    f.write(chunk);
                    chunk.clear();
                }
            }
            f.write(chunk);
            f.write("{\"ph\":\"i\",\"name\":\"end\",\"pid\":0,\"tid\":7,\"ts\":9}]}\n");
        }
        MainWindow w;
        w.openInitial(findScenario("roofline"), 1, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({big}));
        QVERIFY(!w.importFiles({big})); // one batch at a time
        w.cancelImport();
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY(!ok);
        QVERIFY2(msg.contains("cancelled"), qPrintable(msg));
        QVERIFY(w.inputs().imported.empty());
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
    }

    void progressCountsBytesOfTheWholeBatch() {
        std::atomic<bool> cancel{false};
        std::atomic<std::uint64_t> done{0};
        const QStringList paths = {fixture("ncu_rtx5070_saxpy.csv"),
                                   fixture("aws_2x_p5_h100_efa_allreduce_srun.txt")};
        const std::uint64_t total = ImportJob::totalBytes(paths);
        QVERIFY(total > 0);
        const ImportBatch batch = ImportJob::run(paths, cancel, done, total);
        QVERIFY2(batch.failures.isEmpty(), qPrintable(batch.failures.join('\n')));
        QCOMPARE(batch.results.size(), std::size_t(2));
        QCOMPARE(done.load(), total);
    }
};

QTEST_MAIN(TestImportGui)
#include "test_import_gui.moc"
