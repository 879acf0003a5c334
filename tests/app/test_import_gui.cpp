// Opening people's files in the window: the worker thread, the summary line, recent files,
// drag and drop, cancel, and a failed import that leaves everything open as it was.
#include "engine/imported_set.h"
#include "engine/registry.h"
#include "import_job.h"
#include "main_window.h"
#include "playback_controller.h"

#include <QDropEvent>
#include <QFile>
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
    void init() {
        QSettings().clear();
        importedSet() = ImportedSet();
    }

    void nsightComputeFileOpensOnTheRoofline() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 1, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({fixture("ncu_rtx5070_saxpy.csv")}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("Imported 1 file") && msg.contains("Nsight Compute CSV"),
                 qPrintable(msg));
        QCOMPARE(importedSet().ncu.size(), std::size_t(1));
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
        const auto setBefore = importedSet().paths();

        QTemporaryDir dir;
        const QString bad = dir.filePath("rank0.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, ");
        f.close();
        QVERIFY(w.importFiles({fixture("ncu_rtx5070_saxpy.csv"), bad}));
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY(!ok);
        QVERIFY2(msg.contains("rank0.json") && msg.contains("byte"), qPrintable(msg));
        // Nothing from the batch landed, not even the good first file.
        QVERIFY(importedSet().paths() == setBefore);
        QVERIFY(w.session()->scenario().id() == id);
        QCOMPARE(w.playback()->step(), step);
        QVERIFY(w.session()->frames(step, 1.0) == frames);
        QVERIFY(!w.recentFiles().contains(QFileInfo(bad).absoluteFilePath()));
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
        QVERIFY(importedSet().empty());
    }

    void dropImportsTheFiles() {
        MainWindow w;
        w.openInitial(findScenario("roofline"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(fixture("ncu_rtx5070_gemm_naive.csv")),
                      QUrl::fromLocalFile(fixture("ncu_rtx5070_gemm_tiled.csv"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        const auto [ok, msg] = waitForImport(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("2 Nsight Compute CSVs"), qPrintable(msg));
        QCOMPARE(importedSet().ncu.size(), std::size_t(2));
        // The roofline was open and draws Nsight Compute kernels: it stays.
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        w.closeImportedFiles();
        QVERIFY(importedSet().empty());
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
        QVERIFY(importedSet().empty());
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
        QVERIFY2(batch.error.isEmpty(), qPrintable(batch.error));
        QCOMPARE(batch.results.size(), std::size_t(2));
        QCOMPARE(done.load(), total);
    }
};

QTEST_MAIN(TestImportGui)
#include "test_import_gui.moc"
